/* dup3: one descriptor made a copy of another (dup and fcntl F_DUPFD are in
 * sys_file.c). */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/descriptor.h"
#include "kernel/syscall/syscall.h"

/* dup3(old, new, flags): `new` names the open file `old` names, closing what `new` was
 * first; FD_CLOEXEC on `new` from O_CLOEXEC in flags. As Linux's ksys_dup3: -EINVAL for
 * flags other than O_CLOEXEC and for old == new (dup2's "nothing to do" is libc's, by
 * fcntl), -EBADF for an old that is not open or a new out of range. */
long sys_dup3(uint64_t old_fd, uint64_t new_fd, uint64_t flags, uint64_t a3, uint64_t a4,
              uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	if (flags & ~(uint64_t)O_CLOEXEC)
		return -EINVAL;
	if (old_fd == new_fd)
		return -EINVAL;
	struct process *process = process_current();
	if (new_fd >= PROCESS_MAX_FILES)
		return -EBADF;
	struct file *file = process_file(process, old_fd);
	if (!file)
		return -EBADF;
	descriptor_replace(process, new_fd, file, flags & O_CLOEXEC);
	return (long)new_fd;
}
