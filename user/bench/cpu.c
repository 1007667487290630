/* CPU cost and overlap, S41, S42 and S45: what sending costs the CPU, which the wire
 * rate alone hides. S41: the writing hart's busy ns per byte (and as a share of a byte's
 * wire time) at three write sizes. S42: how much computation the writer gets done while
 * its burst is on the wire, against the same window idle. S45: every hart's busy % and
 * the compute left on each while hart 0 sends 64 KiB, with compute children (`bench
 * --worker compute`) on the other harts, on all, or on hart 0 alone. */
#include "bench.h"

/* S41: CPU time the writing hart is busy per byte, drain-each at 1, 64 and 1024 B (or
 * the --sizes); writes of 1 KiB and more n/4 times. */
size_t s41_sizes[3] = {1, 64, 1024};

/* Called by main() through sections[] (main.c). */
void s41_run(const struct section *self, unsigned n)
{
	(void)self;
	for (size_t k = 0; k < 3; k++) {
		unsigned count = s41_sizes[k] >= 1024 && n / 4 ? n / 4 : n;
		drain_each_group("S41", s41_sizes[k], count, true);
	}
}

/* S42: a burst of n × 64 B, then compute until the wire would be done, then tcdrain;
 * overlap = compute chunks achieved ÷ chunks in an equally long idle window.
 * Called by main() through sections[] (main.c). */
void s42_run(const struct section *self, unsigned n)
{
	(void)self;
	const size_t size = 64;
	uint64_t window = wire_ns(size * n);
	bench_progress("S42 size=64 n=%u window=%llums (%u/%u)", n,
	               (unsigned long long)(window / MS), ++step, steps);
	settle();
	uint64_t idle_start = bench_now_ns();
	uint64_t idle_chunks = compute_until_ns(idle_start + window);
	settle();
	struct bench_io io = {0};
	struct cpu_snapshot c0, c1;
	cpu_snapshot(&c0);
	uint64_t t0 = bench_now_ns();
	for (unsigned i = 0; i < n; i++)
		bench_write_payload(size, &io);
	uint64_t t1 = bench_now_ns();
	uint64_t chunks = compute_until_ns(t0 + window);
	uint64_t t2 = bench_now_ns();
	bench_drain(&io);
	uint64_t t3 = bench_now_ns();
	cpu_snapshot(&c1);
	struct bench_json j;
	result_begin(&j, "S42", size, n);
	json_io(&j, &io);
	bench_json_ratio(&j, "wire_ms", window, 1000000, 1, 3);
	bench_json_ratio(&j, "enqueue_ms", t1 - t0, 1000000, 1, 3);
	bench_json_ratio(&j, "drain_after_window_ms", t3 - t2, 1000000, 1, 3);
	bench_json_int(&j, "compute_chunks", (int64_t)chunks);
	bench_json_int(&j, "idle_chunks", (int64_t)idle_chunks);
	bench_json_int(&j, "chunk_rounds", CHUNK_ROUNDS);
	bench_json_ratio(&j, "overlap_pct", chunks, idle_chunks, 100, 2);
	json_rate(&j, io.bytes, t3 - t0);
	bench_json_ratio(&j, "writer_busy_pct", busy_delta(&c0, &c1, cfg.home), c1.ns - c0.ns, 100,
	                 2);
	result_emit(&j);
}

/* S45's phases, by what computes while hart 0 (cfg.home) sends: the other harts; every
 * hart; hart 0 alone, the others idle. The last is the one the "compute left on the
 * writing hart" target reads: with no other hart busy, QEMU -icount's round-robin between
 * busy harts (which decides how the chunks of the first two phases split) plays no part,
 * so the hart's loss is what sending costs it. */
const char *const s45_phases[S45_PHASES] = {"others_compute", "all_compute", "writer_hart_only"};

/* S45 compute: pinned to `hart`; sleeps until b0, then computes without a break until
 * s1, counting chunks in the baseline window [b0, b1) (nothing is being sent) and in the
 * measured window [s0, s1) (the transfer), b1 <= s0; prints at `report`. Under QEMU
 * -icount the harts share one instruction stream, so how the chunks split between
 * harts over a short window is QEMU's round-robin, not the kernel's doing: the report
 * adds the chunks of all compute children up. */
int worker_compute(int phase, int hart, uint64_t b0, uint64_t b1, uint64_t s0, uint64_t s1,
                   uint64_t report)
{
	pin_to_hart(hart);
	wait_until_ns(b0);
	uint64_t woke = bench_now_ns();
	uint64_t base = compute_until_ns(b1);
	compute_until_ns(s0);
	uint64_t chunks = compute_until_ns(s1);
	bool late = bench_now_ns() > report;
	if (!late)
		bench_sleep_until_ns(report);
	struct bench_json j;
	result_begin(&j, "S45", 0, 1);
	bench_json_str(&j, "role", "compute");
	bench_json_str(&j, "phase", s45_phases[phase]);
	bench_json_int(&j, "hart", hart);
	bench_json_bool(&j, "writer_hart", hart == 0);
	bench_json_int(&j, "baseline_chunks", (int64_t)base);
	bench_json_ratio(&j, "baseline_ms", b1 - b0, 1000000, 1, 3);
	bench_json_int(&j, "chunks", (int64_t)chunks);
	bench_json_ratio(&j, "window_ms", s1 - s0, 1000000, 1, 3);
	/* (chunks / window) ÷ (base / baseline) */
	bench_json_ratio(&j, "compute_left_pct", chunks * (b1 - b0), base * (s1 - s0), 100, 2);
	bench_json_ratio(&j, "start_late_ms", woke - b0, 1000000, 1, 3);
	bench_json_bool(&j, "late_report", late);
	bench_json_int(&j, "errors", 0);
	result_emit(&j);
	return 0;
}

/* S45: every hart's busy % while hart 0 sends 64 KiB (1 KiB writes, then tcdrain) and
 * compute children run on the other harts ("others_compute"), then on every hart, hart 0
 * included ("all_compute"), then on hart 0 alone ("writer_hart_only"). Each child also counts its
 * chunks in a baseline window just before, while nothing is sent; compute left = chunk rate during
 * ÷ rate before. Where the wire takes time (qemu+line, board) the window is the 64 KiB's wire time;
 * on plain QEMU, whose UART is instant, the transfer repeats until a 100 ms window ends.
 * Called by main() through sections[] (main.c). */
void s45_run(const struct section *self, unsigned kib)
{
	(void)self;
	uint64_t bytes = (uint64_t)kib * 1024;
	bool plain = strcmp(cfg.env, "qemu") == 0;
	uint64_t window = plain ? (cfg.quick ? 40 : 100) * MS : wire_ns(bytes);
	uint64_t baseline = plain || cfg.quick ? 50 * MS : 100 * MS;
	for (int phase = 0; phase < S45_PHASES; phase++) {
		const char *name = s45_phases[phase];
		bench_progress("S45 %s %lluKiB window=%llums (%u/%u)", name,
		               (unsigned long long)kib, (unsigned long long)(window / MS), ++step,
		               steps);
		settle();
		uint64_t b0 =
		    bench_now_ns() + (uint64_t)cfg.harts * SPAWN_GAP_NS + START_SLACK + SPIN_MARGIN;
		uint64_t b1 = b0 + baseline;
		/* The writer sleeps through the baseline, then spins until s0 (wait_until_ns). */
		uint64_t s0 = b1 + SPIN_MARGIN, s1 = s0 + window;
		/* The children print after the writer is done even if the transfer ran at half
		 * the line rate: a line printed during its tcdrain would keep the UART busy. */
		uint64_t report = s1 + 2 * window + 200 * MS;
		unsigned children = 0;
		for (int h = 0; h < cfg.harts; h++) {
			if ((h == cfg.home && phase == 0) || (h != cfg.home && phase == 2))
				continue;
			uint64_t args[] = {(uint64_t)phase, (uint64_t)h, b0, b1, s0, s1, report};
			if (spawn_worker("compute", 7, args) > 0)
				children++;
		}
		wait_until_ns(s0);
		struct bench_io io = {0};
		struct cpu_snapshot c0, c1;
		cpu_snapshot(&c0);
		unsigned transfers = 0;
		do {
			for (uint64_t sent = 0; sent < bytes; sent += 1024)
				bench_write_payload(bytes - sent < 1024 ? bytes - sent : 1024, &io);
			bench_drain(&io);
			transfers++;
		} while (plain && bench_now_ns() < s1);
		cpu_snapshot(&c1);
		unsigned failed = wait_children(children);
		failures += failed;
		settle();
		struct bench_json j;
		result_begin(&j, "S45", bytes, transfers);
		bench_json_str(&j, "role", "writer");
		bench_json_str(&j, "phase", name);
		bench_json_int(&j, "writer_hart", cfg.home);
		bench_json_int(&j, "compute_workers", children);
		json_io(&j, &io);
		bench_json_int(&j, "transfers", transfers);
		json_rate(&j, io.bytes, c1.ns - c0.ns);
		bench_json_ratio(&j, "window_ms", window, 1000000, 1, 3);
		bench_json_ratio(&j, "start_late_ms", c0.ns - s0, 1000000, 1, 3);
		json_busy_array(&j, "busy_pct", &c0, &c1);
		bench_json_ratio(&j, "writer_busy_pct", busy_delta(&c0, &c1, cfg.home),
		                 c1.ns - c0.ns, 100, 2);
		bench_json_int(&j, "failed_workers", failed);
		result_emit(&j);
	}
}
