/* Reading a cpio "newc" archive (the format of Linux initramfs, and of GNU
 * `cpio -H newc`: 110-byte ASCII header "070701" + 13 eight-digit hex fields, the
 * name, then the data, each padded to 4 bytes; ends with "TRAILER!!!").
 * Pure code over a byte array: no locks, no allocation; host unit tests use it. */
#ifndef DUPLEX_FS_CPIO_H
#define DUPLEX_FS_CPIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cpio_entry {
	const char *name; /* not NUL-terminated in general: use name_length */
	size_t name_length;
	const uint8_t *data;
	uint64_t size;
	uint32_t mode; /* st_mode: type and permission bits */
};

#define CPIO_MODE_TYPE      0170000
#define CPIO_MODE_DIRECTORY 0040000
#define CPIO_MODE_REGULAR   0100000
#define CPIO_MODE_SYMLINK   0120000

/* Read the entry at *offset and advance it. Returns 1 with *entry filled, 0 at the
 * trailer (or the end of the bytes), -1 if the archive is malformed. Leading "./" or
 * "/" is stripped from names. */
int cpio_next(const uint8_t *archive, size_t archive_size, size_t *offset,
              struct cpio_entry *entry);

/* Find `path` (leading '/' optional). Returns true with *entry filled. */
bool cpio_find(const uint8_t *archive, size_t archive_size, const char *path,
               struct cpio_entry *entry);

#endif
