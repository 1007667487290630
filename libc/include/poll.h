/* <poll.h>, which picolibc does not have: poll() and ppoll() over the kernel's ppoll
 * (riscv64 Linux has no poll call). The POLL* values and struct pollfd are Linux's
 * (include/uapi/asm-generic/poll.h), passed through unchanged. */
#ifndef DUPLEX_POLL_H
#define DUPLEX_POLL_H

#include <signal.h>
#include <time.h>

#define POLLIN     0x0001
#define POLLPRI    0x0002
#define POLLOUT    0x0004
#define POLLERR    0x0008
#define POLLHUP    0x0010
#define POLLNVAL   0x0020
#define POLLRDNORM 0x0040
#define POLLRDBAND 0x0080
#define POLLWRNORM 0x0100
#define POLLWRBAND 0x0200

typedef unsigned int nfds_t;

struct pollfd {
	int fd;
	short events;
	short revents;
};

/* Wait up to `timeout_ms` milliseconds (negative: for ever, 0: just look) until one of
 * `fds` is ready; returns how many are, 0 on timeout, -1 with errno. */
int poll(struct pollfd *fds, nfds_t count, int timeout_ms);
/* The same with a timespec (NULL: for ever); `sigmask` is passed on (Duplex delivers no
 * signals, so it changes nothing). */
int ppoll(struct pollfd *fds, nfds_t count, const struct timespec *timeout,
          const sigset_t *sigmask);

#endif
