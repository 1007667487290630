/* When the kernel cannot go on: print why, where and how we got here, stop every other
 * hart, and power off with POWER_STATUS_PANIC. Callable from any context, including
 * with locks held and from interrupt handlers; a panic inside a panic stops at once. */
#ifndef DUPLEX_PANIC_H
#define DUPLEX_PANIC_H

struct trap_frame;

void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* The fault report for an exception taken in S-mode: cause, sepc, stval, every
 * register and a frame-pointer backtrace; then as panic(). `task_name` may be NULL. */
void panic_fault(const struct trap_frame *frame, const char *task_name) __attribute__((noreturn));

/* Called by the IPI_STOP handler on the other harts. */
void panic_stop_this_hart(void) __attribute__((noreturn));

#endif
