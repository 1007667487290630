/* Reading directories (see <dirent.h>). */
#include <dirent.h>

#include "internal.h"

/* The raw directory reader: the kernel fills `buf` with linux_dirent64 records. */
ssize_t getdents64(int fd, void *buf, size_t size)
{
	return libc_result(syscall3(SYS_getdents64, fd, (long)buf, (long)size));
}
