/* File status: fstat, newfstatat and readlinkat with Linux semantics and errno values
 * (fs/stat.c). Every open file describes itself (file_ops.status), every file system
 * describes its names (file_system_ops.status); this file turns that into riscv64
 * Linux's struct stat. Paths resolve as openat's do (kernel/syscall/user_path.h). */
#include "kernel/fs/file.h"
#include "kernel/fs/file_system.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"
#include "kernel/syscall/user_path.h"
#include "uapi/stat.h"

#define NS_PER_SECOND 1000000000ll

/* Copy `status` to user memory at `address` as a struct stat. The archive's times are
 * 0: it is built with all time stamps at 0 (user/user.mk). Everything is root's. */
static long put_stat(struct process *process, const struct file_status *status, uint64_t address)
{
	uint32_t links = status->counts_links                                     ? status->links
	                 : (status->mode & FILE_MODE_TYPE) == FILE_MODE_DIRECTORY ? 2
	                                                                          : 1;
	struct linux_stat out = {
	    .device = status->device,
	    .inode = status->inode,
	    .mode = status->mode,
	    .links = links,
	    .special_device = status->special_device,
	    .size = (int64_t)status->size,
	    .block_size = (int32_t)status->block_size,
	    .blocks = status->counts_links ? (int64_t)status->blocks
	                                   : (int64_t)((status->size + 511) / 512),
	};
	for (int i = 0; i < 3; i++) {
		out.times[2 * i] = status->times[i] / NS_PER_SECOND;
		out.times[2 * i + 1] = status->times[i] % NS_PER_SECOND;
	}
	return copy_to_user(&process->space, address, &out, sizeof out);
}

long sys_fstat(uint64_t fd, uint64_t address, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = process_file(process, fd);
	if (!file)
		return -EBADF;
	struct file_status status;
	file->ops->status(file, &status);
	return put_stat(process, &status, address);
}

long sys_newfstatat(uint64_t directory_fd, uint64_t path_address, uint64_t address, uint64_t flags,
                    uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH))
		return -EINVAL;
	struct user_path at;
	long error = user_path_get(
	    process, directory_fd, path_address,
	    (flags & AT_EMPTY_PATH) ? USER_PATH_EMPTY_NAMES_FD : USER_PATH_EMPTY_ENOENT, &at);
	if (error)
		return error;
	struct file_status status;
	if (at.itself)
		at.itself->ops->status(at.itself, &status);
	else if ((error = fs_status(at.base, at.path, !(flags & AT_SYMLINK_NOFOLLOW), &status)))
		return error;
	return put_stat(process, &status, address);
}

/* readlinkat: the target into the user's buffer, not NUL-terminated, cut at `size`. */
long sys_readlinkat(uint64_t directory_fd, uint64_t path_address, uint64_t buffer, uint64_t size,
                    uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	if ((int)size <= 0) /* Linux's bufsiz is an int */
		return -EINVAL;
	struct user_path at;
	long error =
	    user_path_get(process, directory_fd, path_address, USER_PATH_EMPTY_ENOENT, &at);
	if (error)
		return error; /* /proc/self/exe: -ENOENT, there is no /proc */
	char target[PATH_LINK_MAX];
	long length = fs_read_link(at.base, at.path, target,
	                           size < sizeof target ? (size_t)size : sizeof target);
	if (length > 0 && copy_to_user(&process->space, buffer, target, (size_t)length) != 0)
		return -EFAULT;
	return length;
}
