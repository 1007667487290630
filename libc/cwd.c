/* The working directory: chdir(), fchdir(), getcwd(). The kernel keeps it per process
 * (kernel/syscall/sys_cwd.c); these only pass the calls on. Called by programs (sh's
 * `cd`, ls). Never sleep. */
#include <unistd.h>

#include "internal.h"

int chdir(const char *path)
{
	return (int)libc_result(syscall1(SYS_chdir, (long)path));
}

int fchdir(int fd)
{
	return (int)libc_result(syscall1(SYS_fchdir, fd));
}

/* Linux's getcwd returns the length it wrote; POSIX's returns the buffer. */
char *getcwd(char *buffer, size_t size)
{
	return libc_result(syscall2(SYS_getcwd, (long)buffer, (long)size)) < 0 ? NULL : buffer;
}
