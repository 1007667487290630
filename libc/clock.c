/* Clocks and sleeping: clock_gettime, clock_getres, clock_nanosleep, nanosleep, and the
 * older interfaces picolibc builds on them (gettimeofday, sleep, usleep).
 *
 * picolibc numbers the clocks differently from Linux (CLOCK_REALTIME is 1 there, 0 in
 * Linux; CLOCK_MONOTONIC 4 and 1), so each call translates the id. */
#include <errno.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define LINUX_TIMER_ABSTIME 1
#define NS_PER_SECOND       1000000000L

/* Indexed by picolibc's clock id: the Linux id (time.h in both). */
static const signed char clock_to_linux[] = {
    [0] = 5, /* CLOCK_REALTIME_COARSE */
    [1] = 0, /* CLOCK_REALTIME */
    [2] = 2, /* CLOCK_PROCESS_CPUTIME_ID */
    [3] = 3, /* CLOCK_THREAD_CPUTIME_ID */
    [4] = 1, /* CLOCK_MONOTONIC */
    [5] = 4, /* CLOCK_MONOTONIC_RAW */
    [6] = 6, /* CLOCK_MONOTONIC_COARSE */
    [7] = 7, /* CLOCK_BOOTTIME */
};

/* The Linux id for picolibc's `clock`; ids without one pass through unchanged, so the
 * kernel rejects them with EINVAL. */
static long linux_clock(clockid_t clock)
{
	if ((unsigned long)clock < sizeof(clock_to_linux))
		return clock_to_linux[clock];
	return (long)clock;
}

/* The time on `clock`: a wall clock, or the CPU time used (CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID). */
int clock_gettime(clockid_t clock, struct timespec *now)
{
	return (int)libc_result(syscall2(SYS_clock_gettime, linux_clock(clock), (long)now));
}

/* The resolution of `clock`. */
int clock_getres(clockid_t clock, struct timespec *resolution)
{
	return (int)libc_result(syscall2(SYS_clock_getres, linux_clock(clock), (long)resolution));
}

/* Sleep for `request`, or until `request` with TIMER_ABSTIME. Unlike the other calls it
 * returns the error number itself (POSIX), not -1 with errno. */
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *request,
                    struct timespec *remain)
{
	long linux_flags = 0;
	long raw;

	if (flags & TIMER_ABSTIME)
		linux_flags |= LINUX_TIMER_ABSTIME;
	if (flags & ~TIMER_ABSTIME)
		return EINVAL;
	raw = syscall4(SYS_clock_nanosleep, linux_clock(clock), linux_flags, (long)request,
	               (long)remain);
	return raw < 0 ? libc_errno_from_linux((int)-raw) : 0;
}

/* Sleep for `request` on the monotonic clock. */
int nanosleep(const struct timespec *request, struct timespec *remain)
{
	return (int)libc_result(syscall2(SYS_nanosleep, (long)request, (long)remain));
}

/* The realtime clock in microseconds (picolibc's time() uses this). The time zone is
 * always UTC. */
int gettimeofday(struct timeval *restrict now, void *restrict zone)
{
	struct timespec ts;

	(void)zone;
	if (clock_gettime(CLOCK_REALTIME, &ts) < 0)
		return -1;
	now->tv_sec = ts.tv_sec;
	now->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

/* Sleep whole seconds; always sleeps them all, so returns 0. */
unsigned sleep(unsigned seconds)
{
	struct timespec ts = {.tv_sec = seconds, .tv_nsec = 0};

	nanosleep(&ts, NULL);
	return 0;
}

/* Sleep microseconds. */
int usleep(useconds_t microseconds)
{
	struct timespec ts = {
	    .tv_sec = microseconds / 1000000,
	    .tv_nsec = (long)(microseconds % 1000000) * 1000,
	};

	return nanosleep(&ts, NULL);
}
