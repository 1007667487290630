/* riscv64 Linux system call names (linux_names.c, generated from Linux's headers). */
#ifndef DUPLEX_SYSCALL_LINUX_NAMES_H
#define DUPLEX_SYSCALL_LINUX_NAMES_H

#include <stdint.h>

/* The Linux name of system call `number` ("mmap"), or NULL if riscv64 Linux has none.
 * Any context. */
const char *syscall_linux_name(uint64_t number);

#endif
