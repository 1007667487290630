/* getdents64's records (struct linux_dirent64, uapi/dirent.h), written by every
 * file system's directory listing. Pure code; any context. */
#ifndef DUPLEX_FS_DIRENT_H
#define DUPLEX_FS_DIRENT_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/dirent.h"

/* d_type values: Linux's DT_ (uapi/dirent.h), under the kernel's names. */
#define DIRENT_CHARACTER DT_CHR
#define DIRENT_DIRECTORY DT_DIR
#define DIRENT_REGULAR   DT_REG
#define DIRENT_SYMLINK   DT_LNK

/* The d_type of a file of st_mode `mode`. */
uint8_t dirent_type(uint32_t mode);

/* Write one record for `name` (name_length bytes) at `buffer` if it fits in `room`:
 * returns its size, 0 if it does not fit. `next` is d_off, the directory offset after
 * it (Duplex's directories count entries). */
size_t dirent_put(uint8_t *buffer, size_t room, const char *name, size_t name_length, uint8_t type,
                  uint64_t inode, uint64_t next);

#endif
