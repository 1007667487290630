/* Telemetry, S40: the console backend's own counters (uapi/console_telemetry.h) for
 * three workloads: how many write calls, ring pushes, FIFO loads, TX interrupts, idle
 * kicks and busy polls the same bytes took. They explain the times the other sections
 * measure (a FIFO load per byte, an interrupt per FIFO). json_tx_counts adds the TX
 * counters to S15 and S41. */
#include "bench.h"

/* What the transmitter took for the bytes sent since the telemetry was reset: TX
 * interrupts and FIFO loads, also per KiB of bytes put into the UART (S15, S41). */
void json_tx_counts(struct bench_json *j, bool reset_ok)
{
	struct console_telemetry t;
	bool ok = telemetry_read(&t) && reset_ok;
	bench_json_bool(j, "telemetry", ok);
	if (!ok) {
		failures++;
		return;
	}
	bench_json_int(j, "thr_bytes", (int64_t)t.thr_bytes);
	bench_json_int(j, "thre_interrupts", (int64_t)t.thre_interrupts);
	bench_json_int(j, "fifo_loads", (int64_t)t.fifo_loads);
	bench_json_ratio(j, "tx_interrupts_per_kib", t.thre_interrupts * 1024, t.thr_bytes, 1, 2);
	bench_json_ratio(j, "fifo_loads_per_kib", t.fifo_loads * 1024, t.thr_bytes, 1, 2);
}

/* S40: the backend's counters for three workloads, reset before each.
 * Called by main() through sections[] (main.c). */
void s40_run(const struct section *self, unsigned n)
{
	(void)self;
	static const struct {
		const char *workload;
		size_t size;
		bool drain_each;
	} loads[] = {{"drain_each", 64, true}, {"burst", 256, false}, {"byte_drain", 1, true}};
	for (size_t k = 0; k < 3; k++) {
		bench_progress("S40 %s size=%u n=%u (%u/%u)", loads[k].workload,
		               (unsigned)loads[k].size, n, ++step, steps);
		settle();
		struct bench_io io = {0};
		struct console_telemetry t;
		bool ok = telemetry_reset();
		for (unsigned i = 0; i < n; i++) {
			bench_write_payload(loads[k].size, &io);
			if (loads[k].drain_each)
				bench_drain(&io);
		}
		bench_drain(&io);
		ok = telemetry_read(&t) && ok;
		struct bench_json j;
		result_begin(&j, "S40", loads[k].size, n);
		bench_json_str(&j, "workload", loads[k].workload);
		json_io(&j, &io);
		bench_json_bool(&j, "telemetry", ok);
		const struct {
			const char *name;
			uint64_t value;
		} rows[] = {
		    {"write_calls", t.write_calls},
		    {"bytes_written", t.bytes_written},
		    {"ring_pushes", t.ring_pushes},
		    {"ring_pops", t.ring_pops},
		    {"thr_bytes", t.thr_bytes},
		    {"thre_interrupts", t.thre_interrupts},
		    {"fifo_loads", t.fifo_loads},
		    {"idle_kicks", t.idle_kicks},
		    {"wakeups", t.wakeups},
		    {"drain_waits", t.drain_waits},
		    {"ring_high_water", t.ring_high_water},
		    {"rx_bytes", t.rx_bytes},
		    {"rx_overruns", t.rx_overruns},
		    {"rx_errors", t.rx_errors},
		    {"log_skipped", t.log_skipped},
		    {"tx_busy_polls", t.tx_busy_polls},
		    {"direct_writes", t.direct_writes},
		};
		for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
			bench_json_int(&j, rows[r].name, (int64_t)rows[r].value);
		bench_json_ratio(&j, "bytes_per_write_call", t.bytes_written, t.write_calls, 1, 2);
		bench_json_ratio(&j, "bytes_per_fifo_load", t.thr_bytes, t.fifo_loads, 1, 2);
		bench_json_ratio(&j, "bytes_per_thre_interrupt", t.thr_bytes, t.thre_interrupts, 1,
		                 2);
		bench_json_ratio(&j, "busy_polls_per_byte", t.tx_busy_polls, t.thr_bytes, 1, 2);
		result_emit(&j);
		if (!ok)
			failures++;
	}
}
