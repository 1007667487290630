/* Directory reading, minimal: getdents64() and its record (replaces picolibc's
 * <dirent.h>, which is an #error on this target).
 *
 * Duplex has two directories, "/" and "/bin". Open one with
 * open(path, O_RDONLY | O_DIRECTORY), then call getdents64() until it returns 0; each
 * call fills the buffer with whole records, one after the other, d_reclen bytes each. */
#ifndef DUPLEX_DIRENT_H
#define DUPLEX_DIRENT_H

#include <stdint.h>
#include <sys/types.h>

/* struct linux_dirent64 and the DT_ values: the user ABI the kernel shares. */
#include <uapi/dirent.h>

/* Read as many records as fit into buf[0..size). Returns the bytes filled, 0 at the
 * end of the directory, or -1 with errno (EINVAL: buffer too small for one record). */
ssize_t getdents64(int fd, void *buf, size_t size);

#endif
