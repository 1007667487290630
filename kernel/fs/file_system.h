/* File systems and the mount table: Linux's file_system_type, super_block and
 * inode_operations in miniature. A file system is one `struct file_system` with one ops
 * table; the mount table (kernel/fs/mount.c) puts each at a canonical name ("" for the
 * root, "dev", "tmp"), and the calls of kernel/fs/vfs.c resolve a path over all of
 * them, find the file system a name falls in, and hand it the name relative to its own
 * root ("" for the root, "a/b" below it). The ops see only canonical relative names of
 * which path resolution has already checked every directory on the way; what is left
 * to them is the last component. An op a file system leaves NULL is a change it cannot
 * make: the caller answers EROFS. Ops may sleep (task context) and take their own locks.
 *
 * Mounted now: the program archive at / (kernel/fs/initramfs.c), the device files at
 * /dev (kernel/fs/devices.c), a tmpfs at /tmp (kernel/fs/tmpfs/). */
#ifndef DUPLEX_FS_FILE_SYSTEM_H
#define DUPLEX_FS_FILE_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fs/file.h"
#include "kernel/fs/path.h"

struct file_system;

/* utimensat's time request for one stamp: ns since the epoch, or one of these. */
#define FILE_TIME_NOW  (-1)
#define FILE_TIME_OMIT (-2)

/* renameat2 flags (include/uapi/linux/fs.h). */
#define RENAME_NOREPLACE 1
#define RENAME_EXCHANGE  2

struct file_system_ops {
	/* What `name` is; a symbolic link's target into target[target_size]. Required. */
	enum path_kind (*lookup)(struct file_system *fs, const char *name, char *target,
	                         size_t target_size);
	/* stat of `name` (a link itself, not followed). 0 or -ENOENT. Required. */
	int (*status)(struct file_system *fs, const char *name, struct file_status *status);
	/* Open the existing file or directory `name` (the caller has checked the open flags
	 * against its kind); O_TRUNC is the file system's to do. Required. */
	int (*open)(struct file_system *fs, const char *name, int flags, struct file **file);
	/* Make the regular file `name` (missing; its directory exists) and open it. */
	int (*create)(struct file_system *fs, const char *name, uint32_t mode, int flags,
	              struct file **file);
	int (*make_directory)(struct file_system *fs, const char *name, uint32_t mode);
	/* unlink (`directory` false: `name` is not a directory) or rmdir (true: it is one,
	 * and empty, else -ENOTEMPTY). */
	int (*remove)(struct file_system *fs, const char *name, bool directory);
	/* Both names in this file system; `from` exists. Linux's rename rules, which
	 * the file system checks: -EISDIR, -ENOTDIR, -ENOTEMPTY, -EEXIST (NOREPLACE),
	 * -EINVAL (a directory into itself); RENAME_EXCHANGE swaps two names. */
	int (*rename)(struct file_system *fs, const char *from, const char *to, unsigned flags);
	int (*symlink)(struct file_system *fs, const char *target, const char *name);
	/* chmod: the permission bits (07777) of `name`. */
	int (*set_mode)(struct file_system *fs, const char *name, uint32_t mode);
	/* utimensat: access and modification times (ns, FILE_TIME_NOW or FILE_TIME_OMIT). */
	int (*set_times)(struct file_system *fs, const char *name, const int64_t times[2]);
};

struct file_system {
	const char *name; /* "archive", "devices", "tmpfs": for the boot log */
	const struct file_system_ops *ops;
	void *data; /* the file system's own state */
};

/* Mount `fs` at canonical `point` ("" the root, "dev", "tmp"): a string that lives for
 * ever. Called at boot by kernel_main, before other harts run; the table is read-only
 * afterwards, so finding a mount takes no lock. Returns 0, or -1 when the table is full. */
int mount_add(const char *point, struct file_system *fs);
/* The file system canonical `name` falls in (the longest mount point that is it or
 * a directory above it), with *relative set to the rest of the name. NULL if nothing is
 * mounted at the root. Any context. */
struct file_system *mount_find(const char *name, const char **relative);
/* Is canonical `name` a mount point (the root included)? */
bool mount_is_point(const char *name);
/* The i-th mount point below the root directory `directory` names as a child ("dev"
 * below ""), for a listing: returns it, or NULL past the last. */
const char *mount_child(const char *directory, int index);

/* The two file systems the file layer carries itself. */
extern struct file_system initramfs_file_system; /* kernel/fs/initramfs.c */
extern struct file_system devices_file_system;   /* kernel/fs/devices.c */

/* The calls on names, for the system calls (kernel/syscall/sys_fs.c). `base` is the
 * canonical directory a relative path starts at. Each returns 0 or -errno: resolution's
 * (-ENOENT, -ENOTDIR, -ENAMETOOLONG, -ELOOP) and its own, as Linux's. Task context;
 * may sleep; no lock held. */
int fs_make_directory(const char *base, const char *path, uint32_t mode);
/* unlinkat: `directory` true for AT_REMOVEDIR. */
int fs_remove(const char *base, const char *path, bool directory);
int fs_rename(const char *from_base, const char *from, const char *to_base, const char *to,
              unsigned flags);
int fs_symlink(const char *target, const char *base, const char *path);
/* readlinkat: the target's length (not NUL-terminated in `buffer`, cut at `size`). */
long fs_read_link(const char *base, const char *path, char *buffer, size_t size);
/* stat of a path, following a final link if `follow`. */
int fs_status(const char *base, const char *path, bool follow, struct file_status *status);
/* faccessat2 as root: F_OK/R_OK/W_OK/X_OK (`mode` already checked); W_OK on a
 * read-only file system -EROFS (devices excepted), X_OK on a file with no x bit
 * -EACCES. */
int fs_access(const char *base, const char *path, int mode, bool follow);
/* fs_access's modes, access(2)'s (Linux include/uapi/linux/fcntl.h): execve asks X_OK. */
#define FS_ACCESS_WRITE   2 /* W_OK */
#define FS_ACCESS_EXECUTE 1 /* X_OK */
int fs_set_mode(const char *base, const char *path, uint32_t mode, bool follow);
int fs_set_times(const char *base, const char *path, const int64_t times[2], bool follow);
/* chdir: the canonical name of the directory `path` names, into out[FILE_PATH_MAX]. */
int fs_directory(const char *base, const char *path, char *out);
/* getdents64 of open directory `directory`: "." and ".." first, then the file system's
 * listing (its list op); the directory's offset counts both. Records into buffer[length];
 * the bytes written, 0 at the end, -EINVAL if not even one record fits. Task context. */
long fs_list(struct file *directory, void *buffer, size_t length);

/* A program's bytes for the ELF loader: in the archive itself, or (any other file
 * system) a copy in pages of its own, which fs_program_release returns. */
struct fs_program {
	const uint8_t *data;
	uint64_t size;
	void *pages; /* the copy, or NULL */
	uint64_t page_count;
};
/* Largest program copied out of a file system other than the archive. */
#define FS_PROGRAM_COPY_MAX (64ull << 20)
/* execve/spawn: the bytes of the regular file `path` names (links followed): -ENOENT,
 * -EACCES for a directory or a device, -ENOMEM when a copy cannot be made (past
 * FS_PROGRAM_COPY_MAX too), and resolution's errors. Task context; may sleep. */
int fs_program(const char *base, const char *path, struct fs_program *program);
void fs_program_release(struct fs_program *program);

#endif
