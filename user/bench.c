/* bench: the console benchmark (issue 5; sections and rules in
 * docs/sources.md, sizes, counts and drain policies from the StarryOS async-UART report
 * it answers).
 *
 *   bench [--sections S10,S20,...] [--iters N] [--quick] [--env qemu|qemu+line|board]
 *         [--backend NAME] [--baud N] [--fifo N] [--icount] [--cooked] [--no-settle] [--table]
 *         [--help]
 *
 * Output: one line `BENCH {json}` per measured group, printed right after the group was
 * measured and drained, plus a header line first and an "end" line last. Every line
 * carries section, backend, env, size and n; metric names carry their unit (_us, _ms,
 * _ns_per_byte, _pct, _kB_per_s, ...). Progress goes to stderr (the same console) as
 * short lines starting with "# ". The bytes the sections send are '.' characters with
 * no newline (S44's records are lines starting with "<S44:"), so nothing measured can
 * look like a BENCH line. tools/benchreport turns logs into the report.
 *
 * Parts of S42-S45 run in child processes (`bench --worker KIND ...`, spawned with the
 * same labelling options), pinned to harts with sched_setaffinity; each child prints
 * its own BENCH line (role "worker"/"compute") at an agreed time after the measured
 * window, and the report combines them. The parent stays pinned to hart 0. */
#include <duplex.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "bench.h"

#ifndef BENCH_BUILD
#define BENCH_BUILD "unknown"
#endif

#define MAX_HARTS    16
#define MAX_SAMPLES  20000
#define SETTLE_NS    2000000ull /* the short sleep after tcdrain before each group */
#define STEP_NS      5000000ull /* S43: absolute deadlines 5 ms apart */
#define CHUNK_ROUNDS 2048       /* compute loop: rounds per chunk (one "iteration") */
#define MS           1000000ull
#define SPAWN_GAP_NS 3000000ull /* pause after each spawn */
#define START_SLACK  (20 * MS)  /* children start this long after the last spawn */
/* Waits that must end on time are slept to this long before the moment, then spun:
 * a task asleep on an idle hart was seen to wake up to ~80 ms late under QEMU -icount
 * while the other harts computed (S43's "compute_other_harts" load measures it). */
#define SPIN_MARGIN (150 * MS)

/* ------------------------------------------------------------------ configuration */

struct config {
	const char *backend;  /* label: --backend, else what the telemetry shows */
	const char *detected; /* polling,byte / polling,fifo / async, from telemetry */
	const char *env;      /* qemu, qemu+line, board */
	const char *env_source;
	uint32_t baud;
	const char *baud_source;
	uint32_t fifo;
	const char *fifo_source;
	bool icount, quick, cooked, backend_given, no_settle;
	long iters;             /* --iters, or -1 */
	int harts;              /* from cpu_times() */
	int home;               /* the hart the parent is pinned to */
	unsigned long selected; /* bit i = sections[i] */
	char backend_buffer[64], env_buffer[32], sections_text[200], counts_text[200];
};

static struct config cfg = {
    .backend = NULL,
    .detected = "unknown",
    .env = "qemu",
    .env_source = "default",
    .baud = 115200,
    .baud_source = "default",
    .fifo = 16,
    .fifo_source = "default",
    .iters = -1,
    .harts = 1,
};

static unsigned failures; /* errors seen; the exit status is 1 if any */
static bool is_worker;    /* running as `bench --worker ...` */
static char failed_sections[80];
static uint64_t samples[MAX_SAMPLES];
static uint64_t samples2[MAX_SAMPLES];
static struct termios saved_termios;
static bool termios_saved;

/* Bytes per second on the wire (8N1: 10 bits per byte) is baud / 10. */
static uint64_t wire_ns(uint64_t bytes)
{
	return bench_muldiv(bytes, 10000000000ull, cfg.baud);
}

/* ------------------------------------------------------------------ output */

static void result_begin(struct bench_json *j, const char *section, uint64_t size, uint64_t n)
{
	j->used = 0;
	j->overflow = false;
	j->text[0] = 0;
	bench_json_raw(j, "{");
	bench_json_str(j, "section", section);
	bench_json_str(j, "backend", cfg.backend);
	bench_json_str(j, "env", cfg.env);
	bench_json_int(j, "size", (int64_t)size);
	bench_json_int(j, "n", (int64_t)n);
}

/* --table: the numbers the labs look at, per section, in the order printed. */
static const struct {
	const char *section;
	const char *keys;
} table_columns[] = {
    {"header", "backend env harts baud fifo_depth line_model icount settle"},
    {"S10", "size line_rate_pct p50_us p99_us busy_ns_per_byte"},
    {"S11", "size enqueue_kB_per_s write_p50_us drain_ms"},
    {"S12", "size line_rate_pct"},
    {"S13", "size line_rate_pct p50_us"},
    {"S14", "size line_rate_pct p50_us p99_us"},
    {"S20", "size p50_us p99_us write_p50_us busy_ns_per_byte"},
    {"S21", "size p50_us p99_us max_us p99_over_p50"},
    {"S30", "result eagain fionbio_eagain rx_bytes"},
    {"S40", "workload thr_bytes fifo_loads bytes_per_fifo_load thre_interrupts idle_kicks "
            "direct_writes busy_polls_per_byte"},
    {"S41", "size busy_ns_per_byte all_harts_busy_ns_per_byte busy_pct_of_byte_time"},
    {"S42", "size overlap_pct wire_ms enqueue_ms"},
    {"S43", "load late_p50_us late_p99_us late_max_us"},
    {"S44", "role harts hart enqueue_kB_per_s blocked_p50_us blocked_p99_us failed_workers"},
    {"S45", "role phase hart compute_left_pct writer_busy_pct"},
    {"end", "failures failed_sections"},
};

/* Append `key=value` from the JSON object `json` to `out` (quotes dropped), if it has
 * the key. Returns the new length. */
static size_t table_cell(char *out, size_t used, size_t size, const char *json, const char *key,
                         size_t key_length)
{
	char pattern[48];
	snprintf(pattern, sizeof pattern, "\"%.*s\":", (int)key_length, key);
	const char *at = strstr(json, pattern);
	if (!at || used + key_length + 3 >= size)
		return used;
	at += strlen(pattern);
	size_t length = strcspn(at, ",}");
	if (*at == '"') {
		at++;
		length = strcspn(at, "\"");
	}
	int n =
	    snprintf(out + used, size - used, "  %.*s=%.*s", (int)key_length, key, (int)length, at);
	return n > 0 && used + (size_t)n < size ? used + (size_t)n : used;
}

/* --table: one short row with the section's columns instead of the BENCH line. Called
 * by result_emit; workers print their own rows. */
static void table_emit(const char *json)
{
	const char *section = strstr(json, "\"section\":\"");
	if (!section)
		return;
	section += strlen("\"section\":\"");
	size_t section_length = strcspn(section, "\"");
	bool end = section_length == 3 && strncmp(section, "end", 3) == 0;
	char row[400];
	size_t used = (size_t)snprintf(row, sizeof row, "%-6.*s", (int)section_length, section);
	for (size_t t = 0; t < sizeof table_columns / sizeof table_columns[0]; t++) {
		if (strlen(table_columns[t].section) != section_length ||
		    strncmp(table_columns[t].section, section, section_length) != 0)
			continue;
		for (const char *key = table_columns[t].keys; *key;) {
			size_t length = strcspn(key, " ");
			used = table_cell(row, used, sizeof row - 2, json, key, length);
			key += length;
			key += strspn(key, " ");
		}
	}
	row[used++] = '\r';
	row[used++] = '\n';
	/* The parent's rows again at the end, together, once the payload has scrolled by
	 * (a worker's rows come from another process and appear only where it ran). */
	static char summary[8192];
	static size_t summary_used;
	if (bench_mid_line)
		bench_put_line(1, "\r\n", 2);
	if (end && summary_used) {
		static const char title[] = "-- bench --table: the results above, together --\r\n";
		bench_put_line(1, title, sizeof title - 1);
		bench_put_line(1, summary, summary_used);
	} else if (!is_worker && summary_used + used <= sizeof summary) {
		memcpy(summary + summary_used, row, used);
		summary_used += used;
	}
	bench_put_line(1, row, used);
	bench_mid_line = is_worker;
}

static void result_emit(struct bench_json *j);

/* Every sample of a latency group, for CDFs drawn from all of them (tools/benchreport):
 * lines {"section":"samples","of":SECTION,"size":S,"n":N,"part":K,"parts":P,
 * "values_ns":[...]} with SAMPLES_PER_LINE sorted values each (N is the group's n). A
 * reader that does not know them sees a section it ignores. `ns` sorted, in ns. */
#define SAMPLES_PER_LINE 300
static void result_samples(const char *section, uint64_t size, const uint64_t *ns, size_t n)
{
	if (bench_table)
		return; /* --table shows the few numbers a lab reads, not raw samples */
	size_t parts = (n + SAMPLES_PER_LINE - 1) / SAMPLES_PER_LINE;
	for (size_t part = 0; part < parts; part++) {
		struct bench_json j;
		result_begin(&j, "samples", size, n);
		bench_json_str(&j, "of", section);
		bench_json_int(&j, "part", (int64_t)part);
		bench_json_int(&j, "parts", (int64_t)parts);
		bench_json_key(&j, "values_ns");
		bench_json_raw(&j, "[");
		size_t end = (part + 1) * SAMPLES_PER_LINE < n ? (part + 1) * SAMPLES_PER_LINE : n;
		for (size_t i = part * SAMPLES_PER_LINE; i < end; i++)
			bench_json_raw(&j, i > part * SAMPLES_PER_LINE ? ",%llu" : "%llu",
			               (unsigned long long)ns[i]);
		bench_json_raw(&j, "]");
		result_emit(&j);
	}
}

/* Drain, then the line in one write (whole even among other writers). */
static void result_emit(struct bench_json *j)
{
	bench_json_raw(j, "}");
	tcdrain(1);
	if (bench_table && !j->overflow) {
		table_emit(j->text);
		return;
	}
	static char line[4200];
	size_t used = 0;
	if (bench_mid_line)
		line[used++] = '\n';
	if (j->overflow) {
		used += (size_t)snprintf(line + used, sizeof line - used,
		                         "# bench: result line too long, dropped\n");
		failures++;
	} else {
		used += (size_t)snprintf(line + used, sizeof line - used, "BENCH %s%s", j->text,
		                         cfg.cooked ? "\n" : "\r\n");
	}
	bench_mid_line = is_worker;
	bench_put_line(1, line, used);
}

static void json_io(struct bench_json *j, const struct bench_io *io)
{
	bench_json_int(j, "bytes", (int64_t)io->bytes);
	bench_json_int(j, "short_writes", (int64_t)io->short_writes);
	bench_json_int(j, "errors", (int64_t)io->errors);
	if (io->errors) {
		bench_json_int(j, "drain_errors", (int64_t)io->drain_errors);
		bench_json_str(j, "first_error", strerror(io->first_errno));
		failures++;
	}
}

/* elapsed_ms, bytes_per_s and line_rate_pct for `bytes` in `ns`. */
static void json_rate(struct bench_json *j, uint64_t bytes, uint64_t ns)
{
	bench_json_ratio(j, "elapsed_ms", ns, 1000000, 1, 3);
	bench_json_ratio(j, "bytes_per_s", bytes, ns, 1000000000ull, 1);
	/* bytes/s ÷ (baud/10) × 100 = bytes × 1e12 / (ns × baud) */
	bench_json_ratio(j, "line_rate_pct", bytes, ns * (uint64_t)cfg.baud, 1000000000000ull, 2);
}

/* ------------------------------------------------------------------ hart times */

struct cpu_snapshot {
	int harts;
	uint64_t ns;
	struct duplex_cpu_times t[MAX_HARTS];
};

static void cpu_snapshot(struct cpu_snapshot *s)
{
	int n = cpu_times(s->t, MAX_HARTS);
	s->harts = n > 0 ? n : 0;
	s->ns = bench_now_ns();
}

static uint64_t raw_busy_delta(const struct cpu_snapshot *a, const struct cpu_snapshot *b, int hart)
{
	if (hart < 0 || hart >= a->harts || hart >= b->harts)
		return 0;
	return b->t[hart].busy_ns - a->t[hart].busy_ns;
}

/* Busy time of one hart between two snapshots, at most the wall time between them. */
static uint64_t busy_delta(const struct cpu_snapshot *a, const struct cpu_snapshot *b, int hart)
{
	uint64_t busy = raw_busy_delta(a, b, hart), wall = b->ns - a->ns;
	return busy < wall ? busy : wall;
}

static uint64_t busy_delta_all(const struct cpu_snapshot *a, const struct cpu_snapshot *b)
{
	uint64_t sum = 0;
	for (int h = 0; h < a->harts && h < b->harts; h++)
		sum += busy_delta(a, b, h);
	return sum;
}

/* The writing hart's busy time per byte, and every hart's together. */
static void json_cpu_per_byte(struct bench_json *j, const struct cpu_snapshot *a,
                              const struct cpu_snapshot *b, uint64_t bytes)
{
	uint64_t writer = busy_delta(a, b, cfg.home);
	bench_json_ratio(j, "busy_ns_per_byte", writer, bytes, 1, 1);
	bench_json_ratio(j, "all_harts_busy_ns_per_byte", busy_delta_all(a, b), bytes, 1, 1);
	bench_json_ratio(j, "writer_busy_pct", writer, b->ns - a->ns, 100, 2);
}

static void json_busy_array(struct bench_json *j, const char *key, const struct cpu_snapshot *a,
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

/* ------------------------------------------------------------------ helpers */

/* Before each group: let the previous group's bytes leave the wire, so they are not
 * counted against this one. --no-settle skips it (docs/labs.md, lab 5: a tail appears). */
static void settle(void)
{
	if (cfg.no_settle)
		return;
	tcdrain(1);
	bench_sleep_ns(SETTLE_NS);
}

static bool telemetry_reset(void)
{
	return ioctl(1, CONSOLE_IOCTL_RESET_TELEMETRY, 0) == 0;
}

static bool telemetry_read(struct console_telemetry *t)
{
	memset(t, 0, sizeof *t);
	return ioctl(1, CONSOLE_IOCTL_TELEMETRY, t) == 0;
}

static void pin_to_hart(int hart)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(hart, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		failures++;
}

/* The compute loop of S42 and S45: chunks of CHUNK_ROUNDS multiply-adds, counted until
 * the `time` CSR passes the deadline. */
static volatile uint64_t compute_sink;

static uint64_t compute_until_ns(uint64_t deadline_ns)
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

static void wait_until_ns(uint64_t deadline_ns)
{
	if (deadline_ns > SPIN_MARGIN)
		bench_sleep_until_ns(deadline_ns - SPIN_MARGIN);
	spin_until_ns(deadline_ns);
}

static int drain_each_once(size_t size, struct bench_io *io)
{
	if (bench_write_payload(size, io) != 0)
		return -1;
	return bench_drain(io);
}

/* ------------------------------------------------------------------ sections */

struct section {
	const char *id;
	void (*run)(const struct section *self, unsigned n);
	unsigned full, quick; /* default count (n per group), and with --quick */
	const char *what;
};

static unsigned step, steps; /* progress: group k of the run's groups */

/* What the transmitter took for the bytes sent since the telemetry was reset: TX
 * interrupts and FIFO loads, also per KiB of bytes put into the UART (S15, S41). */
static void json_tx_counts(struct bench_json *j, bool reset_ok)
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

/* S10 / S14 / S21 / S41 group: n × (write `size` bytes, tcdrain). */
static void drain_each_group(const char *section, size_t size, unsigned n, bool cpu)
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
		/* the byte time: 10 bits at the actual baud */
		bench_json_ratio(&j, "byte_time_us", 10000000000ull, cfg.baud, 1, 3);
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

static void s10_run(const struct section *self, unsigned n)
{
	(void)self;
	for (size_t i = 0; i < 3; i++)
		drain_each_group("S10", throughput_sizes[i], n, false);
}

static void s14_run(const struct section *self, unsigned n)
{
	(void)self;
	static const size_t sizes[] = {64, 128, 256};
	for (size_t i = 0; i < 3; i++)
		drain_each_group("S14", sizes[i], n, false);
}

/* S15: a stream: `kib` KiB in 4 KiB writes, then one tcdrain. The line rate of the
 * whole, the CPU it cost, and the TX interrupts and FIFO loads it took. */
static void s15_run(const struct section *self, unsigned kib)
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

/* S11: n writes without draining (time until the last returns), then one tcdrain. */
static void s11_run(const struct section *self, unsigned n)
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

/* S12: n writes, tcdrain after every 8th and at the end; whole-run throughput. */
static void s12_run(const struct section *self, unsigned n)
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

/* S13: writev of 4 × 64 B iovecs, then tcdrain, n times. */
static void s13_run(const struct section *self, unsigned n)
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

/* S20: 1-byte write + tcdrain; the write alone is timed too. */
static void s20_run(const struct section *self, unsigned n)
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
	bench_json_ratio(&j, "byte_time_us", 10000000000ull, cfg.baud, 1, 3);
	/* p50 in byte times: p50_ns / (1e10 / baud) */
	bench_json_ratio(&j, "p50_over_byte_time", s.p50 * (uint64_t)cfg.baud, 10000000000ull, 1,
	                 3);
	json_cpu_per_byte(&j, &c0, &c1, io.bytes);
	result_emit(&j);
	result_samples("S20", 1, samples, n);
}

/* S21: drain-each around the FIFO boundaries. */
static void s21_run(const struct section *self, unsigned n)
{
	(void)self;
	static const size_t sizes[] = {1, 15, 16, 17, 31, 32, 33, 48, 49, 63, 64, 65};
	size_t count = cfg.fifo >= 64 ? 12 : 9;
	for (size_t i = 0; i < count; i++)
		drain_each_group("S21", sizes[i], n, false);
}

/* S30: non-blocking reads on an empty console: -1/EAGAIN, through O_NONBLOCK and through
 * FIONBIO; bytes already waiting (if any) are returned. Own descriptors, so fd 1 stays
 * blocking. */
static void s30_run(const struct section *self, unsigned n)
{
	(void)self;
	bench_progress("S30 n=%u (%u/%u)", n, ++step, steps);
	settle();
	unsigned eagain = 0, data_reads = 0, other = 0;
	uint64_t rx_bytes = 0;
	int waiting = -1;
	int fd = open("/dev/console", O_RDONLY | O_NONBLOCK);
	bool opened = fd >= 0;
	if (opened)
		ioctl(fd, FIONREAD, &waiting);
	char buffer[64];
	for (unsigned i = 0; i < n && opened; i++) {
		uint64_t a = bench_ticks();
		ssize_t got = read(fd, buffer, sizeof buffer);
		samples[i] = bench_ticks() - a;
		if (got < 0 && errno == EAGAIN)
			eagain++;
		else if (got > 0)
			data_reads++, rx_bytes += (uint64_t)got;
		else
			other++;
	}
	if (opened)
		close(fd);
	/* FIONBIO on a blocking descriptor */
	bool fionbio_eagain = false;
	int fd2 = open("/dev/console", O_RDONLY);
	if (fd2 >= 0) {
		int on = 1;
		if (ioctl(fd2, FIONBIO, &on) == 0) {
			ssize_t got = read(fd2, buffer, sizeof buffer);
			fionbio_eagain = (got < 0 && errno == EAGAIN) || got > 0;
			if (got > 0)
				rx_bytes += (uint64_t)got;
		}
		close(fd2);
	}
	unsigned measured = opened ? n : 0;
	struct bench_stats s = bench_summarise(samples, measured);
	bool pass = opened && other == 0 && eagain + data_reads == n && fionbio_eagain;
	struct bench_json j;
	result_begin(&j, "S30", 0, measured);
	bench_json_str(&j, "result", pass ? "PASS" : "FAIL");
	bench_json_int(&j, "eagain", eagain);
	bench_json_int(&j, "data_reads", data_reads);
	bench_json_int(&j, "rx_bytes", (int64_t)rx_bytes);
	bench_json_int(&j, "waiting_at_start", waiting);
	bench_json_bool(&j, "fionbio_eagain", fionbio_eagain);
	bench_json_int(&j, "errors", (int64_t)other + (opened ? 0 : 1));
	bench_json_stats(&j, "read_", &s);
	result_emit(&j);
	if (!pass)
		failures++;
}

/* S40: the backend's counters for three workloads, reset before each. */
static void s40_run(const struct section *self, unsigned n)
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

/* S41: CPU time the writing hart is busy per byte, drain-each at 1, 64 and 1024 B (or
 * the --sizes); writes of 1 KiB and more n/4 times. */
static size_t s41_sizes[3] = {1, 64, 1024};

static void s41_run(const struct section *self, unsigned n)
{
	(void)self;
	for (size_t k = 0; k < 3; k++) {
		unsigned count = s41_sizes[k] >= 1024 && n / 4 ? n / 4 : n;
		drain_each_group("S41", s41_sizes[k], count, true);
	}
}

/* S42: a burst of n × 64 B, then compute until the wire would be done, then tcdrain;
 * overlap = compute chunks achieved ÷ chunks in an equally long idle window. */
static void s42_run(const struct section *self, unsigned n)
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

/* ------------------------------------------------------------------ children */

/* argv for `bench --worker ...`: the labelling options, then the worker's own. */
static pid_t spawn_worker(const char *kind, int count, const uint64_t *values)
{
	static char strings[24][32];
	char *argv[40];
	int a = 0;
	argv[a++] = "bench";
	argv[a++] = "--backend";
	argv[a++] = (char *)cfg.backend;
	argv[a++] = "--env";
	argv[a++] = (char *)cfg.env;
	snprintf(strings[0], sizeof strings[0], "%u", (unsigned)cfg.baud);
	argv[a++] = "--baud";
	argv[a++] = strings[0];
	snprintf(strings[1], sizeof strings[1], "%llu", (unsigned long long)bench_timebase_hz);
	argv[a++] = "--timebase";
	argv[a++] = strings[1];
	if (cfg.cooked)
		argv[a++] = "--cooked";
	if (bench_table)
		argv[a++] = "--table";
	argv[a++] = "--worker";
	argv[a++] = (char *)kind;
	for (int i = 0; i < count && i < 20; i++) {
		snprintf(strings[2 + i], sizeof strings[2 + i], "%llu",
		         (unsigned long long)values[i]);
		argv[a++] = strings[2 + i];
	}
	argv[a] = NULL;
	char *envp[] = {NULL};
	pid_t pid = spawn("/bin/bench", argv, envp);
	if (pid < 0)
		failures++;
	/* Let the child start and pin itself before the next spawn: the scheduler places a
	 * new task on a hart that looks idle, and several spawned back to back can pile up
	 * on one hart until an idle hart happens to wake and steal them (seen: up to the
	 * 1 s timer keep-alive). */
	bench_sleep_ns(SPAWN_GAP_NS);
	return pid;
}

/* Wait for every child; returns how many failed (non-zero status or killed). */
static unsigned wait_children(unsigned count)
{
	unsigned failed = 0;
	int status;
	for (unsigned i = 0; i < count; i++) {
		if (wait4(-1, &status, 0, NULL) <= 0) {
			failed++;
			break;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
	}
	return failed;
}

/* S43 load: writes 4 KiB bursts paced at the line rate until `end`. */
static int worker_pacer(int hart, uint64_t end)
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

/* S44 writer: `records` records of `size` bytes, each one write(), from START_NS on;
 * prints its BENCH line at REPORT_NS. A record: "<S44:H:ID:SEQ:letters:SUM>\n", SUM the
 * 6-digit hex sum of the letters. */
static int worker_records(int harts, int id, unsigned records, unsigned size, uint64_t start,
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

/* S45's phases, by what computes while hart 0 (cfg.home) sends: the other harts; every
 * hart; hart 0 alone, the others idle. The last is the one the "compute left on the
 * writing hart" target reads: with no other hart busy, QEMU -icount's round-robin between
 * busy harts (which decides how the chunks of the first two phases split) plays no part,
 * so the hart's loss is what sending costs it. */
static const char *const s45_phases[] = {"others_compute", "all_compute", "writer_hart_only"};
#define S45_PHASES 3

/* S45 compute: pinned to `hart`; sleeps until b0, then computes without a break until
 * s1, counting chunks in the baseline window [b0, b1) (nothing is being sent) and in the
 * measured window [s0, s1) (the transfer), b1 <= s0; prints at `report`. Under QEMU
 * -icount the harts share one instruction stream, so how the chunks split between
 * harts over a short window is QEMU's round-robin, not the kernel's doing: the report
 * adds the chunks of all compute children up. */
static int worker_compute(int phase, int hart, uint64_t b0, uint64_t b1, uint64_t s0, uint64_t s1,
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

/* S43 load: compute on `hart` until `end`, silently. */
static int worker_spin(int hart, uint64_t end)
{
	pin_to_hart(hart);
	compute_until_ns(end);
	return 0;
}

static int worker_main(int argc, char **argv)
{
	uint64_t v[12] = {0};
	for (int i = 1; i < argc && i <= 12; i++)
		v[i - 1] = strtoull(argv[i], NULL, 0);
	if (argc >= 1 && strcmp(argv[0], "pacer") == 0 && argc == 3)
		return worker_pacer((int)v[0], v[1]);
	if (argc >= 1 && strcmp(argv[0], "records") == 0 && argc == 7)
		return worker_records((int)v[0], (int)v[1], (unsigned)v[2], (unsigned)v[3], v[4],
		                      v[5]);
	if (argc >= 1 && strcmp(argv[0], "spin") == 0 && argc == 3)
		return worker_spin((int)v[0], v[1]);
	if (argc >= 1 && strcmp(argv[0], "compute") == 0 && argc == 8 && v[0] < S45_PHASES)
		return worker_compute((int)v[0], (int)v[1], v[2], v[3], v[4], v[5], v[6]);
	fprintf(stderr, "bench: bad --worker arguments\n");
	return 2;
}

/* ------------------------------------------------------------------ S43-S45 */

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

static void s43_run(const struct section *self, unsigned n)
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

/* S44: 1, 2, 4, 8 harts (as many as there are), each a pinned child writing n records
 * of 64 B at once. */
static void s44_run(const struct section *self, unsigned n)
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

/* S45: every hart's busy % while hart 0 sends 64 KiB (1 KiB writes, then tcdrain) and
 * compute children run on the other harts ("others_compute"), then on every hart, hart 0
 * included ("all_compute"), then on hart 0 alone ("writer_hart_only"). Each child also counts its
 * chunks in a baseline window just before, while nothing is sent; compute left = chunk rate during
 * ÷ rate before. Where the wire takes time (qemu+line, board) the window is the 64 KiB's wire time;
 * on plain QEMU, whose UART is instant, the transfer repeats until a 100 ms window ends. */
static void s45_run(const struct section *self, unsigned kib)
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

/* ------------------------------------------------------------------ the table */

static const struct section sections[] = {
    {"S10", s10_run, 100, 5, "drain-each throughput 64/256/1024 B"},
    {"S11", s11_run, 100, 10, "submission speed: n writes, then one tcdrain"},
    {"S12", s12_run, 100, 16, "batch drain: tcdrain every 8th write"},
    {"S13", s13_run, 100, 5, "writev 4 x 64 B + tcdrain"},
    {"S14", s14_run, 100, 5, "small drain-each 64/128/256 B"},
    {"S15", s15_run, 64, 16, "stream: n KiB in 4 KiB writes, one tcdrain (KiB)"},
    {"S20", s20_run, 1000, 20, "1-byte write + tcdrain latency"},
    {"S21", s21_run, 200, 10, "drain-each at the FIFO boundaries"},
    {"S30", s30_run, 100, 5, "non-blocking RX"},
    {"S40", s40_run, 100, 10, "telemetry per workload"},
    {"S41", s41_run, 200, 8, "CPU busy time per byte"},
    {"S42", s42_run, 100, 10, "overlap with computation"},
    {"S43", s43_run, 200, 10, "timer wake-up lateness"},
    {"S44", s44_run, 200, 10, "several harts writing records"},
    {"S45", s45_run, 64, 4, "hart utilisation during a 64 KiB transfer (KiB)"},
};
#define SECTION_COUNT (sizeof sections / sizeof sections[0])

/* Groups (progress steps) per section. */
static unsigned section_groups(size_t i)
{
	const char *id = sections[i].id;
	if (!strcmp(id, "S10") || !strcmp(id, "S11") || !strcmp(id, "S12") || !strcmp(id, "S14") ||
	    !strcmp(id, "S40") || !strcmp(id, "S41"))
		return 3;
	if (!strcmp(id, "S43"))
		return 4;
	if (!strcmp(id, "S21"))
		return cfg.fifo >= 64 ? 12 : 9;
	if (!strcmp(id, "S44"))
		return cfg.harts >= 8 ? 4 : cfg.harts >= 4 ? 3 : cfg.harts >= 2 ? 2 : 1;
	if (!strcmp(id, "S45"))
		return S45_PHASES;
	return 1;
}

static long section_override[16]; /* --n S10=20,...: per-section counts, 0 = none */

static unsigned section_count(size_t i)
{
	if (section_override[i] > 0)
		return (unsigned)(section_override[i] < MAX_SAMPLES ? section_override[i]
		                                                    : MAX_SAMPLES);
	if (cfg.iters > 0 && strcmp(sections[i].id, "S45") != 0 &&
	    strcmp(sections[i].id, "S15") != 0)
		return (unsigned)(cfg.iters < MAX_SAMPLES ? cfg.iters : MAX_SAMPLES);
	return cfg.quick ? sections[i].quick : sections[i].full;
}

/* ------------------------------------------------------------------ setup */

static void usage(int fd)
{
	static const char text[] =
	    "usage: bench [options]\n"
	    "  --sections S10,S20,...  run only these sections (default: all)\n"
	    "  --iters N               iterations per group instead of the defaults\n"
	    "  --n S10=20,S45=16       counts for single sections (S15, S45: KiB sent)\n"
	    "  --sizes 1,64,4096       S41's three write sizes (default 1,64,1024)\n"
	    "  --quick                 small counts (for tests)\n"
	    "  --env qemu|qemu+line|board  where this runs (label; default qemu)\n"
	    "  --backend NAME          backend label (default: detected from telemetry)\n"
	    "  --baud N                actual line baud for line rates (default 115200)\n"
	    "  --fifo N                TX FIFO depth (default 16)\n"
	    "  --icount                say in the header that QEMU ran with -icount\n"
	    "  --cooked                keep output processing (default: raw, OPOST off)\n"
	    "  --no-settle             skip the drain and pause before each group (lab 5)\n"
	    "  --table                 one short row of the numbers the labs use per result,\n"
	    "                          instead of progress lines and BENCH JSON lines\n"
	    "  --timebase HZ           the time CSR's rate (default: measured)\n"
	    "  --help                  this text\n"
	    "sections:\n";
	bench_put_line(fd, text, sizeof text - 1);
	for (size_t i = 0; i < SECTION_COUNT; i++) {
		char line[120];
		int n = snprintf(line, sizeof line, "  %s  %s (n=%u, quick %u)\n", sections[i].id,
		                 sections[i].what, sections[i].full, sections[i].quick);
		bench_put_line(fd, line, (size_t)n);
	}
}

/* --n S10=20,S45=16: counts for single sections (S45's is KiB), over --iters/--quick. */
static bool parse_counts(const char *list)
{
	char copy[200];
	snprintf(copy, sizeof copy, "%s", list);
	for (char *word = strtok(copy, ","); word; word = strtok(NULL, ",")) {
		char *equals = strchr(word, '=');
		long value = equals ? strtol(equals + 1, NULL, 0) : 0;
		if (!equals || value < 1) {
			fprintf(stderr, "bench: --n wants SECTION=COUNT, got '%s'\n", word);
			return false;
		}
		*equals = 0;
		size_t i;
		for (i = 0; i < SECTION_COUNT && strcmp(sections[i].id, word) != 0; i++) {
		}
		if (i == SECTION_COUNT) {
			fprintf(stderr, "bench: unknown section '%s'\n", word);
			return false;
		}
		section_override[i] = value;
	}
	return true;
}

static bool select_sections(const char *list)
{
	cfg.selected = 0;
	snprintf(cfg.sections_text, sizeof cfg.sections_text, "%s", list);
	char copy[200];
	snprintf(copy, sizeof copy, "%s", list);
	for (char *word = strtok(copy, ","); word; word = strtok(NULL, ",")) {
		size_t i;
		for (i = 0; i < SECTION_COUNT; i++) {
			if (strcmp(word, sections[i].id) == 0 || strcmp(word, "all") == 0)
				cfg.selected |= 1ul << i;
			if (strcmp(word, sections[i].id) == 0)
				break;
		}
		if (i == SECTION_COUNT && strcmp(word, "all") != 0) {
			fprintf(stderr, "bench: unknown section '%s'\n", word);
			return false;
		}
	}
	return cfg.selected != 0;
}

/* What the console's telemetry says the backend is: async pushes into a ring; polling
 * loads the FIFO directly, one byte per load in byte mode. */
static void detect_backend(void)
{
	struct console_telemetry t;
	tcdrain(1);
	if (!telemetry_reset())
		return;
	static const char probe[] = "................";
	struct bench_io io = {0};
	bench_write_all(1, probe, sizeof probe - 1, &io);
	bench_mid_line = true;
	tcdrain(1);
	if (!telemetry_read(&t))
		return;
	if (t.ring_pushes > 0 || t.direct_writes > 0)
		cfg.detected = "async";
	else if (t.fifo_loads > 0 && t.fifo_loads == t.thr_bytes)
		cfg.detected = "polling,byte";
	else if (t.fifo_loads > 0)
		cfg.detected = "polling,fifo";
}

/* What the console says about itself through CONSOLE_IOCTL_INFO
 * (drivers/console/telemetry.h), when the kernel headers this was built against have it
 * (the line-model issue adds it); otherwise --baud/--fifo/--env and their defaults. */
struct bench_info {
	char backend[16], options[32];
	uint32_t baud, fifo_depth, uart_baud, uart_clock_hz, line_model;
	uint64_t byte_ps, line_overruns, line_tx_events;
	uint32_t requested_baud, tx_threshold;
};
static struct bench_info info;
static bool info_ok;

static bool query_info(struct bench_info *out)
{
	memset(out, 0, sizeof *out);
#ifdef CONSOLE_IOCTL_INFO
	struct console_info raw;
	memset(&raw, 0, sizeof raw);
	if (ioctl(1, CONSOLE_IOCTL_INFO, &raw) != 0)
		return false;
	snprintf(out->backend, sizeof out->backend, "%.*s", (int)sizeof raw.backend, raw.backend);
	snprintf(out->options, sizeof out->options, "%.*s", (int)sizeof raw.options, raw.options);
	out->baud = raw.baud;
	out->fifo_depth = raw.fifo_depth;
	out->uart_baud = raw.uart_baud;
	out->uart_clock_hz = raw.uart_clock_hz;
	out->line_model = raw.line_model;
	out->byte_ps = raw.byte_ps;
	out->line_overruns = raw.line_overruns;
	out->line_tx_events = raw.line_tx_events;
	out->requested_baud = raw.requested_baud;
	out->tx_threshold = raw.tx_threshold;
	return true;
#else
	return false;
#endif
}

/* Command-line options win for the labels, except that a simulated wire is always
 * reported as "qemu+line". Without --env, a UART clocked at QEMU's 3.6864 MHz means
 * "qemu", anything else "board". */
static void read_console_info(bool env_given)
{
	info_ok = query_info(&info);
	if (!info_ok)
		return;
	if (info.baud && strcmp(cfg.baud_source, "--baud") != 0) {
		cfg.baud = info.baud;
		cfg.baud_source = "info ioctl";
	} else if (info.baud && info.baud != cfg.baud) {
		bench_progress("bench: --baud %u, but the console runs at %u baud", cfg.baud,
		               info.baud);
	}
	if (info.fifo_depth && strcmp(cfg.fifo_source, "--fifo") != 0) {
		cfg.fifo = info.fifo_depth;
		cfg.fifo_source = "info ioctl";
	}
	if (info.line_model) {
		cfg.env = "qemu+line";
		cfg.env_source = "info ioctl (line model)";
	} else if (!env_given) {
		cfg.env = info.uart_clock_hz == 3686400 ? "qemu" : "board";
		cfg.env_source = "info ioctl (uart clock)";
	}
}

static void header(void)
{
	struct bench_json j;
	j.used = 0;
	j.overflow = false;
	bench_json_raw(&j, "{");
	bench_json_str(&j, "section", "header");
	bench_json_str(&j, "backend", cfg.backend);
	bench_json_str(&j, "backend_detected", cfg.detected);
	bench_json_bool(&j, "backend_given", cfg.backend_given);
	bench_json_str(&j, "env", cfg.env);
	bench_json_str(&j, "env_source", cfg.env_source);
	bench_json_int(&j, "size", 0);
	bench_json_int(&j, "n", 0);
	bench_json_int(&j, "harts", cfg.harts);
	bench_json_int(&j, "baud", cfg.baud);
	bench_json_str(&j, "baud_source", cfg.baud_source);
	bench_json_ratio(&j, "line_bytes_per_s", cfg.baud, 10, 1, 1);
	bench_json_int(&j, "fifo_depth", cfg.fifo);
	bench_json_str(&j, "fifo_source", cfg.fifo_source);
	bench_json_bool(&j, "icount", cfg.icount);
	bench_json_bool(&j, "opost", cfg.cooked);
	bench_json_bool(&j, "quick", cfg.quick);
	bench_json_bool(&j, "settle", !cfg.no_settle);
	bench_json_int(&j, "iters", cfg.iters);
	bench_json_str(&j, "sections", cfg.sections_text);
	bench_json_str(&j, "counts", cfg.counts_text);
	bench_json_int(&j, "timebase_hz", (int64_t)bench_timebase_hz);
	bench_json_int(&j, "writer_hart", cfg.home);
	bench_json_str(&j, "percentiles", "nearest-rank");
	bench_json_bool(&j, "info_ioctl", info_ok);
	bench_json_str(&j, "kernel_backend", info_ok ? info.backend : "");
	bench_json_str(&j, "kernel_options", info_ok ? info.options : "");
	bench_json_bool(&j, "line_model", info_ok && info.line_model);
	bench_json_int(&j, "uart_baud", info_ok ? info.uart_baud : 0);
	bench_json_int(&j, "uart_clock_hz", info_ok ? info.uart_clock_hz : 0);
	bench_json_int(&j, "byte_ps", info_ok ? (int64_t)info.byte_ps : 0);
	/* What the console really runs at, whatever --baud says, and what was asked for. */
	bench_json_int(&j, "baud_actual", info_ok ? info.baud : 0);
	bench_json_int(&j, "baud_requested", info_ok ? info.requested_baud : 0);
	bench_json_int(&j, "tx_threshold", info_ok ? info.tx_threshold : 0);
	bench_json_str(&j, "build", BENCH_BUILD);
	result_emit(&j);
}

/* --sizes A,B,C: S41's three write sizes (1 B to 1 MiB each). */
static bool parse_s41_sizes(const char *list)
{
	size_t sizes[3];
	char *end;
	for (int k = 0; k < 3; k++) {
		unsigned long size = strtoul(list, &end, 10);
		if (end == list || size < 1 || size > (1ul << 20) || *end != (k < 2 ? ',' : 0)) {
			fprintf(stderr, "bench: --sizes wants three sizes, e.g. 1,64,4096\n");
			return false;
		}
		sizes[k] = size;
		list = end + 1;
	}
	memcpy(s41_sizes, sizes, sizeof sizes);
	return true;
}

/* Parse the options; returns the index of --worker's first argument, 0 if none, -1 on
 * error, -2 for --help. */
static int parse_options(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "--help") || !strcmp(o, "-h"))
			return -2;
		if (!strcmp(o, "--quick")) {
			cfg.quick = true;
		} else if (!strcmp(o, "--icount")) {
			cfg.icount = true;
		} else if (!strcmp(o, "--cooked")) {
			cfg.cooked = true;
		} else if (!strcmp(o, "--no-settle")) {
			cfg.no_settle = true;
		} else if (!strcmp(o, "--table")) {
			bench_table = true;
		} else if (!strcmp(o, "--worker")) {
			return i + 1;
		} else if (!v) {
			fprintf(stderr, "bench: %s needs a value (or unknown option)\n", o);
			return -1;
		} else if (!strcmp(o, "--sections")) {
			if (!select_sections(v))
				return -1;
			i++;
		} else if (!strcmp(o, "--n")) {
			if (!parse_counts(v))
				return -1;
			snprintf(cfg.counts_text, sizeof cfg.counts_text, "%s", v);
			i++;
		} else if (!strcmp(o, "--sizes")) {
			if (!parse_s41_sizes(v))
				return -1;
			i++;
		} else if (!strcmp(o, "--iters")) {
			cfg.iters = strtol(v, NULL, 0);
			if (cfg.iters < 1) {
				fprintf(stderr, "bench: --iters needs a positive number\n");
				return -1;
			}
			i++;
		} else if (!strcmp(o, "--env")) {
			snprintf(cfg.env_buffer, sizeof cfg.env_buffer, "%s", v);
			cfg.env = cfg.env_buffer;
			cfg.env_source = "--env";
			i++;
		} else if (!strcmp(o, "--backend")) {
			snprintf(cfg.backend_buffer, sizeof cfg.backend_buffer, "%s", v);
			cfg.backend = cfg.backend_buffer;
			cfg.backend_given = true;
			i++;
		} else if (!strcmp(o, "--baud")) {
			cfg.baud = (uint32_t)strtoul(v, NULL, 0);
			cfg.baud_source = "--baud";
			if (cfg.baud < 50) {
				fprintf(stderr, "bench: bad --baud\n");
				return -1;
			}
			i++;
		} else if (!strcmp(o, "--fifo")) {
			cfg.fifo = (uint32_t)strtoul(v, NULL, 0);
			cfg.fifo_source = "--fifo";
			i++;
		} else if (!strcmp(o, "--timebase")) {
			bench_timebase_hz = strtoull(v, NULL, 0);
			if (!bench_timebase_hz)
				bench_timebase_hz = 10000000;
			i++;
		} else {
			fprintf(stderr, "bench: unknown option %s (try --help)\n", o);
			return -1;
		}
	}
	return 0;
}

/* Read the info again at the end: the line model must never have been overrun. */
static bool read_info_end(void)
{
	if (!info_ok)
		return false;
	struct bench_info end;
	if (!query_info(&end))
		return true;
	info.line_overruns = end.line_overruns;
	info.line_tx_events = end.line_tx_events;
	return end.line_overruns != 0;
}

static void restore_termios(void)
{
	if (termios_saved)
		tcsetattr(1, TCSADRAIN, &saved_termios);
}

int main(int argc, char **argv)
{
	bench_payload_init();
	bool timebase_given = false;
	for (int i = 1; i + 1 < argc; i++)
		timebase_given |= strcmp(argv[i], "--timebase") == 0;
	cfg.selected = (1ul << SECTION_COUNT) - 1;
	snprintf(cfg.sections_text, sizeof cfg.sections_text, "all");
	int worker = parse_options(argc, argv);
	if (worker == -2) {
		usage(1);
		return 0;
	}
	if (worker < 0)
		return 2;
	struct duplex_cpu_times times[MAX_HARTS];
	int harts = cpu_times(times, MAX_HARTS);
	cfg.harts = harts > 0 ? harts : 1;
	if (!cfg.backend)
		cfg.backend = "unknown";
	if (worker > 0) {
		/* A child cannot know whether the console is mid-line (the parent may be sending
		 * dots): its lines always start on a new one. */
		bench_mid_line = is_worker = true;
		return worker_main(argc - worker, argv + worker);
	}

	pin_to_hart(cfg.home);
	if (!timebase_given)
		bench_timebase_hz = bench_calibrate_timebase(50 * MS);
	if (tcgetattr(1, &saved_termios) == 0) {
		termios_saved = true;
		struct termios t = saved_termios;
		if (cfg.cooked)
			t.c_oflag |= OPOST | ONLCR;
		else
			t.c_oflag &= ~(tcflag_t)OPOST;
		tcsetattr(1, TCSADRAIN, &t);
	}
	read_console_info(strcmp(cfg.env_source, "--env") == 0);
	detect_backend();
	if (info_ok && info.backend[0]) {
		/* The kernel's own word beats the telemetry guess: "async,thread" and
		 * "async" look alike from the counters. Polling's default mode is fifo. */
		static char label[48];
		const char *options = info.options;
		if (!options[0] && strcmp(info.backend, "polling") == 0)
			options = "fifo";
		snprintf(label, sizeof label, "%s%s%s", info.backend, options[0] ? "," : "",
		         options);
		cfg.detected = label;
	}
	if (!cfg.backend_given)
		cfg.backend = cfg.detected;
	header();

	steps = 0;
	for (size_t i = 0; i < SECTION_COUNT; i++)
		if (cfg.selected & (1ul << i))
			steps += section_groups(i);
	uint64_t begin = bench_now_ns();
	for (size_t i = 0; i < SECTION_COUNT; i++) {
		if (!(cfg.selected & (1ul << i)))
			continue;
		unsigned n = section_count(i);
		if (n > MAX_SAMPLES)
			n = MAX_SAMPLES;
		unsigned before = failures;
		sections[i].run(&sections[i], n);
		if (failures != before) {
			size_t used = strlen(failed_sections);
			snprintf(failed_sections + used, sizeof failed_sections - used, "%s%s",
			         used ? "," : "", sections[i].id);
		}
	}
	settle();
	struct bench_json j;
	result_begin(&j, "end", 0, 0);
	if (read_info_end())
		failures++;
	bench_json_int(&j, "failures", failures);
	bench_json_str(&j, "failed_sections", failed_sections);
	bench_json_int(&j, "line_overruns", (int64_t)info.line_overruns);
	bench_json_int(&j, "line_tx_events", (int64_t)info.line_tx_events);
	bench_json_ratio(&j, "elapsed_ms", bench_now_ns() - begin, 1000000, 1, 3);
	result_emit(&j);
	restore_termios();
	return failures ? 1 : 0;
}
