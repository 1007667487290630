/* The console as bench uses it: the payload it sends, writes that loop on short writes
 * and count what happened, tcdrain, whole lines, "# " progress lines, the settle pause
 * between groups, the console's telemetry counters, and pinning to a hart.
 *
 * The payload is '.' bytes with no newline, so nothing measured can look like a BENCH
 * line; progress and result lines start a new line when payload came before them. */
#include <sched.h>

#include "bench.h"

char bench_payload[4096];
bool bench_mid_line;
bool bench_table;

/* Fill the payload with '.'. Called once by main(). */
void bench_payload_init(void)
{
	memset(bench_payload, '.', sizeof bench_payload);
}

/* write() all `length` bytes, looping on short writes. 0, or -1 after an error. Called
 * by every writer in bench; sleeps in write() when the backend blocks. */
int bench_write_all(int fd, const void *data, size_t length, struct bench_io *io)
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

/* `length` payload bytes, as writes of at most 4096 (the console's atomic size). Called
 * inside the sections' measured loops; sleeps as write() does. */
int bench_write_payload(size_t length, struct bench_io *io)
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

/* tcdrain(1), counted in `io` (if given) when it fails. Called by the sections, often
 * inside a measured loop; sleeps until the bytes are on the wire. */
int bench_drain(struct bench_io *io)
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

/* Write a whole text line (one write: it comes out whole among other writers). Called by
 * the output code and usage(). */
void bench_put_line(int fd, const char *text, size_t length)
{
	struct bench_io io = {0};
	bench_write_all(fd, text, length, &io);
}

/* "# ..." progress line on stderr (the same console): short, its own line. Called by
 * every section before each group (never inside a measured window). */
void bench_progress(const char *format, ...)
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

/* Before each group: let the previous group's bytes leave the wire, so they are not
 * counted against this one. --no-settle skips it (docs/labs.md, lab 5: a tail appears).
 * Called by every section before it measures; sleeps. */
void settle(void)
{
	if (cfg.no_settle)
		return;
	tcdrain(1);
	bench_sleep_ns(SETTLE_NS);
}

/* Zero the console's telemetry counters. Called by S15, S40, S41 and detect_backend. */
bool telemetry_reset(void)
{
	return ioctl(1, CONSOLE_IOCTL_RESET_TELEMETRY, 0) == 0;
}

/* Read the console's telemetry counters into `t`. Called with telemetry_reset's users. */
bool telemetry_read(struct console_telemetry *t)
{
	memset(t, 0, sizeof *t);
	return ioctl(1, CONSOLE_IOCTL_TELEMETRY, t) == 0;
}

/* Run this process on `hart` only (a failure counts). Called by main() for the parent
 * and by every worker. */
void pin_to_hart(int hart)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(hart, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		failures++;
}
