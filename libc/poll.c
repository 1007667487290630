/* Waiting for descriptors: poll(), ppoll(), select(), pselect(), all over the kernel's
 * ppoll (73) and pselect6 (72). fd_set is picolibc's (FD_SETSIZE 64: one word, the same
 * bits Linux's pselect6 reads); POLL* are Linux's values (<poll.h>). */
#include <poll.h>
#include <stdint.h>
#include <sys/select.h>
#include <sys/time.h>

#include "internal.h"

/* The kernel's timespec and sigset size (the user ABI). */
#include <uapi/signal_action.h>
#include <uapi/time.h>

int ppoll(struct pollfd *fds, nfds_t count, const struct timespec *timeout, const sigset_t *sigmask)
{
	struct linux_timespec time, *time_pointer = 0;
	uint64_t mask = 0;
	if (timeout) {
		time = (struct linux_timespec){timeout->tv_sec, timeout->tv_nsec};
		time_pointer = &time;
	}
	if (sigmask)
		mask = *(const unsigned long *)sigmask;
	return (int)libc_result(syscall5(SYS_ppoll, (long)fds, (long)count, (long)time_pointer,
	                                 sigmask ? (long)&mask : 0, SIGSET_SIZE));
}

int poll(struct pollfd *fds, nfds_t count, int timeout_ms)
{
	if (timeout_ms < 0)
		return ppoll(fds, count, 0, 0);
	struct timespec timeout = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000};
	return ppoll(fds, count, &timeout, 0);
}

int pselect(int count, fd_set *read_set, fd_set *write_set, fd_set *except_set,
            const struct timespec *timeout, const sigset_t *sigmask)
{
	struct linux_timespec time, *time_pointer = 0;
	if (timeout) {
		time = (struct linux_timespec){timeout->tv_sec, timeout->tv_nsec};
		time_pointer = &time;
	}
	uint64_t mask = sigmask ? *(const unsigned long *)sigmask : 0;
	long mask_argument[2] = {(long)&mask, SIGSET_SIZE};
	return (int)libc_result(syscall6(SYS_pselect6, count, (long)read_set, (long)write_set,
	                                 (long)except_set, (long)time_pointer,
	                                 sigmask ? (long)mask_argument : 0));
}

/* select: as Linux, the timeval is updated to the time that was left. */
int select(int count, fd_set *read_set, fd_set *write_set, fd_set *except_set,
           struct timeval *timeout)
{
	struct linux_timespec time, *time_pointer = 0;
	if (timeout) {
		time = (struct linux_timespec){timeout->tv_sec, (int64_t)timeout->tv_usec * 1000};
		time_pointer = &time;
	}
	long result = libc_result(syscall6(SYS_pselect6, count, (long)read_set, (long)write_set,
	                                   (long)except_set, (long)time_pointer, 0));
	if (timeout) {
		timeout->tv_sec = time.seconds;
		timeout->tv_usec = time.nanoseconds / 1000;
	}
	return (int)result;
}
