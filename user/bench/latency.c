/* Latency, S20-S21: how long one small write takes to reach the wire and be confirmed
 * there (write + tcdrain), the path an interactive program's prompt takes. S20 sends
 * one byte and also times the write() alone; S21 steps across the FIFO's boundaries
 * (15/16/17 bytes ...), where a backend's refill logic shows. Every sample is printed
 * too ("samples" lines), so the report can draw whole distributions. */
#include "bench.h"

/* S20: 1-byte write + tcdrain; the write alone is timed too.
 * Called by main() through sections[] (main.c). */
void s20_run(const struct section *self, unsigned n)
{
	(void)self;
	bench_progress("S20 size=1 n=%u (%u/%u)", n, ++step, steps);
	settle();
	struct bench_io io = {0};
	struct cpu_snapshot c0, c1;
	cpu_snapshot(&c0);
	uint64_t t0 = bench_ticks();
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = bench_ticks();
		bench_write_payload(1, &io);
		uint64_t b = bench_ticks();
		bench_drain(&io);
		uint64_t c = bench_ticks();
		samples[i] = c - a;
		samples2[i] = b - a;
	}
	uint64_t t1 = bench_ticks();
	cpu_snapshot(&c1);
	struct bench_stats s = bench_summarise(samples, n);
	struct bench_stats w = bench_summarise(samples2, n);
	struct bench_json j;
	result_begin(&j, "S20", 1, n);
	json_io(&j, &io);
	json_rate(&j, io.bytes, bench_ticks_to_ns(t1 - t0));
	bench_json_stats(&j, "", &s);
	bench_json_stats(&j, "write_", &w);
	json_byte_time(&j);
	/* p50 in byte times: p50_ns / (1e10 / baud) */
	bench_json_ratio(&j, "p50_over_byte_time", s.p50 * (uint64_t)cfg.baud, 10000000000ull, 1,
	                 3);
	json_cpu_per_byte(&j, &c0, &c1, io.bytes);
	result_emit(&j);
	result_samples("S20", 1, samples, n);
}

/* S21: drain-each around the FIFO boundaries.
 * Called by main() through sections[] (main.c). */
void s21_run(const struct section *self, unsigned n)
{
	(void)self;
	static const size_t sizes[] = {1, 15, 16, 17, 31, 32, 33, 48, 49, 63, 64, 65};
	size_t count = cfg.fifo >= 64 ? 12 : 9;
	for (size_t i = 0; i < count; i++)
		drain_each_group("S21", sizes[i], n, false);
}
