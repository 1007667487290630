/* getdents64's records (struct linux_dirent64, include/linux/dirent.h), written by every
 * file system's directory listing. Pure code; any context. */
#ifndef DUPLEX_FS_DIRENT_H
#define DUPLEX_FS_DIRENT_H

#include <stddef.h>
#include <stdint.h>

/* d_type values (include/linux/fs_types.h: DT_*). */
#define DIRENT_CHARACTER 2
#define DIRENT_DIRECTORY 4
#define DIRENT_REGULAR   8
#define DIRENT_SYMLINK   10

/* The d_type of a file of st_mode `mode`. */
uint8_t dirent_type(uint32_t mode);

/* Write one record for `name` (name_length bytes) at `buffer` if it fits in `room`:
 * returns its size, 0 if it does not fit. `next` is d_off, the directory offset after
 * it (Duplex's directories count entries). */
size_t dirent_put(uint8_t *buffer, size_t room, const char *name, size_t name_length, uint8_t type,
                  uint64_t inode, uint64_t next);

#endif
