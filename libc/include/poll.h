/* <poll.h>, which picolibc does not have: poll() and ppoll() over the kernel's ppoll
 * (riscv64 Linux has no poll call). The POLL* values and struct pollfd are Linux's
 * (include/uapi/asm-generic/poll.h, uapi/poll.h), passed through unchanged. */
#ifndef DUPLEX_POLL_H
#define DUPLEX_POLL_H

#include <signal.h>
#include <time.h>

/* The POLL* events (the user ABI the kernel shares). */
#include <uapi/poll.h>

typedef unsigned int nfds_t;

/* Linux's layout (include/uapi/asm-generic/poll.h). */
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
