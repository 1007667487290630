/* The kernel log; see log.h. */
#include "kernel/log/log.h"

#include <stdarg.h>
#include <stdint.h>

#include "kernel/hart/hart.h"
#include "kernel/lib/format.h"
#include "kernel/sbi/sbi.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"

static void sbi_sink(const char *text, size_t length)
{
	for (size_t i = 0; i < length; i++)
		sbi_console_putchar(text[i]);
}

static log_sink_fn sink = sbi_sink;
static log_sink_fn emergency_sink = sbi_sink;
static struct spinlock log_lock = SPINLOCK_INIT("log");

void log_set_sinks(log_sink_fn new_sink, log_sink_fn new_emergency_sink)
{
	spin_lock(&log_lock);
	sink = new_sink;
	emergency_sink = new_emergency_sink;
	spin_unlock(&log_lock);
}

/* Builds the tagged line in `line`; returns its length (always ends with '\n'). */
static size_t build_line(char *line, const char *fmt, va_list args)
{
	uint64_t now = clock_now_ns();
	size_t length = format_buffer(
	    line, LOG_LINE_MAX, "[%5lu.%06lu] h%u ", (unsigned long)(now / 1000000000ull),
	    (unsigned long)(now % 1000000000ull / 1000), this_hart()->hart_id);
	length += format_string(line + length, LOG_LINE_MAX - length, fmt, args);
	if (length > LOG_LINE_MAX - 2)
		length = LOG_LINE_MAX - 2; /* truncated: keep room for the newline */
	if (length == 0 || line[length - 1] != '\n')
		line[length++] = '\n';
	line[length] = 0;
	return length;
}

void log_printf(const char *fmt, ...)
{
	char line[LOG_LINE_MAX];
	va_list args;

	/* Stamp under the lock, so time stamps in the log never go backwards. */
	spin_lock(&log_lock);
	va_start(args, fmt);
	size_t length = build_line(line, fmt, args);
	va_end(args);
	sink(line, length);
	spin_unlock(&log_lock);
}

void log_emergency(const char *fmt, ...)
{
	char line[LOG_LINE_MAX];
	va_list args;

	va_start(args, fmt);
	size_t length = build_line(line, fmt, args);
	va_end(args);
	emergency_sink(line, length);
}
