/* Wake-ups, S43: how late a task wakes from an absolute-deadline sleep (5 ms apart),
 * idle, while its own 4 KiB bursts are being sent, while a child on another hart writes
 * at the line rate (`bench --worker pacer`), and while every other hart computes
 * (`--worker spin`). A backend that keeps a hart busy with interrupts or spinning shows
 * here as lateness in someone else's timer. */
#include "bench.h"

/* How late this wake-up is; an early one (which would be a kernel bug) counts as 0 and
 * as an error. */
static unsigned early_wakeups;

static uint64_t lateness(uint64_t deadline)
{
	uint64_t now = bench_now_ns();
	if (now < deadline) {
		early_wakeups++;
		return 0;
	}
	return now - deadline;
}

/* One S43 line: absolute-deadline sleeps 5 ms apart; lateness = wake - deadline. */
static void s43_emit(const char *load, unsigned n, unsigned attempts, bool applicable)
{
	struct bench_stats s = bench_summarise_ns(samples, n);
	struct bench_json j;
	result_begin(&j, "S43", 0, n);
	bench_json_str(&j, "load", load);
	bench_json_int(&j, "step_ms", (int64_t)(STEP_NS / MS));
	bench_json_int(&j, "attempts", attempts);
	bench_json_bool(&j, "applicable", applicable);
	bench_json_int(&j, "early_wakeups", early_wakeups);
	bench_json_int(&j, "errors", early_wakeups);
	failures += early_wakeups ? 1 : 0;
	early_wakeups = 0;
	bench_json_stats(&j, "late_", &s);
	result_emit(&j);
}

/* S43: the four loads in turn, one BENCH line each.
 * Called by main() through sections[] (main.c). */
void s43_run(const struct section *self, unsigned n)
{
	(void)self;
	if (n > MAX_SAMPLES)
		n = MAX_SAMPLES;
	/* idle */
	bench_progress("S43 idle n=%u (%u/%u)", n, ++step, steps);
	settle();
	uint64_t deadline = bench_now_ns();
	for (unsigned i = 0; i < n; i++) {
		deadline += STEP_NS;
		bench_sleep_until_ns(deadline);
		samples[i] = lateness(deadline);
	}
	s43_emit("idle", n, n, true);

	/* while this process's own 4 KiB bursts are being sent: only sleeps that begin with
	 * bytes still queued count (with a backend whose write() returns only when the bytes
	 * are in the UART there are none: not applicable). */
	bench_progress("S43 burst n=%u (%u/%u)", n, ++step, steps);
	settle();
	struct bench_io io = {0};
	unsigned got = 0, attempts = 0, empty_after_write = 0;
	deadline = bench_now_ns();
	while (got < n && attempts < 4 * n + 8 && empty_after_write < 3) {
		attempts++;
		int queued = 0;
		ioctl(1, TIOCOUTQ, &queued);
		if (queued < 2048) {
			bench_write_payload(4096, &io);
			ioctl(1, TIOCOUTQ, &queued);
			if (queued == 0) {
				empty_after_write++;
				continue;
			}
		}
		deadline += STEP_NS;
		uint64_t now = bench_now_ns();
		if (deadline <= now)
			deadline = now + STEP_NS;
		bench_sleep_until_ns(deadline);
		samples[got++] = lateness(deadline);
	}
	bench_drain(&io);
	failures += io.errors ? 1 : 0;
	s43_emit("burst", got, attempts, empty_after_write < 3);

	/* while a child on another hart writes 4 KiB bursts at the line rate */
	int other = cfg.harts > 1 ? (cfg.home + 1) % cfg.harts : cfg.home;
	bench_progress("S43 other-hart writer (hart %d) n=%u (%u/%u)", other, n, ++step, steps);
	settle();
	uint64_t start = bench_now_ns() + SPAWN_GAP_NS + START_SLACK;
	uint64_t end = start + (n + 4) * STEP_NS;
	uint64_t args[] = {(uint64_t)other, end};
	bool spawned = spawn_worker("pacer", 2, args) > 0;
	deadline = start;
	bench_sleep_until_ns(start);
	for (unsigned i = 0; i < n; i++) {
		deadline += STEP_NS;
		bench_sleep_until_ns(deadline);
		samples[i] = lateness(deadline);
	}
	unsigned failed = spawned ? wait_children(1) : 1;
	failures += failed;
	s43_emit(cfg.harts > 1 ? "writer_other_hart" : "writer_same_hart", n, n, spawned);

	/* while every other hart computes (nothing is sent) */
	bench_progress("S43 compute on the other harts n=%u (%u/%u)", n, ++step, steps);
	settle();
	start = bench_now_ns() + (uint64_t)cfg.harts * SPAWN_GAP_NS + START_SLACK;
	end = start + (n + 4) * STEP_NS;
	unsigned children = 0;
	for (int h = 0; h < cfg.harts; h++) {
		uint64_t spin_args[] = {(uint64_t)h, end};
		if (h != cfg.home && spawn_worker("spin", 2, spin_args) > 0)
			children++;
	}
	deadline = start;
	bench_sleep_until_ns(start);
	for (unsigned i = 0; i < n; i++) {
		deadline += STEP_NS;
		bench_sleep_until_ns(deadline);
		samples[i] = lateness(deadline);
	}
	failures += wait_children(children);
	s43_emit("compute_other_harts", n, n, children > 0);
}

/* S43 load: writes 4 KiB bursts paced at the line rate until `end`. */
int worker_pacer(int hart, uint64_t end)
{
	pin_to_hart(hart);
	struct bench_io io = {0};
	uint64_t start = bench_now_ns();
	for (uint64_t k = 0; bench_now_ns() < end; k++) {
		uint64_t due = start + wire_ns(4096 * k);
		if (bench_now_ns() < due)
			bench_sleep_until_ns(due < end ? due : end);
		if (bench_now_ns() >= end)
			break;
		bench_write_payload(4096, &io);
	}
	return io.errors ? 1 : 0;
}

/* S43 load: compute on `hart` until `end`, silently. */
int worker_spin(int hart, uint64_t end)
{
	pin_to_hart(hart);
	compute_until_ns(end);
	return 0;
}
