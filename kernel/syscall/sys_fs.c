/* Calls that change or ask about names: mkdirat, unlinkat, symlinkat, renameat2,
 * truncate, ftruncate, faccessat, faccessat2, fchmod, fchmodat, utimensat, with Linux's flags
 * and errno values (fs/namei.c, fs/open.c, fs/utimes.c). Paths come through
 * user_path_get (kernel/syscall/user_path.h); the work is the file layer's
 * (kernel/fs/file_system.h). Each runs in task context for the calling process. */
#include "kernel/fs/file_system.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"
#include "kernel/syscall/user_path.h"

/* utimensat's special nanosecond values (include/uapi/linux/stat.h). */
#define UTIME_NOW     ((1l << 30) - 1l)
#define UTIME_OMIT    ((1l << 30) - 2l)
#define NS_PER_SECOND 1000000000l

long sys_mkdirat(uint64_t directory_fd, uint64_t path_address, uint64_t mode, uint64_t a3,
                 uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct user_path at;
	long error = user_path_get(process_current(), directory_fd, path_address,
	                           USER_PATH_EMPTY_ENOENT, &at);
	if (error)
		return error;
	return fs_make_directory(at.base, at.path, (uint32_t)mode & ~PROCESS_UMASK);
}

long sys_unlinkat(uint64_t directory_fd, uint64_t path_address, uint64_t flags, uint64_t a3,
                  uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	if (flags & ~(uint64_t)AT_REMOVEDIR)
		return -EINVAL;
	struct user_path at;
	long error = user_path_get(process_current(), directory_fd, path_address,
	                           USER_PATH_EMPTY_ENOENT, &at);
	if (error)
		return error;
	return fs_remove(at.base, at.path, flags & AT_REMOVEDIR);
}

long sys_symlinkat(uint64_t target_address, uint64_t directory_fd, uint64_t path_address,
                   uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	char target[PATH_LINK_MAX];
	long length = copy_string_from_user(&process->space, target, target_address, sizeof target);
	if (length < 0)
		return length;
	if (length == 0)
		return -ENOENT;
	struct user_path at;
	long error =
	    user_path_get(process, directory_fd, path_address, USER_PATH_EMPTY_ENOENT, &at);
	if (error)
		return error;
	return fs_symlink(target, at.base, at.path);
}

/* renameat2: flags 0, RENAME_NOREPLACE and RENAME_EXCHANGE (the one file system that
 * renames, tmpfs, does all three). The two paths are copied one after the other, each
 * into its own buffer on the stack (2 x USER_PATH_MAX). */
long sys_renameat2(uint64_t from_fd, uint64_t from_address, uint64_t to_fd, uint64_t to_address,
                   uint64_t flags, uint64_t a5)
{
	(void)a5;
	struct process *process = process_current();
	struct user_path from, to;
	long error = user_path_get(process, from_fd, from_address, USER_PATH_EMPTY_ENOENT, &from);
	if (error)
		return error;
	error = user_path_get(process, to_fd, to_address, USER_PATH_EMPTY_ENOENT, &to);
	if (error)
		return error;
	if (flags > 0xffffffffu)
		return -EINVAL;
	return fs_rename(from.base, from.path, to.base, to.path, (unsigned)flags);
}

/* ftruncate's rules (fs/open.c do_sys_ftruncate): a negative length EINVAL before the
 * descriptor is looked at; a file not open for writing, or with no length to set (a
 * directory, a device), EINVAL. */
static long truncate_file(struct file *file, int64_t length)
{
	int mode = file->flags & O_ACCMODE;
	if ((mode != O_WRONLY && mode != O_RDWR) || !file->ops->truncate)
		return -EINVAL;
	return file->ops->truncate(file, (uint64_t)length);
}

long sys_ftruncate(uint64_t fd, uint64_t length, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if ((int64_t)length < 0)
		return -EINVAL;
	struct file *file = process_file(process_current(), fd);
	if (!file)
		return -EBADF;
	return truncate_file(file, (int64_t)length);
}

/* truncate(2): open for writing (EISDIR, EROFS, ENOENT as openat), then ftruncate. */
long sys_truncate(uint64_t path_address, uint64_t length, uint64_t a2, uint64_t a3, uint64_t a4,
                  uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if ((int64_t)length < 0)
		return -EINVAL;
	struct file *file;
	long error = user_path_open(process_current(), (uint64_t)AT_FDCWD, path_address, O_WRONLY,
	                            0, USER_PATH_EMPTY_ENOENT, &file);
	if (error)
		return error;
	error = truncate_file(file, (int64_t)length);
	file_put(file);
	return error;
}

long sys_faccessat2(uint64_t directory_fd, uint64_t path_address, uint64_t mode, uint64_t flags,
                    uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	if (mode & ~(uint64_t)7)
		return -EINVAL;
	if (flags & ~(uint64_t)(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	struct user_path at;
	long error = user_path_get(
	    process_current(), directory_fd, path_address,
	    (flags & AT_EMPTY_PATH) ? USER_PATH_EMPTY_NAMES_FD : USER_PATH_EMPTY_ENOENT, &at);
	if (error)
		return error;
	if (at.itself) { /* the descriptor's own file: root may do all but execute */
		struct file_status status;
		at.itself->ops->status(at.itself, &status);
		return (mode & 1) && !(status.mode & 0111) ? -EACCES : 0;
	}
	return fs_access(at.base, at.path, (int)mode, !(flags & AT_SYMLINK_NOFOLLOW));
}

/* faccessat: faccessat2 without flags (the real and effective ids are the same: root). */
long sys_faccessat(uint64_t directory_fd, uint64_t path_address, uint64_t mode, uint64_t a3,
                   uint64_t a4, uint64_t a5)
{
	(void)a3;
	return sys_faccessat2(directory_fd, path_address, mode, 0, a4, a5);
}

/* fchmodat (riscv64 Linux's takes no flags): follows links, as Linux's does. */
long sys_fchmodat(uint64_t directory_fd, uint64_t path_address, uint64_t mode, uint64_t a3,
                  uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct user_path at;
	long error = user_path_get(process_current(), directory_fd, path_address,
	                           USER_PATH_EMPTY_ENOENT, &at);
	if (error)
		return error;
	return fs_set_mode(at.base, at.path, (uint32_t)mode, true);
}

/* fchmod: the descriptor's own file (a directory by its name, as fchmodat would). */
long sys_fchmod(uint64_t fd, uint64_t mode, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	struct file *file = process_file(process_current(), fd);
	if (!file)
		return -EBADF;
	if (file->ops->list)
		return fs_set_mode(file->path, ".", (uint32_t)mode, true);
	return file->ops->set_mode ? file->ops->set_mode(file, (uint32_t)mode & 07777) : -EROFS;
}

/* One utimensat timespec as the file layer takes it: ns, FILE_TIME_NOW or FILE_TIME_OMIT;
 * -EINVAL for nanoseconds out of range. */
static long time_request(const int64_t timespec[2], int64_t *out)
{
	if (timespec[1] == UTIME_NOW)
		*out = FILE_TIME_NOW;
	else if (timespec[1] == UTIME_OMIT)
		*out = FILE_TIME_OMIT;
	else if (timespec[1] < 0 || timespec[1] >= NS_PER_SECOND || timespec[0] < 0 ||
	         timespec[0] > INT64_MAX / NS_PER_SECOND - 1)
		return -EINVAL;
	else
		*out = timespec[0] * NS_PER_SECOND + timespec[1];
	return 0;
}

/* utimensat: NULL times set both to now; a NULL path changes the descriptor's own file
 * (futimens), as does AT_EMPTY_PATH with an empty one. */
long sys_utimensat(uint64_t directory_fd, uint64_t path_address, uint64_t times_address,
                   uint64_t flags, uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	int64_t times[2] = {FILE_TIME_NOW, FILE_TIME_NOW};
	if (times_address) {
		int64_t given[2][2];
		if (copy_from_user(&process->space, given, times_address, sizeof given) != 0)
			return -EFAULT;
		for (int i = 0; i < 2; i++) {
			long error = time_request(given[i], &times[i]);
			if (error)
				return error;
		}
	}
	struct file *itself = 0;
	struct user_path at;
	if (path_address == 0) {
		if ((int)directory_fd == AT_FDCWD)
			return -EFAULT; /* Linux: a NULL path needs a descriptor */
		itself = process_file(process, directory_fd);
		if (!itself)
			return -EBADF;
	} else {
		long error = user_path_get(process, directory_fd, path_address,
		                           (flags & AT_EMPTY_PATH) ? USER_PATH_EMPTY_NAMES_FD
		                                                   : USER_PATH_EMPTY_ENOENT,
		                           &at);
		if (error)
			return error;
		itself = at.itself;
	}
	if (times[0] == FILE_TIME_OMIT && times[1] == FILE_TIME_OMIT)
		return 0;
	if (itself && itself->ops->list) /* a directory descriptor: its name */
		return fs_set_times(itself->path, ".", times, true);
	if (itself)
		return itself->ops->set_times ? itself->ops->set_times(itself, times) : -EROFS;
	return fs_set_times(at.base, at.path, times, !(flags & AT_SYMLINK_NOFOLLOW));
}
