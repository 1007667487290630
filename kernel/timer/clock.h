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

#endif
