/* What the run is, before anything is measured: the console's own description
 * (CONSOLE_IOCTL_INFO: backend, baud, FIFO, line model), the backend as the telemetry
 * shows it, and the header line every run starts with. A report must say where its
 * numbers came from (QEMU, QEMU + line model, board) and at what baud; at the end the
 * line model is asked again whether it was ever overrun. */
#include "bench.h"

#include <sys/utsname.h>

/* user.mk passes the git commit (-include bench_build.h) to this file only. */
#ifndef BENCH_BUILD
#define BENCH_BUILD "unknown"
#endif

struct bench_info info;
bool info_ok;

/* What the console's telemetry says the backend is: async pushes into a ring; polling
 * loads the FIFO directly, one byte per load in byte mode. Called once by main(). */
void detect_backend(void)
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

/* CONSOLE_IOCTL_INFO into `out`; false if the kernel headers or the kernel lack it.
 * Called by read_console_info and read_info_end. */
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
 * "qemu", anything else "board". Called once by main(), before the header. */
void read_console_info(bool env_given)
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

/* The header line: where and how this run measured (labels, baud, FIFO, timebase, line
 * model, build). Called once by main(), before the first section. */
void header(void)
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
	bench_json_bool(&j, "cpu_times", cfg.cpu_times);
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
	/* Which kernel ran it: the same binary runs on Duplex and on the Linux peer. */
	struct utsname system;
	char kernel[2 * sizeof system.release + 2] = "unknown";
	if (uname(&system) == 0)
		snprintf(kernel, sizeof kernel, "%s %s", system.sysname, system.release);
	bench_json_str(&j, "kernel", kernel);
	result_emit(&j);
}

/* Read the info again at the end: the line model must never have been overrun (true if
 * it was). Called by main() for the "end" line. */
bool read_info_end(void)
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
