/* The kernel log: one call, one line, tagged with the time since boot and the hart id:
 *     [    0.012345] h0 message
 * Lines from different harts never interleave. Safe in any context (tasks, interrupt
 * handlers, the fault report); never sleeps, never waits for the wire.
 *
 * Every line is a record in the log buffer (log_buffer.h) first; the console prints
 * records from there as it can (Linux's printk design): log_printf tries to print at
 * once, and a console that had no room calls log_flush_console again when it has.
 * When the buffer overflows before the console got to a record, the console prints
 * "** N kernel messages dropped **" where the records would have been. /bin/dmesg
 * reads the buffer through syslog(2). */
#ifndef DUPLEX_LOG_H
#define DUPLEX_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOG_LINE_MAX    256
#define LOG_RECORDS_MAX 512 /* the buffer's slots; log.records=N uses fewer */
#define LOG_RECORDS_MIN 2

/* The console's side: print `length` bytes now without sleeping, or return false (and
 * print nothing) when it cannot yet; it then calls log_flush_console when it can. */
typedef bool (*log_sink_fn)(const char *text, size_t length);
/* The panic path's output: synchronous, lock-free, always prints. */
typedef void (*log_emergency_fn)(const char *text, size_t length);

/* Called by boot code when a better output is ready: `sink` for ordinary lines,
 * `emergency` for log_emergency. Records not yet printed go to the new sink. */
void log_set_sinks(log_sink_fn sink, log_emergency_fn emergency);

/* log.records=N at boot (kernel_main, before the buffer has wrapped): hold only N
 * records. Returns 0, or -1 for N outside LOG_RECORDS_MIN .. LOG_RECORDS_MAX. */
int log_set_capacity(uint64_t records);

void log_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* For the panic path: prints the records the console has not printed yet, then the
 * line, without taking the log lock (another hart may have died holding it). */
void log_emergency(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print the records the console has not printed yet through the emergency output,
 * without the log lock: the panic path, and power-off when the console never found
 * room. Any context; never sleeps. */
void log_flush_emergency(void);

/* Print what the console has not printed yet, as far as the sink takes it. Any context;
 * never sleeps. Called by log_printf and by console backends once they have room. */
void log_flush_console(void);

/* Records the console has not printed yet (skipped ones included). Any context. */
bool log_console_behind(void);

/* Records the console skipped because the buffer overflowed first, since boot. */
uint64_t log_skipped_records(void);

/* For syslog(2): the buffer's size in bytes (slots times LOG_LINE_MAX); the records held
 * and not cleared, [*first, *next); record `number`'s length, copied into `out` (room
 * for LOG_LINE_MAX) unless `out` is NULL, or 0 if it is gone; and forgetting the records
 * before `next` for later reads (SYSLOG_ACTION_CLEAR; the console still prints them).
 * Any context; take the log lock briefly. */
size_t log_buffer_bytes(void);
void log_range(uint64_t *first, uint64_t *next);
size_t log_copy_record(uint64_t number, char *out);
void log_clear(uint64_t next);

#endif
