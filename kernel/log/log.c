/* The kernel log; see log.h. */
#include "kernel/log/log.h"

#include <stdarg.h>
#include <stdint.h>

#include "kernel/hart/hart.h"
#include "kernel/lib/format.h"
#include "kernel/log/log_buffer.h"
#include "kernel/sbi/sbi.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"

static bool sbi_sink(const char *text, size_t length)
{
	for (size_t i = 0; i < length; i++)
		sbi_console_putchar(text[i]);
	return true;
}

static void sbi_emergency(const char *text, size_t length)
{
	sbi_sink(text, length);
}

static struct log_slot slots[LOG_RECORDS_MAX];
/* Everything below is guarded by `log_lock`, except where an atomic says otherwise. */
static struct spinlock log_lock = SPINLOCK_INIT("log");
static struct log_buffer records = {slots, LOG_RECORDS_MAX, 0, 0};
static log_sink_fn sink = sbi_sink;
static log_emergency_fn emergency_sink = sbi_emergency;
static uint64_t console_next; /* the next record the console prints; only the flusher moves it */
static uint64_t skipped;      /* records the console never printed (overwritten first) */
static uint64_t clear_next;   /* syslog(2) CLEAR: records before this are not read */
/* One flusher at a time: `flushing` is its token; `flush_again` asks it for one more
 * round (set by a caller that found the token taken). */
static int flushing, flush_again;

void log_set_sinks(log_sink_fn new_sink, log_emergency_fn new_emergency_sink)
{
	spin_lock(&log_lock);
	sink = new_sink;
	emergency_sink = new_emergency_sink;
	spin_unlock(&log_lock);
	log_flush_console();
}

int log_set_capacity(uint64_t count)
{
	if (count < LOG_RECORDS_MIN || count > LOG_RECORDS_MAX)
		return -1;
	spin_lock(&log_lock);
	int result = log_buffer_shrink(&records, (uint32_t)count);
	spin_unlock(&log_lock);
	return result;
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
	log_buffer_append(&records, line, length);
	spin_unlock(&log_lock);
	log_flush_console();
}

/* What the console prints next, copied into `line`: the marker for records it missed,
 * or record console_next. Returns its length (0: nothing to print); *after is what
 * console_next becomes once it is printed, *missed the records the marker stands for.
 * Caller holds `log_lock`. */
static size_t next_for_console(char *line, uint64_t *after, uint64_t *missed)
{
	*missed = 0;
	if (console_next < records.first) {
		*missed = records.first - console_next;
		*after = records.first;
		return format_buffer(line, LOG_LINE_MAX, "** %lu kernel messages dropped **\n",
		                     (unsigned long)*missed);
	}
	*after = console_next + 1;
	return log_buffer_get(&records, console_next, line);
}

/* Hand records to the sink until it refuses one or none is left. Caller holds the
 * `flushing` token, not `log_lock`: the sink may spin on the UART. */
static void flush_records(void)
{
	char line[LOG_LINE_MAX];
	for (;;) {
		uint64_t after, missed;
		spin_lock(&log_lock);
		size_t length = next_for_console(line, &after, &missed);
		log_sink_fn out = sink;
		spin_unlock(&log_lock);
		if (length == 0 || !out(line, length))
			return;
		spin_lock(&log_lock);
		__atomic_store_n(&console_next, after, __ATOMIC_RELEASE);
		skipped += missed;
		spin_unlock(&log_lock);
	}
}

void log_flush_console(void)
{
	/* Ask first, then try for the token: either we get it, or its holder, which looks
	 * at flush_again after giving the token back, does one more round for us. */
	__atomic_store_n(&flush_again, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&flush_again, __ATOMIC_SEQ_CST)) {
		if (__atomic_exchange_n(&flushing, 1, __ATOMIC_SEQ_CST))
			return;
		__atomic_store_n(&flush_again, 0, __ATOMIC_SEQ_CST);
		flush_records();
		__atomic_store_n(&flushing, 0, __ATOMIC_SEQ_CST);
	}
}

bool log_console_behind(void)
{
	/* Order the caller's last store (a backend releasing the room it refused for)
	 * before these loads; log_flush_console's atomics do the same for loggers. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(&console_next, __ATOMIC_ACQUIRE) !=
	       __atomic_load_n(&records.next, __ATOMIC_ACQUIRE);
}

uint64_t log_skipped_records(void)
{
	spin_lock(&log_lock);
	uint64_t count = skipped;
	spin_unlock(&log_lock);
	return count;
}

void log_flush_emergency(void)
{
	char line[LOG_LINE_MAX];
	uint64_t number = console_next;
	if (number < records.first) {
		size_t length =
		    format_buffer(line, sizeof line, "** %lu kernel messages dropped **\n",
		                  (unsigned long)(records.first - number));
		emergency_sink(line, length);
		skipped += records.first - number;
		number = records.first;
	}
	for (; number < records.next; number++) {
		size_t length = log_buffer_get(&records, number, line);
		if (length)
			emergency_sink(line, length);
	}
	__atomic_store_n(&console_next, number, __ATOMIC_RELEASE);
}

void log_emergency(const char *fmt, ...)
{
	char line[LOG_LINE_MAX];
	va_list args;

	log_flush_emergency();
	va_start(args, fmt);
	size_t length = build_line(line, fmt, args);
	va_end(args);
	emergency_sink(line, length);
}

size_t log_buffer_bytes(void)
{
	return (size_t)records.capacity * LOG_LINE_MAX;
}

void log_range(uint64_t *first, uint64_t *next)
{
	spin_lock(&log_lock);
	*first = records.first > clear_next ? records.first : clear_next;
	*next = records.next;
	spin_unlock(&log_lock);
}

size_t log_copy_record(uint64_t number, char *out)
{
	spin_lock(&log_lock);
	size_t length = log_buffer_get(&records, number, out);
	spin_unlock(&log_lock);
	return length;
}

void log_clear(uint64_t next)
{
	spin_lock(&log_lock);
	if (next > records.next)
		next = records.next;
	if (next > clear_next)
		clear_next = next;
	spin_unlock(&log_lock);
}
