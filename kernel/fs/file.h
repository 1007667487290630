/* Open files: what a file descriptor points at. Each kind of file (the console,
 * /dev/null, a program-archive file, a directory) supplies a small ops table.
 * Data moves through kernel buffers: the syscall layer copies user memory in and
 * out, in chunks of at most FILE_CHUNK bytes, so ops never see user pointers. */
#ifndef DUPLEX_FS_FILE_H
#define DUPLEX_FS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest piece handed to one read/write op; also the console's atomic-write size. */
#define FILE_CHUNK 4096

/* Linux open flags (include/uapi/asm-generic/fcntl.h). */
#define O_ACCMODE   00000003
#define O_RDONLY    00000000
#define O_WRONLY    00000001
#define O_RDWR      00000002
#define O_NONBLOCK  00004000
#define O_DIRECTORY 00200000
#define O_CLOEXEC   02000000

struct file;

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
	void (*release)(struct file *file);
};

struct file {
	const struct file_ops *ops;
	int references;
	int flags; /* O_ACCMODE bits and O_NONBLOCK */
	uint64_t offset;
	const uint8_t *data; /* archive files: contents */
	uint64_t size;
	char path[64]; /* directories: which one */
};

/* A new file with one reference; NULL when out of memory. */
struct file *file_create(const struct file_ops *ops, int flags);
void file_get(struct file *file);
/* Drop a reference; the last one releases and frees the file. */
void file_put(struct file *file);

/* Make `path` (a string that lives for ever) open as a file with `ops`. Called at boot,
 * before other harts run, by the layer that owns the device (kernel_main registers
 * /dev/console). Returns 0, or -1 when the device table is full. */
int file_register_device(const char *path, const struct file_ops *ops);

/* Resolve an absolute path: /dev/null, registered devices (/dev/console), files and
 * directories of the program archive. Returns 0 with *file set, or -ENOENT, -EACCES (writing an
 * archive file), -ENOTDIR, -EISDIR, -ENOMEM. Task context. */
int file_open(const char *path, int flags, struct file **file);

#endif
