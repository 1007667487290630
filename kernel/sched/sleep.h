/* Sleeping on the clock: park the calling task until a deadline, with a one-shot
 * timer whose callback wakes it. Task context; may sleep. */
#ifndef DUPLEX_SCHED_SLEEP_H
#define DUPLEX_SCHED_SLEEP_H

#include <stdint.h>

/* Returns at or after `deadline_ns` (clock_now_ns() time base). */
void sleep_until(uint64_t deadline_ns);
void sleep_for(uint64_t duration_ns);

#endif
