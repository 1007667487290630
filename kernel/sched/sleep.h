/* Sleeping on the clock: park the calling task until a deadline, with a one-shot
 * timer whose callback wakes it. Task context; may sleep. */
#ifndef DUPLEX_SCHED_SLEEP_H
#define DUPLEX_SCHED_SLEEP_H

#include <stdint.h>

/* Returns at or after `deadline_ns` (clock_now_ns() time base). */
void sleep_until(uint64_t deadline_ns);
void sleep_for(uint64_t duration_ns);
/* sleep_until that a signal interrupts (sched.h, "Interruptible waits"): returns 0 at or
 * after the deadline, or -ERESTARTSYS early when the task has signal work. */
int sleep_until_interruptible(uint64_t deadline_ns);

#endif
