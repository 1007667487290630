/* Tick <-> nanosecond conversion without truncation drift: 1e9 / 24 MHz is 41.67 ns,
 * so a per-tick multiplier would lose 1.6 % on the D1 (docs/sources.md, Measuring right).
 * Split ticks into whole seconds and a remainder so nothing overflows 64 bits. */
#include "kernel/timer/clock.h"

#include "kernel/hart/csr.h"

static uint32_t timebase_hz = 10000000; /* QEMU virt's, until the DT is read */

void clock_init(uint32_t hz)
{
	if (hz)
		timebase_hz = hz;
}

uint32_t clock_timebase_hz(void)
{
	return timebase_hz;
}

uint64_t clock_ticks_to_ns(uint64_t ticks)
{
	uint64_t seconds = ticks / timebase_hz;
	uint64_t rest = ticks % timebase_hz;
	return seconds * 1000000000ull + rest * 1000000000ull / timebase_hz;
}

uint64_t clock_ns_to_ticks(uint64_t ns)
{
	uint64_t seconds = ns / 1000000000ull;
	uint64_t rest = ns % 1000000000ull;
	return seconds * timebase_hz + (rest * timebase_hz + 999999999ull) / 1000000000ull;
}

uint64_t clock_now_ns(void)
{
	return clock_ticks_to_ns(read_time());
}

/* Wall clock minus monotonic clock: one aligned 64-bit word, read and written whole. */
static int64_t realtime_offset;

int64_t clock_realtime_offset_ns(void)
{
	return __atomic_load_n(&realtime_offset, __ATOMIC_RELAXED);
}

uint64_t clock_realtime_ns(void)
{
	return clock_now_ns() + (uint64_t)clock_realtime_offset_ns();
}

void clock_set_realtime_ns(uint64_t ns_since_epoch)
{
	__atomic_store_n(&realtime_offset, (int64_t)(ns_since_epoch - clock_now_ns()),
	                 __ATOMIC_RELAXED);
}
