/* uname(): the kernel fills in its name, release and machine. */
#include <sys/utsname.h>

#include "internal.h"

/* Called by programs that print the system name (and test_syscalls). */
int uname(struct utsname *name)
{
	return (int)libc_result(syscall1(SYS_uname, (long)name));
}
