/* Hart times: the kernel's busy/idle nanoseconds per hart (cpu_times, Duplex's call 501)
 * read before and after a measured window, as busy ns per byte written, busy % of the
 * window, and every hart's busy %. This is what a backend costs the CPU, which the wire
 * rate alone does not show: polling is busy while it waits, async only while it copies.
 * Used by S10-S15, S20, S41, S42 and S45. */
#include "bench.h"

/* Every hart's busy/idle ns and the time now. Called just before and after a window. */
void cpu_snapshot(struct cpu_snapshot *s)
{
	int n = cpu_times(s->t, MAX_HARTS);
	s->harts = n > 0 ? n : 0;
	s->ns = bench_now_ns();
}

/* Busy ns of `hart` between two snapshots as the kernel counted them (see
 * accounting_clamped). Called by busy_delta and json_busy_array. */
static uint64_t raw_busy_delta(const struct cpu_snapshot *a, const struct cpu_snapshot *b, int hart)
{
	if (hart < 0 || hart >= a->harts || hart >= b->harts)
		return 0;
	return b->t[hart].busy_ns - a->t[hart].busy_ns;
}

/* Busy time of one hart between two snapshots, at most the wall time between them.
 * Called by the sections and json_cpu_per_byte. */
uint64_t busy_delta(const struct cpu_snapshot *a, const struct cpu_snapshot *b, int hart)
{
	uint64_t busy = raw_busy_delta(a, b, hart), wall = b->ns - a->ns;
	return busy < wall ? busy : wall;
}

/* Every hart's busy ns between two snapshots, each at most the wall time. */
static uint64_t busy_delta_all(const struct cpu_snapshot *a, const struct cpu_snapshot *b)
{
	uint64_t sum = 0;
	for (int h = 0; h < a->harts && h < b->harts; h++)
		sum += busy_delta(a, b, h);
	return sum;
}

/* The writing hart's busy time per byte, and every hart's together. Called by the
 * drain-each group, S15 and S20. */
void json_cpu_per_byte(struct bench_json *j, const struct cpu_snapshot *a,
                       const struct cpu_snapshot *b, uint64_t bytes)
{
	if (!a->harts || !b->harts) {
		/* No cpu_times (bench under Linux, the peer): not measured, rather than 0. Linux's
		 * /proc/stat counts in 10 ms ticks, coarser than these windows. */
		bench_json_null(j, "busy_ns_per_byte");
		bench_json_null(j, "all_harts_busy_ns_per_byte");
		bench_json_null(j, "writer_busy_pct");
		return;
	}
	uint64_t writer = busy_delta(a, b, cfg.home);
	bench_json_ratio(j, "busy_ns_per_byte", writer, bytes, 1, 1);
	bench_json_ratio(j, "all_harts_busy_ns_per_byte", busy_delta_all(a, b), bytes, 1, 1);
	bench_json_ratio(j, "writer_busy_pct", writer, b->ns - a->ns, 100, 2);
}

/* `key`: every hart's busy % of the window, as a list. Called by S45's writer. */
void json_busy_array(struct bench_json *j, const char *key, const struct cpu_snapshot *a,
                     const struct cpu_snapshot *b)
{
	bench_json_key(j, key);
	bench_json_raw(j, "[");
	uint64_t wall = b->ns - a->ns;
	unsigned clamped = 0;
	for (int h = 0; h < a->harts && h < b->harts; h++) {
		if (h)
			bench_json_raw(j, ",");
		uint64_t busy = raw_busy_delta(a, b, h);
		if (busy > wall) { /* see accounting_clamped */
			busy = wall;
			clamped++;
		}
		bench_json_fixed_value(j, wall ? (int64_t)((busy * 10000 + wall / 2) / wall) : 0,
		                       2);
	}
	bench_json_raw(j, "]");
	/* Harts whose busy time grew by more than the wall time: the kernel's busy/idle
	 * pair read mid-update (shown as 100 %). */
	bench_json_int(j, "accounting_clamped", clamped);
}
