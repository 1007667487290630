/* syscall(): any system call by number, with the libc error convention (as in glibc).
 * For numbers libc has no wrapper for, and for checking the errno translation.
 *
 * Its arguments use this libc's constants, like every other function here: for the
 * calls whose constants picolibc numbers differently from Linux (clock ids and
 * TIMER_ABSTIME, AT_FDCWD and O_ flags, pipe2's and dup3's included), syscall() goes through the wrapper, which
 * translates; so syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL)
 * means what it says. Every other call passes its arguments unchanged. The raw
 * syscall0 .. syscall6 of <sys/syscall.h> take Linux's values. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* Up to six long arguments follow `number`; the ones not passed are read as whatever
 * the registers hold, which the kernel ignores for calls that take fewer. */
long syscall(long number, ...)
{
	va_list args;
	long a[6];

	va_start(args, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(args, long);
	va_end(args);
	switch (number) {
	case SYS_clock_gettime:
		return clock_gettime((clockid_t)a[0], (struct timespec *)a[1]);
	case SYS_clock_getres:
		return clock_getres((clockid_t)a[0], (struct timespec *)a[1]);
	case SYS_clock_nanosleep: {
		/* clock_nanosleep returns the error; syscall() sets errno instead. */
		int error = clock_nanosleep((clockid_t)a[0], (int)a[1],
		                            (const struct timespec *)a[2], (struct timespec *)a[3]);
		return error ? libc_fail(error) : 0;
	}
	case SYS_openat:
		return openat((int)a[0], (const char *)a[1], (int)a[2], (int)a[3]);
	case SYS_fcntl:
		return fcntl((int)a[0], (int)a[1], a[2]);
	case SYS_pipe2:
		return pipe2((int *)a[0], (int)a[1]);
	case SYS_dup3:
		return dup3((int)a[0], (int)a[1], (int)a[2]);
	default:
		return libc_result(syscall6(number, a[0], a[1], a[2], a[3], a[4], a[5]));
	}
}
