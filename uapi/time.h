/* struct timespec as riscv64 Linux's time calls take it (include/uapi/linux/time_types.h:
 * struct __kernel_timespec, two 64-bit words): clock_gettime, nanosleep, ppoll,
 * pselect6, rt_sigtimedwait, utimensat. A prefixed name, so that libc can include it
 * beside picolibc's <time.h>. (The clock ids are not here: picolibc's CLOCK_ names have
 * other values, and libc/clock.c translates them.) Plain declarations only. */
#ifndef DUPLEX_UAPI_TIME_H
#define DUPLEX_UAPI_TIME_H

#include <stdint.h>

struct linux_timespec {
	int64_t seconds;
	int64_t nanoseconds; /* 0 .. 999999999 */
};

#endif
