/* syscall(): any system call by number, with the libc error convention (as in glibc).
 * For numbers libc has no wrapper for, and for checking the errno translation. */
#include <stdarg.h>
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
	return libc_result(syscall6(number, a[0], a[1], a[2], a[3], a[4], a[5]));
}
