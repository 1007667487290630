/* getdents64's record as riscv64 Linux writes it (struct linux_dirent64, Linux
 * include/linux/dirent.h; glibc calls it struct dirent64) and its d_type values
 * (include/linux/fs_types.h, the DT_ values of glibc's <dirent.h>). Records follow one
 * another, each d_reclen bytes, padded to 8; d_name starts at offset 19, not at
 * sizeof (24). Shared by the kernel (kernel/fs/dirent.c writes them) and libc's
 * <dirent.h>. Plain declarations only. */
#ifndef DUPLEX_UAPI_DIRENT_H
#define DUPLEX_UAPI_DIRENT_H

#include <stdint.h>

#define DT_UNKNOWN 0
#define DT_FIFO    1
#define DT_CHR     2
#define DT_DIR     4
#define DT_BLK     6
#define DT_REG     8
#define DT_LNK     10
#define DT_SOCK    12

struct linux_dirent64 {
	uint64_t d_ino;    /* inode number (any nonzero value) */
	int64_t d_off;     /* position of the next record */
	uint16_t d_reclen; /* size of this record, name and padding included */
	uint8_t d_type;    /* DT_* */
	char d_name[];     /* NUL-terminated name */
};

#endif
