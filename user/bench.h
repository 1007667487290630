/* Helpers for /bin/bench (user/bench.c): time stamps, statistics, the console and the
 * "BENCH {json}" output lines. Header-only (user.mk builds one program per user/NAME.c);
 * everything is `static inline`, so a helper bench.c does not use costs nothing.
 *
 * Rules from docs/sources.md ("Measuring right") that live here:
 *  - time stamps: the `time` CSR (rdtime), converted to ns without truncation drift
 *    (whole seconds + remainder, as the kernel's clock does), so they are the same
 *    nanoseconds clock_gettime(CLOCK_MONOTONIC) returns, without a system call;
 *  - percentiles: nearest rank, with n stated; p50, p90, p99 and max reported apart;
 *  - every result line is printed only after its group was measured and drained. */
#ifndef DUPLEX_USER_BENCH_H
#define DUPLEX_USER_BENCH_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ time */

/* Timebase of the `time` CSR in Hz; bench_calibrate_timebase() measures it (10 MHz on
 * QEMU virt, 24 MHz on the D1) unless --timebase gave it. */
static uint64_t bench_timebase_hz = 10000000;

static inline uint64_t bench_ticks(void)
{
	uint64_t t;
	__asm__ volatile("rdtime %0" : "=r"(t));
	return t;
}

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

/* Ticks -> ns exactly as the kernel's clock_ticks_to_ns() does it. */
static inline uint64_t bench_ticks_to_ns(uint64_t ticks)
{
	uint64_t seconds = ticks / bench_timebase_hz;
	uint64_t rest = ticks % bench_timebase_hz;
	return seconds * 1000000000ull + rest * 1000000000ull / bench_timebase_hz;
}

/* ns -> ticks, rounding up (a deadline in ticks is never early). */
static inline uint64_t bench_ns_to_ticks(uint64_t ns)
{
	uint64_t seconds = ns / 1000000000ull;
	uint64_t rest = ns % 1000000000ull;
	return seconds * bench_timebase_hz +
	       (rest * bench_timebase_hz + 999999999ull) / 1000000000ull;
}

/* CLOCK_MONOTONIC in ns, without a system call. */
static inline uint64_t bench_now_ns(void)
{
	return bench_ticks_to_ns(bench_ticks());
}

static inline void bench_sleep_until_ns(uint64_t deadline)
{
	struct timespec ts = {(time_t)(deadline / 1000000000ull), (long)(deadline % 1000000000ull)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0) {
	}
}

static inline void bench_sleep_ns(uint64_t ns)
{
	bench_sleep_until_ns(bench_now_ns() + ns);
}

static inline uint64_t bench_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Measure the `time` CSR's rate against clock_gettime over `window_ns`, rounded to the
 * nearest kHz (the error is about one tick in the window: ~2 ppm for 50 ms). */
static inline uint64_t bench_calibrate_timebase(uint64_t window_ns)
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

/* ------------------------------------------------------------------ statistics */

/* Nearest-rank percentile: the smallest value with at least p % of the samples at or
 * below it, i.e. sorted[ceil(p/100 * n) - 1]. `permille` is p * 10 (990 = p99). */
static inline uint64_t bench_percentile(const uint64_t *sorted, size_t n, unsigned permille)
{
	if (n == 0)
		return 0;
	size_t rank = (size_t)(((uint64_t)permille * n + 999) / 1000);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static inline int bench_compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

struct bench_stats {
	size_t n;
	uint64_t min, p50, p90, p99, max, sum; /* ns */
};

/* Summarise `n` samples in ns (sorted in place). */
static inline struct bench_stats bench_summarise_ns(uint64_t *samples, size_t n)
{
	struct bench_stats s = {0};
	s.n = n;
	if (n == 0)
		return s;
	for (size_t i = 0; i < n; i++)
		s.sum += samples[i];
	qsort(samples, n, sizeof samples[0], bench_compare_u64);
	s.min = samples[0];
	s.max = samples[n - 1];
	s.p50 = bench_percentile(samples, n, 500);
	s.p90 = bench_percentile(samples, n, 900);
	s.p99 = bench_percentile(samples, n, 990);
	return s;
}

/* Summarise `n` samples given in ticks (converted to ns, sorted in place). */
static inline struct bench_stats bench_summarise(uint64_t *samples, size_t n)
{
	for (size_t i = 0; i < n; i++)
		samples[i] = bench_ticks_to_ns(samples[i]);
	return bench_summarise_ns(samples, n);
}

/* ------------------------------------------------------------------ the console */

/* Bytes that can never look like a BENCH line: '.' with no newline. */
static char bench_payload[4096];
static bool bench_mid_line; /* payload bytes were written since the last newline */
static bool bench_table;    /* --table: summary rows instead of progress and BENCH lines */

static inline void bench_payload_init(void)
{
	memset(bench_payload, '.', sizeof bench_payload);
}

struct bench_io {
	uint64_t bytes;
	uint64_t short_writes; /* write() returned fewer bytes than asked */
	uint64_t errors;       /* write() or tcdrain() failed */
	uint64_t drain_errors; /* of which tcdrain() */
	int first_errno;       /* errno of the first failure */
};

/* write() all `length` bytes, looping on short writes. 0, or -1 after an error. */
static inline int bench_write_all(int fd, const void *data, size_t length, struct bench_io *io)
{
	const char *bytes = data;
	while (length > 0) {
		ssize_t done = write(fd, bytes, length);
		if (done <= 0) {
			if (done < 0 && errno == EINTR)
				continue;
			if (!io->errors)
				io->first_errno = done < 0 ? errno : 0;
			io->errors++;
			return -1;
		}
		if ((size_t)done < length)
			io->short_writes++;
		io->bytes += (uint64_t)done;
		bytes += done;
		length -= (size_t)done;
	}
	return 0;
}

/* `length` payload bytes, as writes of at most 4096 (the console's atomic size). */
static inline int bench_write_payload(size_t length, struct bench_io *io)
{
	bench_mid_line = true;
	while (length > 0) {
		size_t piece = length < sizeof bench_payload ? length : sizeof bench_payload;
		if (bench_write_all(1, bench_payload, piece, io) != 0)
			return -1;
		length -= piece;
	}
	return 0;
}

static inline int bench_drain(struct bench_io *io)
{
	if (tcdrain(1) != 0) {
		if (io) {
			if (!io->errors)
				io->first_errno = errno;
			io->errors++;
			io->drain_errors++;
		}
		return -1;
	}
	return 0;
}

/* Write a whole text line (one write: it comes out whole among other writers). */
static inline void bench_put_line(int fd, const char *text, size_t length)
{
	struct bench_io io = {0};
	bench_write_all(fd, text, length, &io);
}

/* "# ..." progress line on stderr (the same console): short, its own line. */
static inline void bench_progress(const char *format, ...)
{
	if (bench_table)
		return;
	char line[160];
	size_t used = 0;
	if (bench_mid_line)
		line[used++] = '\n';
	used += (size_t)snprintf(line + used, sizeof line - used, "# ");
	va_list args;
	va_start(args, format);
	int n = vsnprintf(line + used, sizeof line - used - 2, format, args);
	va_end(args);
	if (n > 0)
		used += (size_t)n < sizeof line - used - 2 ? (size_t)n : sizeof line - used - 3;
	line[used++] = '\r';
	line[used++] = '\n';
	bench_mid_line = false;
	bench_put_line(2, line, used);
}

/* ------------------------------------------------------------------ BENCH lines */

/* One "BENCH {json}" line under construction. Keys are added in order; numbers are
 * printed from integers (no floating point in the measured program), with a fixed
 * number of decimals. */
struct bench_json {
	char text[4000];
	size_t used;
	bool overflow;
};

static inline void bench_json_raw(struct bench_json *j, const char *format, ...)
{
	if (j->overflow)
		return;
	va_list args;
	va_start(args, format);
	int n = vsnprintf(j->text + j->used, sizeof j->text - j->used, format, args);
	va_end(args);
	if (n < 0 || (size_t)n >= sizeof j->text - j->used) {
		j->overflow = true;
		return;
	}
	j->used += (size_t)n;
}

static inline void bench_json_key(struct bench_json *j, const char *key)
{
	bench_json_raw(j, "%s\"%s\":", j->text[j->used - 1] == '{' ? "" : ",", key);
}

static inline void bench_json_str(struct bench_json *j, const char *key, const char *value)
{
	bench_json_key(j, key);
	bench_json_raw(j, "\"");
	for (const char *c = value; *c; c++) {
		if (*c == '"' || *c == '\\')
			bench_json_raw(j, "\\%c", *c);
		else if ((unsigned char)*c < 0x20)
			bench_json_raw(j, "\\u%04x", (unsigned char)*c);
		else
			bench_json_raw(j, "%c", *c);
	}
	bench_json_raw(j, "\"");
}

static inline void bench_json_int(struct bench_json *j, const char *key, int64_t value)
{
	bench_json_key(j, key);
	bench_json_raw(j, "%lld", (long long)value);
}

static inline void bench_json_bool(struct bench_json *j, const char *key, bool value)
{
	bench_json_key(j, key);
	bench_json_raw(j, value ? "true" : "false");
}

static inline void bench_json_null(struct bench_json *j, const char *key)
{
	bench_json_key(j, key);
	bench_json_raw(j, "null");
}

/* value / 10^decimals, printed with `decimals` digits after the point. */
static inline void bench_json_fixed_value(struct bench_json *j, int64_t value, int decimals)
{
	static const int64_t scale[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
	if (decimals <= 0) {
		bench_json_raw(j, "%lld", (long long)value);
		return;
	}
	uint64_t magnitude = value < 0 ? (uint64_t)(-value) : (uint64_t)value;
	bench_json_raw(j, "%s%llu.%0*llu", value < 0 ? "-" : "",
	               (unsigned long long)(magnitude / (uint64_t)scale[decimals]), decimals,
	               (unsigned long long)(magnitude % (uint64_t)scale[decimals]));
}

static inline void bench_json_fixed(struct bench_json *j, const char *key, int64_t value,
                                    int decimals)
{
	bench_json_key(j, key);
	bench_json_fixed_value(j, value, decimals);
}

/* A ratio num/den printed with `decimals` decimals (rounded), times `multiplier`. */
static inline void bench_json_ratio(struct bench_json *j, const char *key, uint64_t num,
                                    uint64_t den, uint64_t multiplier, int decimals)
{
	static const uint64_t scale[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
	if (den == 0) {
		bench_json_null(j, key);
		return;
	}
	unsigned __int128 scaled = (unsigned __int128)num * multiplier * scale[decimals];
	uint64_t value = (uint64_t)((scaled + den / 2) / den);
	bench_json_fixed(j, key, (int64_t)value, decimals);
}

/* ns printed as µs with 3 decimals. */
static inline void bench_json_us(struct bench_json *j, const char *key, uint64_t ns)
{
	bench_json_fixed(j, key, (int64_t)ns, 3);
}

static inline void bench_json_stats(struct bench_json *j, const char *prefix,
                                    const struct bench_stats *s)
{
	char key[40];
	const struct {
		const char *name;
		uint64_t value;
	} rows[] = {
	    {"min", s->min}, {"p50", s->p50}, {"p90", s->p90}, {"p99", s->p99}, {"max", s->max}};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		snprintf(key, sizeof key, "%s%s_us", prefix, rows[i].name);
		bench_json_us(j, key, rows[i].value);
	}
	snprintf(key, sizeof key, "%smean_us", prefix);
	bench_json_us(j, key, s->n ? (s->sum + s->n / 2) / s->n : 0);
}

#endif
