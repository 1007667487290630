/* The command line: bench's options (--help lists them), which sections run (--sections)
 * with what counts (--quick, --iters, --n), S41's sizes (--sizes), and how many groups
 * each section prints (the progress lines' k/n). A worker's own arguments follow
 * --worker; parse_options only finds where they start. */
#include "bench.h"

/* Groups (progress steps) section i prints. Called by main() to count the run's steps. */
unsigned section_groups(size_t i)
{
	const char *id = sections[i].id;
	if (!strcmp(id, "S10") || !strcmp(id, "S11") || !strcmp(id, "S12") || !strcmp(id, "S14") ||
	    !strcmp(id, "S40") || !strcmp(id, "S41"))
		return 3;
	if (!strcmp(id, "S43") || !strcmp(id, "S50"))
		return 4;
	if (!strcmp(id, "S22"))
		return 2;
	if (!strcmp(id, "S23"))
		return cfg.harts > 1 ? 3 : 1;
	if (!strcmp(id, "S21"))
		return cfg.fifo >= 64 ? 12 : 9;
	if (!strcmp(id, "S44"))
		return cfg.harts >= 8 ? 4 : cfg.harts >= 4 ? 3 : cfg.harts >= 2 ? 2 : 1;
	if (!strcmp(id, "S45"))
		return S45_PHASES;
	return 1;
}

static long section_override[32]; /* --n S10=20,...: per-section counts, 0 = none */

/* The count (n per group) section i runs with: --n, else --iters (not for S15 and S45,
 * whose counts are KiB), else --quick's or the default. Called by main(). */
unsigned section_count(size_t i)
{
	if (section_override[i] > 0)
		return (unsigned)(section_override[i] < MAX_SAMPLES ? section_override[i]
		                                                    : MAX_SAMPLES);
	if (cfg.iters > 0 && strcmp(sections[i].id, "S45") != 0 &&
	    strcmp(sections[i].id, "S15") != 0)
		return (unsigned)(cfg.iters < MAX_SAMPLES ? cfg.iters : MAX_SAMPLES);
	return cfg.quick ? sections[i].quick : sections[i].full;
}

/* --help's text, and the sections with their counts. Called by main(). */
void usage(int fd)
{
	static const char text[] =
	    "usage: bench [options]\n"
	    "  --sections S10,S20,...  run only these sections (default: all but the typed\n"
	    "                          ones, S22 and S23, which need a typist on the host)\n"
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
	for (size_t i = 0; i < section_total; i++) {
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
		for (i = 0; i < section_total && strcmp(sections[i].id, word) != 0; i++) {
		}
		if (i == section_total) {
			fprintf(stderr, "bench: unknown section '%s'\n", word);
			return false;
		}
		section_override[i] = value;
	}
	return true;
}

/* --sections S10,S20,... (or all): sets cfg.selected. Called by parse_options. */
static bool select_sections(const char *list)
{
	cfg.selected = 0;
	snprintf(cfg.sections_text, sizeof cfg.sections_text, "%s", list);
	char copy[200];
	snprintf(copy, sizeof copy, "%s", list);
	for (char *word = strtok(copy, ","); word; word = strtok(NULL, ",")) {
		size_t i;
		for (i = 0; i < section_total; i++) {
			if (strcmp(word, sections[i].id) == 0 ||
			    (strcmp(word, "all") == 0 && !sections[i].typed))
				cfg.selected |= 1ul << i;
			if (strcmp(word, sections[i].id) == 0)
				break;
		}
		if (i == section_total && strcmp(word, "all") != 0) {
			fprintf(stderr, "bench: unknown section '%s'\n", word);
			return false;
		}
	}
	return cfg.selected != 0;
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
 * error, -2 for --help. Called first thing by main(). */
int parse_options(int argc, char **argv)
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
