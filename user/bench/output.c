/* Result output: every BENCH line starts with section, backend, env, size and n
 * (result_begin) and goes out after the group was measured and drained, in one write
 * (result_emit), so it arrives whole among other writers. Latency groups also print
 * every sample ("samples" lines, for the report's CDFs). --table replaces the JSON with
 * one short row of the numbers the labs read, and repeats the rows at the end. */
#include "bench.h"

/* A new line for `section`: the keys every line carries. Called by every section. */
void result_begin(struct bench_json *j, const char *section, uint64_t size, uint64_t n)
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
            "direct_writes wakeups busy_polls_per_byte"},
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

/* Every sample of a latency group, for CDFs drawn from all of them (tools/benchreport):
 * lines {"section":"samples","of":SECTION,"size":S,"n":N,"part":K,"parts":P,
 * "values_ns":[...]} with SAMPLES_PER_LINE sorted values each (N is the group's n). A
 * reader that does not know them sees a section it ignores. `ns` sorted, in ns. Called by
 * S20 and S21. */
#define SAMPLES_PER_LINE 300
void result_samples(const char *section, uint64_t size, const uint64_t *ns, size_t n)
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

/* Drain, then the line in one write (whole even among other writers). Called for every
 * result line, outside any measured window; sleeps in tcdrain. */
void result_emit(struct bench_json *j)
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

/* bytes, short_writes and errors of a group (an error counts as a failure). Called by
 * the sections that write. */
void json_io(struct bench_json *j, const struct bench_io *io)
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

/* byte_time_us: one byte's time on the wire at cfg.baud, 10 bits (8N1) × 1e6 / baud µs
 * (86.806 at 115200). Called by S20 and S41, which compare their times with it. */
void json_byte_time(struct bench_json *j)
{
	bench_json_ratio(j, "byte_time_us", 10000000ull, cfg.baud, 1, 3);
}

/* elapsed_ms, bytes_per_s and line_rate_pct for `bytes` in `ns`. Called by the sections
 * that move bytes. */
void json_rate(struct bench_json *j, uint64_t bytes, uint64_t ns)
{
	bench_json_ratio(j, "elapsed_ms", ns, 1000000, 1, 3);
	bench_json_ratio(j, "bytes_per_s", bytes, ns, 1000000000ull, 1);
	/* bytes/s ÷ (baud/10) × 100 = bytes × 1e12 / (ns × baud) */
	bench_json_ratio(j, "line_rate_pct", bytes, ns * (uint64_t)cfg.baud, 1000000000000ull, 2);
}
