/* Open files: what a file descriptor points at. Each kind of file (the console,
 * /dev/null, a program-archive file, a tmpfs file, a directory) supplies a small ops
 * table; the file systems that make them are in kernel/fs/file_system.h.
 * Data moves through kernel buffers: the syscall layer copies user memory in and
 * out, in chunks of at most FILE_CHUNK bytes, so ops never see user pointers. */
#ifndef DUPLEX_FS_FILE_H
#define DUPLEX_FS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/fcntl.h"
#include "uapi/poll.h"

/* Largest piece handed to one read/write op; also the console's atomic-write size. */
#define FILE_CHUNK 4096

/* Open flags are Linux's (uapi/fcntl.h). What F_GETFL reports and F_SETFL may change
 * (besides the access mode it reports): */
#define O_STATUS_FLAGS (O_APPEND | O_NONBLOCK)

/* lseek whence values (include/uapi/linux/fs.h). */
#define SEEK_SET  0
#define SEEK_CUR  1
#define SEEK_END  2
#define SEEK_DATA 3
#define SEEK_HOLE 4

/* Longest canonical path a file can be opened by, with its NUL (file->path holds it for
 * directories; a process's working directory is one). */
#define FILE_PATH_MAX 512

struct file;
struct poll_table;
struct address_space;

/* A poll op returns POLL* events (uapi/poll.h). A file without a poll op is always ready, as
 * Linux's DEFAULT_POLLMASK says of regular files and /dev/null. */
#define FILE_POLL_DEFAULT (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

/* What fstat reports about an open file (kernel/syscall/sys_stat.c makes a Linux struct
 * stat of it). Devices use Linux's numbers: /dev/console is 5:1, /dev/null 1:3. */
struct file_status {
	uint32_t mode;   /* S_IF* type and permission bits, as in a cpio header */
	uint64_t device; /* st_dev: FILE_DEVICE_ARCHIVE, _DEVICES or _TMPFS */
	uint64_t inode;
	uint64_t special_device; /* st_rdev of a character device: major << 8 | minor */
	uint64_t size;
	uint32_t block_size;
	/* counts_links: `links` and `blocks` are exact (tmpfs); else st_nlink is 2 for a
	 * directory and 1 otherwise, st_blocks the size in 512-byte units rounded up. */
	uint32_t links;
	bool counts_links;
	uint64_t blocks;  /* st_blocks: 512-byte units */
	int64_t times[3]; /* access, modification, change: ns since the epoch (0: never) */
};
#define FILE_DEVICE_ARCHIVE 1 /* the program archive's files and directories */
#define FILE_DEVICE_DEVICES 2 /* /dev */
#define FILE_DEVICE_TMPFS   3 /* /tmp */
#define FILE_MODE_TYPE      0170000
#define FILE_MODE_CHARACTER 0020000
#define FILE_MODE_FIFO      0010000
#define FILE_MODE_DIRECTORY 0040000
#define FILE_MODE_REGULAR   0100000
#define FILE_MODE_SYMLINK   0120000

struct file_ops {
	/* Task context; may sleep unless the file is O_NONBLOCK. Return bytes or -errno. */
	long (*read)(struct file *file, void *buffer, size_t length);
	long (*write)(struct file *file, const void *data, size_t length);
	/* `argument` is a kernel copy of the request's structure (the syscall layer knows
	 * each request's size and direction and copies it), or NULL for requests that take
	 * a plain value, which comes in `value`. */
	long (*ioctl)(struct file *file, unsigned long request, void *argument, uint64_t value);
	/* Directories: fill `buffer` with linux_dirent64 records; 0 at the end. */
	long (*list)(struct file *file, void *buffer, size_t length);
	/* lseek: the new offset or -errno; NULL: the file cannot seek (ESPIPE). */
	long (*seek)(struct file *file, int64_t offset, int whence);
	void (*release)(struct file *file);
	/* fstat: fill *status. Every kind of file has it; task context (tmpfs takes its
	 * mutex). */
	void (*status)(const struct file *file, struct file_status *status);
	/* ftruncate to `size` bytes (the caller checked the file is open for writing);
	 * NULL: the file has no length to set (EINVAL). Task context; may sleep. */
	long (*truncate)(struct file *file, uint64_t size);
	/* futimens: access and modification times (ns, FILE_TIME_NOW or FILE_TIME_OMIT of
	 * kernel/fs/file_system.h); NULL: the file's times cannot change (EROFS). */
	long (*set_times)(struct file *file, const int64_t times[2]);
	/* fchmod: the permission bits (07777); NULL: they cannot change (EROFS). */
	long (*set_mode)(struct file *file, uint32_t mode);
	/* ppoll/pselect6: the POLL* events the file is ready for now, after naming the wait
	 * queue(s) a change of them is announced on with poll_table_wait(table, ...)
	 * (kernel/waker/poll_table.h; `table` NULL: just look). Must not sleep: it runs
	 * between sched_prepare_park and sched_park. NULL: FILE_POLL_DEFAULT. */
	unsigned (*poll)(struct file *file, struct poll_table *table);
	/* Optional, for files that move bulk data (pipes): read/write straight between the
	 * file and a user range the syscall layer has checked, the whole length in one call
	 * (no FILE_CHUNK pieces, no bounce buffer). The one exception to "ops never see user
	 * memory"; -EFAULT if the range changed meanwhile. Task context; may sleep. */
	long (*read_user)(struct file *file, struct address_space *space, uint64_t address,
	                  size_t length);
	long (*write_user)(struct file *file, struct address_space *space, uint64_t address,
	                   size_t length);
};

struct file {
	const struct file_ops *ops;
	int references;
	int flags; /* O_ACCMODE bits and O_STATUS_FLAGS */
	uint64_t offset;
	const uint8_t *data; /* archive files: contents */
	uint64_t size;
	uint32_t mode;            /* archive files: the archive's st_mode */
	void *node;               /* the file system's own record of the file (tmpfs) */
	char path[FILE_PATH_MAX]; /* directories: which one (canonical) */
	void *private_data;       /* the file kind's own object (a pipe end: its pipe) */
};

/* A new file with one reference; NULL when out of memory. */
struct file *file_create(const struct file_ops *ops, int flags);
void file_get(struct file *file);
/* Drop a reference; the last one releases and frees the file. */
void file_put(struct file *file);

/* Make `path` (a string that lives for ever, "/dev/NAME") open as a file with `ops`.
 * Called at boot, before other harts run, by the layer that owns the device
 * (kernel_main registers /dev/console). Returns 0, or -1 when the device table is full.
 * Implemented by the device file system (kernel/fs/devices.c). */
int file_register_device(const char *path, const struct file_ops *ops);

/* Open `path` (Linux open flags; `mode` the permission bits of a file O_CREAT makes)
 * from directory `base` (canonical, "" for the root) through the mount table
 * (kernel/fs/vfs.c; how paths resolve: kernel/fs/path.h). Linux's answers:
 * O_CREAT of a missing name creates it where the file system can (tmpfs), EROFS where
 * it cannot (EISDIR with a trailing slash); O_CREAT|O_EXCL of an existing name (a
 * symbolic link too) EEXIST, O_CREAT|O_DIRECTORY EINVAL, O_TMPFILE EOPNOTSUPP on
 * tmpfs, EROFS elsewhere (EINVAL read-only); writing or O_TRUNC a file of a read-only
 * file system EROFS, a directory EISDIR, O_DIRECTORY of a file ENOTDIR; O_NOFOLLOW of a
 * symbolic link ELOOP; O_TRUNC on a device, O_NOCTTY and unknown bits are ignored;
 * O_PATH is not provided (EINVAL). Also -ENOENT, -ENOTDIR, -ENAMETOOLONG, -ELOOP from
 * resolution, -ENOSPC, -ENOMEM. Task context; may sleep. */
int file_open_at(const char *base, const char *path, int flags, uint32_t mode, struct file **file);
/* file_open_at from the root, creating nothing. */
int file_open(const char *path, int flags, struct file **file);
/* The generic lseek of a file whose size is file->size (archive files; tmpfs sets
 * file->size from its node first). */
long file_seek_sized(struct file *file, int64_t offset, int whence);
/* lseek on a directory whose offset counts entries: SEEK_SET and SEEK_CUR; SEEK_END is
 * EINVAL, as for Linux's ramfs. */
long file_seek_directory(struct file *file, int64_t offset, int whence);

#endif
