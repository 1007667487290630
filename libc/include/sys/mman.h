/* <sys/mman.h>, which picolibc lacks: anonymous memory mappings. The constants exist only
 * in this layer, so they are Linux's (include/uapi/asm-generic/mman-common.h, from
 * uapi/mman.h) and pass to the kernel unchanged. Duplex maps anonymous memory only: a file mapping
 * fails with ENODEV. */
#ifndef DUPLEX_SYS_MMAN_H
#define DUPLEX_SYS_MMAN_H

#include <stddef.h>
#include <sys/types.h>

/* PROT_ and MAP_ values: the user ABI the kernel shares. */
#include <uapi/mman.h>

#define MAP_ANON   MAP_ANONYMOUS
#define MAP_FAILED ((void *)-1)

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
