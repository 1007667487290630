/* fstat(), stat() and lstat(): the kernel fills riscv64 Linux's struct stat (the same
 * header the kernel uses), which is copied field by field into picolibc's struct stat (a
 * different layout). The S_IF* type bits are the same octal values in both. */
#include <fcntl.h>
#include <sys/stat.h>

#include <uapi/stat.h>

#include "internal.h"

#define LINUX_AT_FDCWD            (-100)
#define LINUX_AT_SYMLINK_NOFOLLOW 0x100

static void from_linux(const struct linux_stat *in, struct stat *out)
{
	*out = (struct stat){
	    .st_dev = (dev_t)in->device,
	    .st_ino = (ino_t)in->inode,
	    .st_mode = (mode_t)in->mode,
	    .st_nlink = (nlink_t)in->links,
	    .st_uid = (uid_t)in->uid,
	    .st_gid = (gid_t)in->gid,
	    .st_rdev = (dev_t)in->special_device,
	    .st_size = (off_t)in->size,
	    .st_blksize = (blksize_t)in->block_size,
	    .st_blocks = (blkcnt_t)in->blocks,
	};
	out->st_atim = (struct timespec){in->times[0], in->times[1]};
	out->st_mtim = (struct timespec){in->times[2], in->times[3]};
	out->st_ctim = (struct timespec){in->times[4], in->times[5]};
}

/* The status of open file `fd`. */
int fstat(int fd, struct stat *status)
{
	struct linux_stat raw;
	long result = libc_result(syscall2(SYS_fstat, fd, (long)&raw));
	if (result == 0)
		from_linux(&raw, status);
	return (int)result;
}

/* The status of the file at `path` (relative paths start at "/"). */
int stat(const char *restrict path, struct stat *restrict status)
{
	struct linux_stat raw;
	long result =
	    libc_result(syscall4(SYS_newfstatat, LINUX_AT_FDCWD, (long)path, (long)&raw, 0));
	if (result == 0)
		from_linux(&raw, status);
	return (int)result;
}

/* The status of `path` itself: a symbolic link is not followed (Linux's
 * AT_SYMLINK_NOFOLLOW, 0x100, include/uapi/linux/fcntl.h). Called by ls -l. */
int lstat(const char *restrict path, struct stat *restrict status)
{
	struct linux_stat raw;
	long result = libc_result(syscall4(SYS_newfstatat, LINUX_AT_FDCWD, (long)path, (long)&raw,
	                                   LINUX_AT_SYMLINK_NOFOLLOW));
	if (result == 0)
		from_linux(&raw, status);
	return (int)result;
}
