/* The libc convention for system call results (see internal.h). */
#include <errno.h>

#include "internal.h"

/* Called by every wrapper with the kernel's raw answer. */
long libc_result(long raw)
{
	if (raw < 0 && raw >= -SYSCALL_MAX_ERRNO) {
		errno = libc_errno_from_linux((int)-raw);
		return -1;
	}
	return raw;
}

/* Called by wrappers that reject an argument before asking the kernel. */
long libc_fail(int error)
{
	errno = error;
	return -1;
}
