/* bench: the console benchmark (sections and rules in docs/sources.md, sizes, counts and
 * drain policies from the StarryOS async-UART report it answers).
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
 * The files, by what they measure: throughput.c (S10-S15), latency.c (S20-S21),
 * terminal.c (S22-S23: echo and ^C, with typed input), rx.c (S30), telemetry.c (S40), cpu.c (S41, S42, S45: CPU cost and overlap), wakeups.c (S43),
 * harts.c (S44), processes.c (S50), pipe.c (S51); and the harness: timing.c, stats.c, console.c, json.c,
 * output.c, cpu_time.c, workers.c (the child processes of S43-S45), options.c, header.c. This file
 * holds the table of sections and runs them. */
#include "bench.h"

struct config cfg = {
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

unsigned failures;
bool is_worker;
static char failed_sections[80];
uint64_t samples[MAX_SAMPLES];
uint64_t samples2[MAX_SAMPLES];
unsigned step, steps;
static struct termios saved_termios;
static bool termios_saved;

const struct section sections[] = {
    {"S10", s10_run, 100, 5, "drain-each throughput 64/256/1024 B", false},
    {"S11", s11_run, 100, 10, "submission speed: n writes, then one tcdrain", false},
    {"S12", s12_run, 100, 16, "batch drain: tcdrain every 8th write", false},
    {"S13", s13_run, 100, 5, "writev 4 x 64 B + tcdrain", false},
    {"S14", s14_run, 100, 5, "small drain-each 64/128/256 B", false},
    {"S15", s15_run, 64, 16, "stream: n KiB in 4 KiB writes, one tcdrain (KiB)", false},
    {"S20", s20_run, 1000, 20, "1-byte write + tcdrain latency", false},
    {"S21", s21_run, 200, 10, "drain-each at the FIFO boundaries", false},
    {"S22", s22_run, 200, 5, "echo round trip, canonical and raw (typed input)", true},
    {"S23", s23_run, 200, 5, "^C to the handler's first instruction, harts busy (typed)", true},
    {"S30", s30_run, 100, 5, "non-blocking RX", false},
    {"S40", s40_run, 100, 10, "telemetry per workload", false},
    {"S41", s41_run, 200, 8, "CPU busy time per byte", false},
    {"S42", s42_run, 100, 10, "overlap with computation", false},
    {"S43", s43_run, 200, 10, "timer wake-up lateness", false},
    {"S44", s44_run, 200, 10, "several harts writing records", false},
    {"S45", s45_run, 64, 4, "hart utilisation during a 64 KiB transfer (KiB)", false},
    {"S50", s50_run, 200, 10, "fork + wait, fork/vfork + execve + wait of /bin/true", false},
    {"S51", s51_run, 256, 16, "pipe throughput: 64 KiB writes, reader on another hart", false},
};
const size_t section_total = sizeof sections / sizeof sections[0];

/* Put back the console's termios (bench turns OPOST off). Called at the end of main(). */
static void restore_termios(void)
{
	if (termios_saved)
		tcsetattr(1, TCSADRAIN, &saved_termios);
}

/* A worker (`--worker ...`) runs its part and exits; the parent pins itself to hart 0,
 * measures the timebase, reads what the console is, prints the header, runs the selected
 * sections in the table's order and prints the "end" line. */
int main(int argc, char **argv)
{
	bench_payload_init();
	bool timebase_given = false;
	for (int i = 1; i + 1 < argc; i++)
		timebase_given |= strcmp(argv[i], "--timebase") == 0;
	cfg.selected = 0;
	for (size_t i = 0; i < section_total; i++)
		if (!sections[i].typed) /* typed sections need a typist: only by name */
			cfg.selected |= 1ul << i;
	snprintf(cfg.sections_text, sizeof cfg.sections_text, "all");
	int worker = parse_options(argc, argv);
	if (worker == -2) {
		usage(1);
		return 0;
	}
	if (worker < 0)
		return 2;
	/* make run ICOUNT=1: the kernel passes on that QEMU runs with -icount. */
	for (char **variable = environ; variable && *variable && !cfg.icount; variable++)
		cfg.icount = strcmp(*variable, "QEMU_ICOUNT=1") == 0;
	struct duplex_cpu_times times[MAX_HARTS];
	int harts = cpu_times(times, MAX_HARTS);
	cfg.cpu_times = harts > 0;
	if (!cfg.cpu_times) /* another kernel (the Linux peer): ask the C library */
		harts = (int)sysconf(_SC_NPROCESSORS_ONLN);
	cfg.harts = harts > 0 ? harts : 1;
	if (!cfg.backend)
		cfg.backend = "unknown";
	if (worker > 0) {
		/* A child cannot know whether the console is mid-line (the parent may be sending
		 * dots): its lines always start on a new one. */
		bench_mid_line = is_worker = true;
		bench_measure_monotonic_offset(); /* the parent passed its --timebase */
		return worker_main(argc - worker, argv + worker);
	}

	pin_to_hart(cfg.home);
	if (!timebase_given)
		bench_timebase_hz = bench_calibrate_timebase(50 * MS);
	bench_measure_monotonic_offset();
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
	for (size_t i = 0; i < section_total; i++)
		if (cfg.selected & (1ul << i))
			steps += section_groups(i);
	uint64_t begin = bench_now_ns();
	for (size_t i = 0; i < section_total; i++) {
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
