/* <sys/mman.h>, which picolibc lacks: anonymous memory mappings. The constants exist only
 * in this layer, so they are Linux's (include/uapi/asm-generic/mman-common.h) and pass to
 * the kernel unchanged. Duplex maps anonymous memory only: a file mapping fails with
 * ENODEV. */
#ifndef DUPLEX_SYS_MMAN_H
#define DUPLEX_SYS_MMAN_H

#include <stddef.h>
#include <sys/types.h>

#define PROT_NONE  0x0
#define PROT_READ  0x1
#define PROT_WRITE 0x2
#define PROT_EXEC  0x4

#define MAP_SHARED          0x01
#define MAP_PRIVATE         0x02
#define MAP_FIXED           0x10
#define MAP_ANONYMOUS       0x20
#define MAP_ANON            MAP_ANONYMOUS
#define MAP_FIXED_NOREPLACE 0x100000
#define MAP_FAILED          ((void *)-1)

/* Map `length` bytes (zeroed pages, allocated at once) with `prot`; returns the address
 * or MAP_FAILED with errno (EINVAL, ENOMEM, EEXIST, EBADF, ENODEV). */
void *mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset);
/* Unmap the whole pages of [address, address + length); 0 or -1 with errno (EINVAL). */
int munmap(void *address, size_t length);
/* Give [address, address + length) the access `prot`; 0 or -1 with errno (EINVAL,
 * ENOMEM: part of the range is not mapped). A write to a page without PROT_WRITE
 * kills the program (SIGSEGV). */
int mprotect(void *address, size_t length, int prot);

#endif
