/* File status: fstat, newfstatat, and readlinkat (Duplex has no symbolic links) with
 * Linux semantics and errno values (fs/stat.c). Every open file describes itself
 * (file_ops.status); this file turns that into riscv64 Linux's struct stat. Paths
 * resolve as openat's do (kernel/syscall/user_path.h). */
#include "kernel/fs/cpio.h"
#include "kernel/fs/file.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/linux_stat.h"
#include "kernel/syscall/syscall.h"
#include "kernel/syscall/user_path.h"

#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_NO_AUTOMOUNT     0x800
#define AT_EMPTY_PATH       0x1000

/* Copy `file`'s status to user memory at `address` as a struct stat. Every time is 0:
 * the archive is built with all time stamps at 0 (user/user.mk). */
static long put_stat(struct process *process, const struct file *file, uint64_t address)
{
	struct file_status status;
	file->ops->status(file, &status);
	struct linux_stat out = {
	    .device = status.device,
	    .inode = status.inode,
	    .mode = status.mode,
	    .links = (status.mode & CPIO_MODE_TYPE) == CPIO_MODE_DIRECTORY ? 2 : 1,
	    .special_device = status.special_device,
	    .size = (int64_t)status.size,
	    .block_size = (int32_t)status.block_size,
	    .blocks = (int64_t)((status.size + 511) / 512),
	};
	return copy_to_user(&process->space, address, &out, sizeof out);
}

long sys_fstat(uint64_t fd, uint64_t address, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = process_file(process, fd);
	if (!file)
		return -EBADF;
	return put_stat(process, file, address);
}

long sys_newfstatat(uint64_t directory_fd, uint64_t path_address, uint64_t address, uint64_t flags,
                    uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH))
		return -EINVAL;
	struct file *file;
	long error = user_path_open(
	    process, directory_fd, path_address, O_RDONLY,
	    (flags & AT_EMPTY_PATH) ? USER_PATH_EMPTY_NAMES_FD : USER_PATH_EMPTY_ENOENT, &file);
	if (error)
		return error;
	error = put_stat(process, file, address);
	file_put(file);
	return error;
}

long sys_readlinkat(uint64_t directory_fd, uint64_t path_address, uint64_t buffer, uint64_t size,
                    uint64_t a4, uint64_t a5)
{
	(void)buffer, (void)a4, (void)a5;
	struct process *process = process_current();
	if ((int)size <= 0) /* Linux's bufsiz is an int */
		return -EINVAL;
	struct file *file;
	long error = user_path_open(process, directory_fd, path_address, O_RDONLY,
	                            USER_PATH_EMPTY_ENOENT, &file);
	if (error)
		return error; /* /proc/self/exe: -ENOENT, there is no /proc */
	file_put(file);
	return -EINVAL; /* it exists, and nothing is a symbolic link */
}
