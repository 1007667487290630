/* Building one "BENCH {json}" line: keys in the order added, strings escaped, numbers
 * printed from integers with a fixed number of decimals. bench uses no floating point,
 * so a printed number is exactly the integer arithmetic shown beside each field, and a
 * reader can check it (tests/test_bench_units.py does). Every metric's name carries its
 * unit: _us, _ms, _ns_per_byte, _pct, _kB_per_s, ... */
#include "bench.h"

/* Append printf-formatted text; past the buffer's end the line is marked overflowed and
 * result_emit drops it. Called by every other bench_json_ function. */
void bench_json_raw(struct bench_json *j, const char *format, ...)
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

/* `"key":`, after a comma unless it is the first key. */
void bench_json_key(struct bench_json *j, const char *key)
{
	bench_json_raw(j, "%s\"%s\":", j->text[j->used - 1] == '{' ? "" : ",", key);
}

/* A string value, with `"`, `\` and control characters escaped. */
void bench_json_str(struct bench_json *j, const char *key, const char *value)
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

/* An integer value. */
void bench_json_int(struct bench_json *j, const char *key, int64_t value)
{
	bench_json_key(j, key);
	bench_json_raw(j, "%lld", (long long)value);
}

/* true or false. */
void bench_json_bool(struct bench_json *j, const char *key, bool value)
{
	bench_json_key(j, key);
	bench_json_raw(j, value ? "true" : "false");
}

/* null: a value that could not be measured here (a ratio over 0, instret under QEMU). */
void bench_json_null(struct bench_json *j, const char *key)
{
	bench_json_key(j, key);
	bench_json_raw(j, "null");
}

/* value / 10^decimals, printed with `decimals` digits after the point. Called by the
 * fixed-point fields and by json_busy_array's list. */
void bench_json_fixed_value(struct bench_json *j, int64_t value, int decimals)
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

/* `"key":` and a fixed-point value (bench_json_fixed_value). */
static void bench_json_fixed(struct bench_json *j, const char *key, int64_t value, int decimals)
{
	bench_json_key(j, key);
	bench_json_fixed_value(j, value, decimals);
}

/* A ratio num/den printed with `decimals` decimals (rounded), times `multiplier`: the
 * printed value is round(num × multiplier × 10^decimals / den) / 10^decimals. */
void bench_json_ratio(struct bench_json *j, const char *key, uint64_t num, uint64_t den,
                      uint64_t multiplier, int decimals)
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
static void bench_json_us(struct bench_json *j, const char *key, uint64_t ns)
{
	bench_json_fixed(j, key, (int64_t)ns, 3);
}

/* PREFIXmin_us ... PREFIXmax_us and PREFIXmean_us of a group's samples. Called by the
 * sections that time each operation. */
void bench_json_stats(struct bench_json *j, const char *prefix, const struct bench_stats *s)
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
