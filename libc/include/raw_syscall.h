/* syscall0 .. syscall6: inline `ecall` wrappers that return the kernel's answer
 * unchanged (an error is -errno, Linux numbers), and struct linux_stat, what a raw
 * fstat fills. Included by <sys/syscall.h>, Duplex's
 * and the one glibc builds use (libc/glibc/include/sys/syscall.h). */
#ifndef DUPLEX_RAW_SYSCALL_H
#define DUPLEX_RAW_SYSCALL_H

/* The kernel's struct stat, for raw fstat/newfstatat (libc's own struct stat differs). */
#include <uapi/stat.h>

/* The largest errno a raw call can return as -errno (Linux convention). */
#define SYSCALL_MAX_ERRNO 4095

/* Make system call `number` with six arguments: a7 = number, a0..a5 = arguments,
 * `ecall`, result in a0. Every other wrapper below passes zeros for the unused ones. */
static inline long syscall6(long number, long arg0, long arg1, long arg2, long arg3, long arg4,
                            long arg5)
{
	register long a0 __asm__("a0") = arg0;
	register long a1 __asm__("a1") = arg1;
	register long a2 __asm__("a2") = arg2;
	register long a3 __asm__("a3") = arg3;
	register long a4 __asm__("a4") = arg4;
	register long a5 __asm__("a5") = arg5;
	register long a7 __asm__("a7") = number;

	/* "memory": the kernel may read or write any buffer the arguments point to. */
	__asm__ volatile("ecall"
	                 : "+r"(a0)
	                 : "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5), "r"(a7)
	                 : "memory");
	return a0;
}

/* syscall0 .. syscall5: the same with fewer arguments. */
static inline long syscall0(long number)
{
	return syscall6(number, 0, 0, 0, 0, 0, 0);
}

static inline long syscall1(long number, long arg0)
{
	return syscall6(number, arg0, 0, 0, 0, 0, 0);
}

static inline long syscall2(long number, long arg0, long arg1)
{
	return syscall6(number, arg0, arg1, 0, 0, 0, 0);
}

static inline long syscall3(long number, long arg0, long arg1, long arg2)
{
	return syscall6(number, arg0, arg1, arg2, 0, 0, 0);
}

static inline long syscall4(long number, long arg0, long arg1, long arg2, long arg3)
{
	return syscall6(number, arg0, arg1, arg2, arg3, 0, 0);
}

static inline long syscall5(long number, long arg0, long arg1, long arg2, long arg3, long arg4)
{
	return syscall6(number, arg0, arg1, arg2, arg3, arg4, 0);
}

#endif
