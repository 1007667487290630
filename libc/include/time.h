/* Duplex additions to picolibc's <time.h>: the POSIX clocks and sleeps, which picolibc
 * declares only on targets that claim _POSIX_TIMERS.
 *
 * Clock ids and TIMER_ABSTIME keep picolibc's values (CLOCK_REALTIME is 1 here, 0 in
 * Linux); libc translates them for the kernel, like errno and the O_ flags. */
#ifndef DUPLEX_TIME_H
#define DUPLEX_TIME_H

#include_next <time.h>

#ifndef CLOCK_MONOTONIC
#define CLOCK_MONOTONIC ((clockid_t)4) /* picolibc's value; Linux's is 1 */
#endif
/* The CPU time the calling process, and thread, used (one thread per process). */
#ifndef CLOCK_PROCESS_CPUTIME_ID
#define CLOCK_PROCESS_CPUTIME_ID ((clockid_t)2) /* picolibc's value, also Linux's */
#endif
#ifndef CLOCK_THREAD_CPUTIME_ID
#define CLOCK_THREAD_CPUTIME_ID ((clockid_t)3)
#endif

int clock_gettime(clockid_t clock, struct timespec *now);
int clock_getres(clockid_t clock, struct timespec *resolution);
/* Sleep for `request` (or until the absolute time `request` with TIMER_ABSTIME); a
 * signal handler ends it early with EINTR (and the time left in *remain when relative). */
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *request,
                    struct timespec *remain);
int nanosleep(const struct timespec *request, struct timespec *remain);

#endif
