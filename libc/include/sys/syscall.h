/* Raw system calls: the Linux riscv64 numbers Duplex implements and inline `ecall`
 * wrappers (in <raw_syscall.h>, which glibc builds use too).
 *
 * The libc wrappers (read(), openat(), ...) are built on these. Programs use them
 * directly only to see the kernel's own answer: a raw call returns the kernel's value
 * unchanged, so an error is a negative Linux errno (-4095..-1), not -1 with errno set.
 */
#ifndef DUPLEX_SYS_SYSCALL_H
#define DUPLEX_SYS_SYSCALL_H

/* The numbers: one list, shared with the kernel (uapi/syscall_numbers.h, the user ABI;
 * user.mk puts the repository root last on the include path). */
#include <uapi/syscall_numbers.h>

#include <raw_syscall.h>

#endif
