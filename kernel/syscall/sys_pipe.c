/* pipe2: a new pipe (kernel/pipe/pipe.h) as two descriptors. */
#include "kernel/lib/errno.h"
#include "kernel/pipe/pipe.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/descriptor.h"
#include "kernel/syscall/syscall.h"

/* pipe2(int fds[2], flags): fds[0] the read end, fds[1] the write end, both the lowest
 * free descriptors. Flags: O_CLOEXEC and O_NONBLOCK; anything else (O_DIRECT's packet
 * mode included, which Duplex does not do) is -EINVAL. -EMFILE without two free
 * descriptors, -EFAULT (and nothing left open) when `fds` cannot be written, as Linux's
 * do_pipe2. */
long sys_pipe2(uint64_t fds_address, uint64_t flags, uint64_t a2, uint64_t a3, uint64_t a4,
               uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (flags & ~(uint64_t)(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	struct process *process = process_current();
	struct file *read_end, *write_end;
	int error = pipe_create((int)flags, &read_end, &write_end);
	if (error)
		return error;
	bool close_on_exec = flags & O_CLOEXEC;
	int fds[2] = {descriptor_install(process, read_end, 0, close_on_exec), -1};
	if (fds[0] >= 0)
		fds[1] = descriptor_install(process, write_end, 0, close_on_exec);
	if (fds[1] < 0) {
		if (fds[0] >= 0)
			process->files[fds[0]] = 0;
		file_put(read_end);
		file_put(write_end);
		return -EMFILE;
	}
	if (copy_to_user(&process->space, fds_address, fds, sizeof fds) != 0) {
		descriptor_close(process, (uint64_t)fds[0]);
		descriptor_close(process, (uint64_t)fds[1]);
		return -EFAULT;
	}
	return 0;
}
