/* Throughput, S10-S15: how many bytes per second reach the console when a program
 * writes and waits for the wire in the ways programs do: drain after every write (S10,
 * S14), write everything then drain once (S11: also how fast write() takes the bytes),
 * drain every 8th write (S12), writev (S13), and one long stream (S15). Sizes and
 * counts follow the StarryOS async-UART report, so its D1 figures compare with these.
 * Each line gives line_rate_pct, the share of the wire's byte rate achieved (plain QEMU's
 * UART has no wire, so there it can pass 100). The drain-each group here is S21's and
 * S41's too. */
#include <sys/uio.h>

#include "bench.h"

/* One write of `size` payload bytes and its tcdrain: the drain-each group's timed step. */
static int drain_each_once(size_t size, struct bench_io *io)
{
	if (bench_write_payload(size, io) != 0)
		return -1;
	return bench_drain(io);
}

/* S10 / S14 / S21 / S41 group: n × (write `size` bytes, tcdrain); with `cpu`, S41's CPU
 * and TX counters too. Called by s10_run, s14_run, s21_run and s41_run. */
void drain_each_group(const char *section, size_t size, unsigned n, bool cpu)
{
	bench_progress("%s size=%u n=%u (%u/%u)", section, (unsigned)size, n, ++step, steps);
	settle();
	struct bench_io io = {0};
	struct cpu_snapshot c0, c1;
	bool reset_ok = cpu && telemetry_reset();
	cpu_snapshot(&c0);
	uint64_t instret0 = bench_instret();
	uint64_t t0 = bench_ticks();
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = bench_ticks();
		drain_each_once(size, &io);
		samples[i] = bench_ticks() - a;
	}
	uint64_t t1 = bench_ticks();
	uint64_t instret1 = bench_instret();
	cpu_snapshot(&c1);
	struct bench_stats s = bench_summarise(samples, n);
	struct bench_json j;
	result_begin(&j, section, size, n);
	json_io(&j, &io);
	json_rate(&j, io.bytes, bench_ticks_to_ns(t1 - t0));
	bench_json_stats(&j, "", &s);
	if (strcmp(section, "S21") == 0)
		bench_json_ratio(&j, "p99_over_p50", s.p99, s.p50, 1, 3);
	json_cpu_per_byte(&j, &c0, &c1, io.bytes);
	if (cpu) {
		json_byte_time(&j);
		bench_json_ratio(&j, "busy_pct_of_byte_time",
		                 busy_delta(&c0, &c1, cfg.home) * cfg.baud,
		                 io.bytes * 10000000000ull, 100, 3);
		if (strcmp(cfg.env, "board") == 0)
			bench_json_ratio(&j, "instret_per_byte", instret1 - instret0, io.bytes, 1,
			                 1);
		else
			bench_json_null(
			    &j,
			    "instret_per_byte"); /* QEMU -icount: virtual ns, not instructions */
		json_tx_counts(&j, reset_ok);
	}
	result_emit(&j);
	if (strcmp(section, "S21") == 0)
		result_samples(section, size, samples, n);
}

static const size_t throughput_sizes[] = {64, 256, 1024};

/* S10: drain-each at 64, 256 and 1024 B. Called by main() through sections[] (main.c). */
void s10_run(const struct section *self, unsigned n)
{
	(void)self;
	for (size_t i = 0; i < 3; i++)
		drain_each_group("S10", throughput_sizes[i], n, false);
}

/* S14: drain-each at 64, 128 and 256 B. Called by main() through sections[] (main.c). */
void s14_run(const struct section *self, unsigned n)
{
	(void)self;
	static const size_t sizes[] = {64, 128, 256};
	for (size_t i = 0; i < 3; i++)
		drain_each_group("S14", sizes[i], n, false);
}

/* S15: a stream: `kib` KiB in 4 KiB writes, then one tcdrain. The line rate of the
 * whole, the CPU it cost, and the TX interrupts and FIFO loads it took.
 * Called by main() through sections[] (main.c). */
void s15_run(const struct section *self, unsigned kib)
{
	(void)self;
	const size_t size = 4096;
	unsigned writes = (kib + 3) / 4;
	bench_progress("S15 size=4096 writes=%u (%u/%u)", writes, ++step, steps);
	settle();
	struct bench_io io = {0};
	struct cpu_snapshot c0, c1;
	bool reset_ok = telemetry_reset();
	cpu_snapshot(&c0);
	uint64_t t0 = bench_ticks();
	for (unsigned i = 0; i < writes; i++)
		bench_write_payload(size, &io);
	bench_drain(&io);
	uint64_t t1 = bench_ticks();
	cpu_snapshot(&c1);
	struct bench_json j;
	result_begin(&j, "S15", size, writes);
	json_io(&j, &io);
	json_rate(&j, io.bytes, bench_ticks_to_ns(t1 - t0));
	json_cpu_per_byte(&j, &c0, &c1, io.bytes);
	json_tx_counts(&j, reset_ok);
	result_emit(&j);
}

/* S11: n writes without draining (time until the last returns), then one tcdrain.
 * Called by main() through sections[] (main.c). */
void s11_run(const struct section *self, unsigned n)
{
	(void)self;
	for (size_t k = 0; k < 3; k++) {
		size_t size = throughput_sizes[k];
		bench_progress("S11 size=%u n=%u (%u/%u)", (unsigned)size, n, ++step, steps);
		settle();
		struct bench_io io = {0};
		uint64_t t0 = bench_ticks();
		for (unsigned i = 0; i < n; i++) {
			uint64_t a = bench_ticks();
			bench_write_payload(size, &io);
			samples[i] = bench_ticks() - a;
		}
		uint64_t t1 = bench_ticks();
		bench_drain(&io);
		uint64_t t2 = bench_ticks();
		struct bench_stats s = bench_summarise(samples, n);
		struct bench_json j;
		result_begin(&j, "S11", size, n);
		json_io(&j, &io);
		uint64_t enqueue = bench_ticks_to_ns(t1 - t0), total = bench_ticks_to_ns(t2 - t0);
		bench_json_ratio(&j, "enqueue_ms", enqueue, 1000000, 1, 3);
		bench_json_ratio(&j, "enqueue_kB_per_s", io.bytes, enqueue, 1000000, 1);
		bench_json_ratio(&j, "drain_ms", bench_ticks_to_ns(t2 - t1), 1000000, 1, 3);
		json_rate(&j, io.bytes, total);
		bench_json_stats(&j, "write_", &s);
		result_emit(&j);
	}
}

/* S12: n writes, tcdrain after every 8th and at the end; whole-run throughput.
 * Called by main() through sections[] (main.c). */
void s12_run(const struct section *self, unsigned n)
{
	(void)self;
	for (size_t k = 0; k < 3; k++) {
		size_t size = throughput_sizes[k];
		bench_progress("S12 size=%u n=%u (%u/%u)", (unsigned)size, n, ++step, steps);
		settle();
		struct bench_io io = {0};
		unsigned drains = 0;
		uint64_t t0 = bench_ticks();
		for (unsigned i = 0; i < n; i++) {
			bench_write_payload(size, &io);
			if ((i + 1) % 8 == 0 || i + 1 == n) {
				bench_drain(&io);
				drains++;
			}
		}
		uint64_t t1 = bench_ticks();
		struct bench_json j;
		result_begin(&j, "S12", size, n);
		json_io(&j, &io);
		bench_json_int(&j, "drains", drains);
		json_rate(&j, io.bytes, bench_ticks_to_ns(t1 - t0));
		result_emit(&j);
	}
}

/* S13: writev of 4 × 64 B iovecs, then tcdrain, n times.
 * Called by main() through sections[] (main.c). */
void s13_run(const struct section *self, unsigned n)
{
	(void)self;
	bench_progress("S13 size=256 (4x64) n=%u (%u/%u)", n, ++step, steps);
	settle();
	struct bench_io io = {0};
	struct iovec parts[4];
	for (int i = 0; i < 4; i++)
		parts[i] = (struct iovec){bench_payload + 64 * i, 64};
	bench_mid_line = true;
	uint64_t t0 = bench_ticks();
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = bench_ticks();
		ssize_t done = writev(1, parts, 4);
		if (done < 0) {
			io.errors++;
		} else {
			io.bytes += (uint64_t)done;
			if (done < 256) {
				io.short_writes++;
				bench_write_all(1, bench_payload, 256 - (size_t)done, &io);
			}
		}
		bench_drain(&io);
		samples[i] = bench_ticks() - a;
	}
	uint64_t t1 = bench_ticks();
	struct bench_stats s = bench_summarise(samples, n);
	struct bench_json j;
	result_begin(&j, "S13", 256, n);
	bench_json_int(&j, "iovecs", 4);
	json_io(&j, &io);
	json_rate(&j, io.bytes, bench_ticks_to_ns(t1 - t0));
	bench_json_stats(&j, "", &s);
	result_emit(&j);
}
