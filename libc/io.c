/* Reading and writing file descriptors. */
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"

/* Read up to `count` bytes. On the console it blocks until at least one byte is there
 * and returns what has arrived (or fails with EAGAIN under O_NONBLOCK). 0 = end of file. */
ssize_t read(int fd, void *buf, size_t count)
{
	return libc_result(syscall3(SYS_read, fd, (long)buf, (long)count));
}

/* Write `count` bytes; a console write of up to 4096 bytes appears whole. */
ssize_t write(int fd, const void *buf, size_t count)
{
	return libc_result(syscall3(SYS_write, fd, (long)buf, (long)count));
}

/* Read into iov[0], iov[1], ... in order, with one system call. */
ssize_t readv(int fd, const struct iovec *iov, int iovcnt)
{
	return libc_result(syscall3(SYS_readv, fd, (long)iov, iovcnt));
}

/* Write iov[0], iov[1], ... in order as one write. */
ssize_t writev(int fd, const struct iovec *iov, int iovcnt)
{
	return libc_result(syscall3(SYS_writev, fd, (long)iov, iovcnt));
}

/* Release a file descriptor. */
int close(int fd)
{
	return (int)libc_result(syscall1(SYS_close, fd));
}

/* A new descriptor (the lowest free one) for the same open file. */
int dup(int fd)
{
	return (int)libc_result(syscall1(SYS_dup, fd));
}
