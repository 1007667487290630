/* ioctl(): request numbers and arguments go to the kernel unchanged (Linux values). */
#include <stdarg.h>
#include <sys/ioctl.h>

#include "internal.h"

/* The one optional argument is an int or a pointer; read it as a long, which holds
 * either (the RISC-V calling convention passes both in one register). */
int ioctl(int fd, unsigned long request, ...)
{
	va_list args;
	long arg;

	va_start(args, request);
	arg = va_arg(args, long);
	va_end(args);
	return (int)libc_result(syscall3(SYS_ioctl, fd, (long)request, arg));
}
