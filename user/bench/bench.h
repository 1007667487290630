/* What the files of /bin/bench (user/bench/) share: the run's configuration, the sample
 * buffers, the harness (time stamps, statistics, console writes, "BENCH {json}" lines)
 * and the sections. main.c says how a run goes; each section's file says what it
 * measures and why.
 *
 * Rules from docs/sources.md ("Measuring right") that the harness keeps:
 *  - time stamps: the `time` CSR (rdtime), converted to ns without truncation drift
 *    (whole seconds + remainder, as the kernel's clock does), so they are the same
 *    nanoseconds clock_gettime(CLOCK_MONOTONIC) returns, without a system call;
 *  - percentiles: nearest rank, with n stated; p50, p90, p99 and max reported apart;
 *  - every result line is printed only after its group was measured and drained.
 *
 * Only what a measured loop runs between two time stamps is `static inline` here (the
 * CSR reads and the wire time); everything else is an ordinary function in its file. */
#ifndef DUPLEX_USER_BENCH_BENCH_H
#define DUPLEX_USER_BENCH_BENCH_H

#include <duplex.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/types.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MAX_HARTS    16
#define MAX_SAMPLES  20000
#define SETTLE_NS    2000000ull /* the short sleep after tcdrain before each group */
#define STEP_NS      5000000ull /* S43: absolute deadlines 5 ms apart */
#define CHUNK_ROUNDS 2048       /* compute loop: rounds per chunk (one "iteration") */
#define MS           1000000ull

/* Where the workers' program is: this very build (the glibc one is /bin/glibc/bench,
 * user.mk's DUPLEX_BIN_DIR, on Duplex and on the Linux peer alike). */
#ifdef DUPLEX_BIN_DIR
#define BENCH_PATH DUPLEX_BIN_DIR "/bench"
#else
#define BENCH_PATH "/bin/bench"
#endif
#define SPAWN_GAP_NS 3000000ull /* pause after each spawn */
#define START_SLACK  (20 * MS)  /* children start this long after the last spawn */
/* Waits that must end on time are slept to this long before the moment, then spun:
 * a task asleep on an idle hart was seen to wake up to ~80 ms late under QEMU -icount
 * while the other harts computed (S43's "compute_other_harts" load measures it). */
#define SPIN_MARGIN (150 * MS)

/* ------------------------------------------------------------------ configuration */

/* The run's labels and counts: options.c fills it from the command line, header.c from
 * what the console says about itself; every section reads it. */
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
	int harts;              /* from cpu_times(), else sysconf (another kernel) */
	bool cpu_times;         /* the kernel has Duplex's cpu_times: busy figures measured */
	int home;               /* the hart the parent is pinned to */
	unsigned long selected; /* bit i = sections[i] */
	char backend_buffer[64], env_buffer[32], sections_text[200], counts_text[200];
};

extern struct config cfg;             /* main.c */
extern unsigned failures;             /* main.c: errors seen; the exit status is 1 if any */
extern bool is_worker;                /* main.c: running as `bench --worker ...` */
extern uint64_t samples[MAX_SAMPLES]; /* main.c: one group's samples, ticks or ns */
extern uint64_t samples2[MAX_SAMPLES];
extern unsigned step, steps; /* main.c: progress, group `step` of the run's `steps` */

/* ------------------------------------------------------------------ time (timing.c) */

/* Timebase of the `time` CSR in Hz; bench_calibrate_timebase() measures it (10 MHz on
 * QEMU virt, 24 MHz on the D1) unless --timebase gave it. */
extern uint64_t bench_timebase_hz;

/* The `time` CSR; every measured interval is the difference of two of these. */
static inline uint64_t bench_ticks(void)
{
	uint64_t t;
	__asm__ volatile("rdtime %0" : "=r"(t));
	return t;
}

/* Instructions retired (S41 on a board; under QEMU -icount it is virtual ns). */
static inline uint64_t bench_instret(void)
{
	uint64_t t;
	__asm__ volatile("rdinstret %0" : "=r"(t));
	return t;
}

/* a * b / c without overflow (128-bit intermediate). */
static inline uint64_t bench_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	if (c == 0)
		return 0;
	return (uint64_t)(((unsigned __int128)a * b) / c);
}

/* The time `bytes` take on the wire at cfg.baud: 8N1 is 10 bits per byte, so bytes per
 * second is baud / 10. Called by S42, S44, S45 and S43's pacer (in its pacing loop). */
static inline uint64_t wire_ns(uint64_t bytes)
{
	return bench_muldiv(bytes, 10000000000ull, cfg.baud);
}

uint64_t bench_ticks_to_ns(uint64_t ticks);
uint64_t bench_now_ns(void);
void bench_sleep_until_ns(uint64_t deadline);

/* Sleep `ns` from now. Called by settle() and spawn_worker(); sleeps. Inline: settle()
 * runs right before every measured group, and the instructions between its wake-up (on
 * a timer tick) and a group's first time stamp set where the group's samples fall on
 * the 100 ns ticks of QEMU's `time` CSR. */
static inline void bench_sleep_ns(uint64_t ns)
{
	bench_sleep_until_ns(bench_now_ns() + ns);
}
uint64_t bench_calibrate_timebase(uint64_t window_ns);
void bench_measure_monotonic_offset(void);
uint64_t compute_until_ns(uint64_t deadline_ns);
void wait_until_ns(uint64_t deadline_ns);

/* ------------------------------------------------------------------ statistics (stats.c) */

struct bench_stats {
	size_t n;
	uint64_t min, p50, p90, p99, max, sum; /* ns */
};

uint64_t bench_percentile(const uint64_t *sorted, size_t n, unsigned permille);
struct bench_stats bench_summarise_ns(uint64_t *samples, size_t n);
struct bench_stats bench_summarise(uint64_t *samples, size_t n);

/* ------------------------------------------------------------------ the console (console.c) */

extern char bench_payload[4096]; /* console.c: '.' bytes, no newline: never a BENCH line */
extern bool bench_mid_line;      /* payload bytes were written since the last newline */
extern bool bench_table;         /* --table: summary rows instead of progress and BENCH lines */

/* What one group's writes did. */
struct bench_io {
	uint64_t bytes;
	uint64_t short_writes; /* write() returned fewer bytes than asked */
	uint64_t errors;       /* write() or tcdrain() failed */
	uint64_t drain_errors; /* of which tcdrain() */
	int first_errno;       /* errno of the first failure */
};

void bench_payload_init(void);
int bench_write_all(int fd, const void *data, size_t length, struct bench_io *io);
int bench_write_payload(size_t length, struct bench_io *io);
int bench_drain(struct bench_io *io);
void bench_put_line(int fd, const char *text, size_t length);
void bench_progress(const char *format, ...);
void settle(void);
bool telemetry_reset(void);
bool telemetry_read(struct console_telemetry *t);
void pin_to_hart(int hart);

/* ------------------------------------------------------------------ BENCH lines (json.c, output.c)
 */

/* One "BENCH {json}" line under construction. Keys are added in order; numbers are
 * printed from integers (no floating point in the measured program), with a fixed
 * number of decimals. */
struct bench_json {
	char text[4000];
	size_t used;
	bool overflow;
};

void bench_json_raw(struct bench_json *j, const char *format, ...);
void bench_json_key(struct bench_json *j, const char *key);
void bench_json_str(struct bench_json *j, const char *key, const char *value);
void bench_json_int(struct bench_json *j, const char *key, int64_t value);
void bench_json_bool(struct bench_json *j, const char *key, bool value);
void bench_json_null(struct bench_json *j, const char *key);
void bench_json_fixed_value(struct bench_json *j, int64_t value, int decimals);
void bench_json_ratio(struct bench_json *j, const char *key, uint64_t num, uint64_t den,
                      uint64_t multiplier, int decimals);
void bench_json_stats(struct bench_json *j, const char *prefix, const struct bench_stats *s);

void result_begin(struct bench_json *j, const char *section, uint64_t size, uint64_t n);
void result_emit(struct bench_json *j);
void result_samples(const char *section, uint64_t size, const uint64_t *ns, size_t n);
void json_io(struct bench_json *j, const struct bench_io *io);
void json_rate(struct bench_json *j, uint64_t bytes, uint64_t ns);
void json_byte_time(struct bench_json *j);

/* ------------------------------------------------------------------ hart times (cpu_time.c) */

struct cpu_snapshot {
	int harts;
	uint64_t ns;
	struct duplex_cpu_times t[MAX_HARTS];
};

void cpu_snapshot(struct cpu_snapshot *s);
uint64_t busy_delta(const struct cpu_snapshot *a, const struct cpu_snapshot *b, int hart);
void json_cpu_per_byte(struct bench_json *j, const struct cpu_snapshot *a,
                       const struct cpu_snapshot *b, uint64_t bytes);
void json_busy_array(struct bench_json *j, const char *key, const struct cpu_snapshot *a,
                     const struct cpu_snapshot *b);

/* ------------------------------------------------------------------ child processes (workers.c) */

pid_t spawn_worker(const char *kind, int count, const uint64_t *values);
unsigned wait_children(unsigned count);
int worker_main(int argc, char **argv);

/* ------------------------------------------------------------------ sections */

/* One benchmark section: main.c's table lists them in the order they run. */
struct section {
	const char *id;
	void (*run)(const struct section *self, unsigned n);
	unsigned full, quick; /* default count (n per group), and with --quick */
	const char *what;
	bool typed; /* needs bytes typed on the serial line (terminal.c): never in "all" */
};

extern const struct section sections[]; /* main.c */
extern const size_t section_total;      /* main.c: how many */

/* throughput.c: S10-S15 (and the drain-each group S21 and S41 use) */
void drain_each_group(const char *section, size_t size, unsigned n, bool cpu);
void s10_run(const struct section *self, unsigned n);
void s11_run(const struct section *self, unsigned n);
void s12_run(const struct section *self, unsigned n);
void s13_run(const struct section *self, unsigned n);
void s14_run(const struct section *self, unsigned n);
void s15_run(const struct section *self, unsigned kib);
/* latency.c */
void s20_run(const struct section *self, unsigned n);
void s21_run(const struct section *self, unsigned n);
/* terminal.c */
void s22_run(const struct section *self, unsigned n);
void s23_run(const struct section *self, unsigned n);
int worker_sigspin(int hart);
/* rx.c */
void s30_run(const struct section *self, unsigned n);
/* telemetry.c */
void json_tx_counts(struct bench_json *j, bool reset_ok);
void s40_run(const struct section *self, unsigned n);
/* cpu.c: CPU cost and overlap */
extern size_t s41_sizes[3];
#define S45_PHASES 3
extern const char *const s45_phases[S45_PHASES];
void s41_run(const struct section *self, unsigned n);
void s42_run(const struct section *self, unsigned n);
void s45_run(const struct section *self, unsigned kib);
int worker_compute(int phase, int hart, uint64_t b0, uint64_t b1, uint64_t s0, uint64_t s1,
                   uint64_t report);
/* wakeups.c */
void s43_run(const struct section *self, unsigned n);
int worker_pacer(int hart, uint64_t end);
int worker_spin(int hart, uint64_t end);
/* pipe.c */
void s51_run(const struct section *self, unsigned n);
int worker_pipe_reader(int fd, uint64_t bytes, int hart);
/* harts.c */
void s44_run(const struct section *self, unsigned n);
int worker_records(int harts, int id, unsigned records, unsigned size, uint64_t start,
                   uint64_t report);

/* processes.c */
void s50_run(const struct section *self, unsigned n);

/* ------------------------------------------------------------------ setup (options.c, header.c) */

int parse_options(int argc, char **argv);
void usage(int fd);
unsigned section_groups(size_t i);
unsigned section_count(size_t i);

/* What the console says about itself through CONSOLE_IOCTL_INFO
 * (uapi/console_telemetry.h); otherwise --baud/--fifo/--env and their defaults. */
struct bench_info {
	char backend[16], options[32];
	uint32_t baud, fifo_depth, uart_baud, uart_clock_hz, line_model;
	uint64_t byte_ps, line_overruns, line_tx_events;
	uint32_t requested_baud, tx_threshold;
};
extern struct bench_info info;
extern bool info_ok;

void read_console_info(bool env_given);
void detect_backend(void);
void header(void);
bool read_info_end(void);

#endif
