/* lseek(): move a file's offset (picolibc's fseek/ftell and fopen's "a" mode use it).
 * SEEK_SET/CUR/END are 0/1/2 in both picolibc and Linux. */
#include <unistd.h>

#include "internal.h"

/* Called by programs and by picolibc's stdio. */
off_t lseek(int fd, off_t offset, int whence)
{
	return (off_t)libc_result(syscall3(SYS_lseek, fd, (long)offset, whence));
}
