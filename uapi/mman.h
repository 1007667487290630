/* mmap's protections and flags as riscv64 Linux takes them
 * (include/uapi/asm-generic/mman-common.h, and MAP_SHARED_VALIDATE from
 * include/uapi/linux/mman.h). Shared by the kernel (kernel/syscall/sys_memory.c) and
 * libc's <sys/mman.h>, which passes them through unchanged. Plain macros only. */
#ifndef DUPLEX_UAPI_MMAN_H
#define DUPLEX_UAPI_MMAN_H

#define PROT_NONE  0x0
#define PROT_READ  0x1
#define PROT_WRITE 0x2
#define PROT_EXEC  0x4

#define MAP_SHARED          0x01
#define MAP_PRIVATE         0x02
#define MAP_SHARED_VALIDATE 0x03
#define MAP_TYPE            0x0f /* the mapping type: one of the three above */
#define MAP_FIXED           0x10
#define MAP_ANONYMOUS       0x20
#define MAP_FIXED_NOREPLACE 0x100000

#endif
