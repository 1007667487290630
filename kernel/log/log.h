/* The kernel log: one call, one line, tagged with the time since boot and the hart id:
 *     [    0.012345] h0 message
 * Lines from different harts never interleave. Safe in any context (tasks, interrupt
 * handlers, the fault report); never sleeps. Output goes to whatever sink boot code
 * installed: SBI's console at first, then the UART (kernel/boot/main.c). */
#ifndef DUPLEX_LOG_H
#define DUPLEX_LOG_H

#include <stddef.h>

#define LOG_LINE_MAX 256

typedef void (*log_sink_fn)(const char *text, size_t length);

/* Called by boot code when a better output is ready: `sink` for ordinary lines,
 * `emergency` (synchronous, lock-free) for log_emergency. */
void log_set_sinks(log_sink_fn sink, log_sink_fn emergency);

void log_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* For the panic path: writes without taking the log lock (another hart may have died
 * holding it), still tagged. */
void log_emergency(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
