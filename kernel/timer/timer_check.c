/* Does a timer source interrupt when asked? See timer_source.h. */
#include "kernel/timer/timer_source.h"

#include "kernel/hart/csr.h"
#include "kernel/timer/clock.h"

/* "Far away": no boot check lasts this long, and every source reaches it (the D1
 * timer block's 32-bit counter at 24 MHz reaches 179 s). */
#define FAR_AWAY_NS 100000000000ull

/* Watch source->pending until `until` (timebase ticks); true if it was seen set. */
static bool pending_seen(const struct timer_source *source, uint64_t until)
{
	do {
		if (source->pending())
			return true;
	} while (read_time() < until);
	return false;
}

enum timer_health timer_source_check(const struct timer_source *source, uint64_t quiet_ns,
                                     uint64_t patience_ns)
{
	/* A deadline far away must not interrupt: a firmware that never wrote the
	 * comparator (QEMU without the CLINT node, whose mtimecmp stays 0) fires at once. */
	uint64_t start = read_time();
	uint64_t far = start + clock_ns_to_ticks(FAR_AWAY_NS);
	source->program(far);
	if (pending_seen(source, start + clock_ns_to_ticks(quiet_ns)))
		return TIMER_EARLY;
	/* And one already due must. */
	start = read_time();
	source->program(start);
	if (!pending_seen(source, start + clock_ns_to_ticks(patience_ns))) {
		source->program(far);
		return TIMER_SILENT;
	}
	return TIMER_WORKS;
}
