/* Scatter/gather I/O: readv() and writev() move several buffers in one system call. */
#ifndef DUPLEX_SYS_UIO_H
#define DUPLEX_SYS_UIO_H

#include <sys/types.h>

/* The most iovecs one call accepts (Linux UIO_MAXIOV). */
#define IOV_MAX 1024

struct iovec {
	void *iov_base; /* start of the buffer */
	size_t iov_len; /* its length in bytes */
};

ssize_t readv(int fd, const struct iovec *iov, int iovcnt);
ssize_t writev(int fd, const struct iovec *iov, int iovcnt);

#endif
