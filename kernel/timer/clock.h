/* The monotonic clock: the RISC-V `time` CSR (rdtime) converted to nanoseconds since
 * boot with the device tree's timebase-frequency. Safe in any context. */
#ifndef DUPLEX_TIMER_CLOCK_H
#define DUPLEX_TIMER_CLOCK_H

#include <stdint.h>

/* Called once by kernel_main before anything reads the clock. */
void clock_init(uint32_t timebase_hz);

uint64_t clock_now_ns(void);
uint64_t clock_ticks_to_ns(uint64_t ticks);
/* Rounds up, so a deadline converted to ticks is never early. */
uint64_t clock_ns_to_ticks(uint64_t ns);
uint32_t clock_timebase_hz(void);

/* The wall clock (CLOCK_REALTIME): ns since the Unix epoch, kept as an offset from the
 * monotonic clock, so it runs with it. 0 at boot, i.e. the epoch, until someone sets it:
 * kernel_main from a real-time clock device (drivers/rtc/), clock_settime or
 * settimeofday. Any context; a reader never sees half an update. */
uint64_t clock_realtime_ns(void);
/* The offset (wall clock minus monotonic clock, ns) clock_realtime_ns adds. */
int64_t clock_realtime_offset_ns(void);
/* Make the wall clock read `ns_since_epoch` now. Any context. */
void clock_set_realtime_ns(uint64_t ns_since_epoch);

#endif
