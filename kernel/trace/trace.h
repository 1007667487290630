/* The event tracer: per-hart rings of fixed-size, timestamped records (record.h), in the
 * spirit of Linux's ftrace ring buffer and NuttX's note driver, small enough to read.
 *
 * Off by default. Switched on at boot (trace=console,sched,irq,syscall,wire or all;
 * trace.size=N records per hart, default 4096) or at run time through the trace_control
 * system call (kernel/syscall/sys_trace.c, /bin/trace).
 *
 * Hooks are one line: trace_event(TRACE_X, a, b, c, d). Off, a hook costs one load of
 * the global mask and a branch the compiler lays out as not taken; the record is
 * written out of line (trace_emit).
 *
 * Writing: each hart writes only its own ring, with interrupts masked while it claims a
 * slot and fills it, so no lock is needed and an interrupt handler's record cannot land
 * inside a task's. The count is published with release order after the record.
 *
 * Full: the ring stops (later events on that hart are counted in `dropped`, never
 * silently lost). For a timeline the beginning of a scenario matters more than its end,
 * and a stopped ring keeps every hart's records covering the same start.
 *
 * Layering: a kernel service below the console, the scheduler, the system calls and
 * the drivers, which include this header; it includes only lower ones (kernel/hart,
 * kernel/mm). */
#ifndef DUPLEX_TRACE_TRACE_H
#define DUPLEX_TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/trace_record.h"

#define TRACE_DEFAULT_CAPACITY 4096
#define TRACE_MAX_CAPACITY     (1u << 20)

/* One byte per class (record.h's TRACE_CONSOLE... is bit i, trace_on[i]), 1 while that
 * class is recorded: a hook that is off costs a byte load and a branch. Written only by
 * trace_set_mask and trace_boot. */
#define TRACE_CLASSES 5
extern uint8_t trace_on[TRACE_CLASSES];

/* Write one record on this hart's ring. Called by trace_event when the class is on;
 * any context (interrupt handlers, spinlock holders); never sleeps. */
void trace_emit(uint32_t event, uint32_t a, uint64_t b, uint64_t c, uint64_t d);

/* True while `class_bit` (one of TRACE_CONSOLE...) is recorded, for hooks that take
 * an out-of-line path or compute arguments (they call trace_emit then). Any context. */
static inline bool trace_enabled(uint32_t class_bit)
{
	return __builtin_expect(
	    __atomic_load_n(&trace_on[__builtin_ctz(class_bit)], __ATOMIC_RELAXED), 0);
}

/* The hook. `event` is a constant, so its class is too. Any context. */
static inline void trace_event(uint32_t event, uint32_t a, uint64_t b, uint64_t c, uint64_t d)
{
	if (trace_enabled(TRACE_CLASS_OF(event)))
		trace_emit(event, a, b, c, d);
}

/* "console,sched,irq,syscall,wire", "all", "off" (or "") -> mask. Returns false, with
 * *bad pointing at the first unknown word, for anything else. Pure; any context. */
bool trace_parse_classes(const char *text, uint32_t *mask, const char **bad);

/* Called once by kernel_main on the boot hart after the page allocator is up, with the
 * values of trace= and trace.size= (either may be NULL): allocates the rings and
 * switches on the classes asked for. Returns false when neither was given; otherwise
 * true, with what it did or why not in `message` for the boot log. Never sleeps. */
bool trace_boot(const char *classes, const char *size, char *message, size_t message_size);

/* Switch recording to `mask` (0: off); rings are allocated the first time it is not 0.
 * Returns the previous mask, or -1 when the rings could not be allocated. Task
 * context; never sleeps. */
long trace_set_mask(uint32_t mask);

/* Forget every record and drop count. Each hart empties its own ring at its next event
 * (an epoch count), so no hart's ring is touched by another. Any context. */
void trace_reset(void);

/* Snapshot of the rings (status->timebase_hz is left for the caller). Any context. */
void trace_get_status(struct trace_status *status);

/* Copy up to `max` records of hart `hart`'s ring from record `first` on into `out`;
 * returns how many. Records already published never change, so this needs no lock and
 * may run while that hart goes on recording. Any context. */
uint32_t trace_copy(uint32_t hart, uint32_t first, struct trace_record *out, uint32_t max);

#endif
