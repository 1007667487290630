/* Several harts, S44: 1, 2, 4 and 8 pinned children (`bench --worker records`) write
 * 64-byte records at once. Each record carries its writer, sequence number and a
 * checksum, so the log shows whether every record arrived whole and in order among the
 * others (tests/test_bench.py checks it); each writer reports how long its writes were
 * blocked and how fast the console took its bytes. */
#include "bench.h"

/* S44 writer: `records` records of `size` bytes, each one write(), from START_NS on;
 * prints its BENCH line at REPORT_NS. A record: "<S44:H:ID:SEQ:letters:SUM>\n", SUM the
 * 6-digit hex sum of the letters. */
int worker_records(int harts, int id, unsigned records, unsigned size, uint64_t start,
                   uint64_t report)
{
	pin_to_hart(id);
	if (records > MAX_SAMPLES)
		records = MAX_SAMPLES;
	static char record[4096];
	if (size < 40)
		size = 40;
	if (size > sizeof record)
		size = sizeof record;
	struct bench_io io = {0};
	bool late_start = bench_now_ns() > start;
	wait_until_ns(start);
	uint64_t t0 = bench_ticks();
	for (unsigned seq = 0; seq < records; seq++) {
		int head = snprintf(record, sizeof record, "<S44:%d:%d:%u:", harts, id, seq);
		int letters = (int)size - head - 9; /* ":%06x>\n" */
		unsigned sum = 0;
		for (int i = 0; i < letters; i++) {
			char c = (char)('a' + (seq + (unsigned)i * 7 + (unsigned)id) % 26);
			record[head + i] = c;
			sum += (unsigned char)c;
		}
		snprintf(record + head + letters, 10, ":%06x>\n", sum & 0xffffff);
		uint64_t a = bench_ticks();
		bench_write_all(1, record, size, &io);
		samples[seq] = bench_ticks() - a;
	}
	uint64_t t1 = bench_ticks();
	bench_drain(&io);
	uint64_t t2 = bench_ticks();
	bool late = bench_now_ns() > report;
	if (!late)
		bench_sleep_until_ns(report);
	struct bench_stats s = bench_summarise(samples, records);
	struct bench_json j;
	result_begin(&j, "S44", size, records);
	bench_json_str(&j, "role", "worker");
	bench_json_int(&j, "harts", harts);
	bench_json_int(&j, "hart", id);
	json_io(&j, &io);
	bench_json_int(&j, "records", records);
	bench_json_int(&j, "start_ns", (int64_t)start);
	bench_json_int(&j, "first_write_ns", (int64_t)bench_ticks_to_ns(t0));
	bench_json_int(&j, "end_ns", (int64_t)bench_ticks_to_ns(t1));
	bench_json_int(&j, "drained_ns", (int64_t)bench_ticks_to_ns(t2));
	bench_json_ratio(&j, "enqueue_kB_per_s", io.bytes, bench_ticks_to_ns(t1) - start, 1000000,
	                 1);
	bench_json_stats(&j, "blocked_", &s);
	bench_json_bool(&j, "late_start", late_start);
	bench_json_bool(&j, "late_report", late);
	result_emit(&j);
	return io.errors || io.short_writes ? 1 : 0;
}

/* S44: 1, 2, 4, 8 harts (as many as there are), each a pinned child writing n records
 * of 64 B at once.
 * Called by main() through sections[] (main.c). */
void s44_run(const struct section *self, unsigned n)
{
	(void)self;
	const unsigned size = 64;
	static const int counts[] = {1, 2, 4, 8};
	for (size_t k = 0; k < 4; k++) {
		int harts = counts[k];
		if (harts > cfg.harts)
			break;
		bench_progress("S44 harts=%d records=%u (%u/%u)", harts, n, ++step, steps);
		settle();
		uint64_t total = (uint64_t)harts * n * size;
		uint64_t start =
		    bench_now_ns() + (uint64_t)harts * SPAWN_GAP_NS + START_SLACK + SPIN_MARGIN;
		uint64_t report = start + wire_ns(total) * 5 / 4 + 100 * MS;
		for (int id = 0; id < harts; id++) {
			uint64_t args[] = {(uint64_t)harts, (uint64_t)id, n, size, start, report};
			spawn_worker("records", 6, args);
		}
		unsigned failed = wait_children((unsigned)harts);
		failures += failed;
		settle();
		struct bench_json j;
		result_begin(&j, "S44", size, n);
		bench_json_str(&j, "role", "summary");
		bench_json_int(&j, "harts", harts);
		bench_json_int(&j, "workers", harts);
		bench_json_int(&j, "records_per_worker", n);
		bench_json_int(&j, "bytes_expected", (int64_t)total);
		bench_json_int(&j, "failed_workers", failed);
		bench_json_int(&j, "errors", failed);
		result_emit(&j);
	}
}
