/* Time for bench: the `time` CSR's ticks as nanoseconds, sleeping to absolute deadlines,
 * measuring the timebase, and the compute loop whose chunks S42, S43 and S45 count.
 *
 * Why rdtime and not clock_gettime: a system call around every sample would be part of
 * what is measured. The conversion is the kernel's (whole seconds + remainder), so a
 * bench time stamp and clock_gettime(CLOCK_MONOTONIC) are the same nanoseconds on Duplex
 * (on another kernel they may differ by a constant: bench_measure_monotonic_offset). */
#include "bench.h"

uint64_t bench_timebase_hz = 10000000;

/* Ticks -> ns exactly as the kernel's clock_ticks_to_ns() does it. Called everywhere a
 * sample or a window is turned into ns; does not sleep. */
uint64_t bench_ticks_to_ns(uint64_t ticks)
{
	uint64_t seconds = ticks / bench_timebase_hz;
	uint64_t rest = ticks % bench_timebase_hz;
	return seconds * 1000000000ull + rest * 1000000000ull / bench_timebase_hz;
}

/* ns -> ticks, rounding up (a deadline in ticks is never early). Called by
 * compute_until_ns. */
static uint64_t bench_ns_to_ticks(uint64_t ns)
{
	uint64_t seconds = ns / 1000000000ull;
	uint64_t rest = ns % 1000000000ull;
	return seconds * bench_timebase_hz +
	       (rest * bench_timebase_hz + 999999999ull) / 1000000000ull;
}

/* CLOCK_MONOTONIC in ns, without a system call. Called by every section. */
uint64_t bench_now_ns(void)
{
	return bench_ticks_to_ns(bench_ticks());
}

/* CLOCK_MONOTONIC minus the time CSR's ns. 0 on Duplex, whose CLOCK_MONOTONIC is the CSR;
 * Linux (the peer) counts its monotonic clock from elsewhere, about 0.1 s apart. */
static int64_t monotonic_offset_ns;

/* Sleep until the absolute time `deadline` (ns, bench_now_ns's clock). Called by the
 * sections and the workers; sleeps. */
void bench_sleep_until_ns(uint64_t deadline)
{
	deadline += (uint64_t)monotonic_offset_ns;
	struct timespec ts = {(time_t)(deadline / 1000000000ull), (long)(deadline % 1000000000ull)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
	}
}

/* CLOCK_MONOTONIC through the system call, for the calibration only. */
static uint64_t bench_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Measure how far CLOCK_MONOTONIC is from the time CSR's ns, for bench_sleep_until_ns.
 * Within 1 ms it is taken as the same clock (Duplex: exactly, and one system call
 * between the two reads must not move every deadline); beyond, the measured offset is
 * used, good to about half a clock_gettime. Called by main() after the timebase is
 * known (and by each worker, which sleeps to the parent's deadlines). */
void bench_measure_monotonic_offset(void)
{
	uint64_t a = bench_ticks();
	uint64_t monotonic = bench_clock_ns();
	uint64_t b = bench_ticks();
	int64_t offset = (int64_t)(monotonic - bench_ticks_to_ns(a + (b - a) / 2));
	monotonic_offset_ns = offset > (int64_t)MS || offset < -(int64_t)MS ? offset : 0;
}

/* Measure the `time` CSR's rate against clock_gettime over `window_ns`, rounded to the
 * nearest kHz (the error is about one tick in the window: ~2 ppm for 50 ms). Called by
 * main() unless --timebase gave the rate; sleeps. */
uint64_t bench_calibrate_timebase(uint64_t window_ns)
{
	uint64_t a = bench_ticks();
	uint64_t ns0 = bench_clock_ns();
	uint64_t b = bench_ticks();
	struct timespec ts = {(time_t)(window_ns / 1000000000ull),
	                      (long)(window_ns % 1000000000ull)};
	nanosleep(&ts, NULL);
	uint64_t c = bench_ticks();
	uint64_t ns1 = bench_clock_ns();
	uint64_t d = bench_ticks();
	uint64_t ticks = (c + d) / 2 - (a + b) / 2;
	uint64_t hz = bench_muldiv(ticks, 1000000000ull, ns1 - ns0);
	/* Timebases are round numbers (10 MHz on QEMU, 24 MHz on the D1): snap to a
	 * multiple of 100 kHz within 0.1 %, else to the nearest kHz. */
	uint64_t round = (hz + 50000) / 100000 * 100000;
	uint64_t error = round > hz ? round - hz : hz - round;
	hz = error * 1000 <= hz ? round : (hz + 500) / 1000 * 1000;
	return hz ? hz : 10000000;
}

/* The compute loop of S42 and S45 (and S43's load): chunks of CHUNK_ROUNDS multiply-adds,
 * counted until the `time` CSR passes the deadline. Returns the chunks; never sleeps. */
static volatile uint64_t compute_sink;

uint64_t compute_until_ns(uint64_t deadline_ns)
{
	uint64_t deadline = bench_ns_to_ticks(deadline_ns);
	uint64_t x = compute_sink | 1, chunks = 0;
	while (bench_ticks() < deadline) {
		for (int i = 0; i < CHUNK_ROUNDS; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		chunks++;
	}
	compute_sink = x;
	return chunks;
}

/* Wait for an agreed start time by spinning, not sleeping: children must start
 * together, and a task sleeping on an idle hart was seen to wake up to 10 ms (one
 * scheduler slice, or two) late while other harts were busy in user mode. */
static void spin_until_ns(uint64_t deadline_ns)
{
	compute_until_ns(deadline_ns);
}

/* Sleep to SPIN_MARGIN before `deadline_ns`, then spin to it. Called by S45's writer and
 * the S44/S45 workers, for moments that must be kept to the tick. */
void wait_until_ns(uint64_t deadline_ns)
{
	if (deadline_ns > SPIN_MARGIN)
		bench_sleep_until_ns(deadline_ns - SPIN_MARGIN);
	spin_until_ns(deadline_ns);
}
