/* selftest=panic-full-ring: a kernel fault while the async console's TX ring is full.
 * The panic report goes out through the backend's emergency path, which must first send
 * everything still queued in the ring and then the whole report (cause, every register
 * line, the backtrace, "kernel panic: system halted"), polled, on a machine whose TX
 * interrupt can no longer run.
 *
 * How the ring gets full: the test runs on hart 0, where the UART interrupt is routed
 * (the async backend registers it there), with interrupts masked, so nothing refills
 * the FIFO from the ring; then it logs numbered lines (log lines go into the ring while
 * they fit and wait in the kernel log's buffer when they do not) until the first line
 * the console could not take. It then loads from an unmapped address, as
 * selftest=fault does. The host (tests/test_reliability.py) checks that every line
 * comes out once, in order (the ring's, then the one still in the log buffer), and the
 * whole report follows them. Meaningful with console=async only; with another backend
 * every line goes out at once and the test fails after MAX_LINES lines. Returning from
 * here means the fault did not happen. */
#include <stdint.h>

#include "kernel/log/log.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/sleep.h"
#include "kernel/selftest/selftest.h"
#include "kernel/sync/spinlock.h"

#define MAX_LINES 100000
#define UART_HART 0 /* drivers/console/port/interrupt.c registers the UART interrupt on hart 0 */

int selftest_panic_full_ring(const struct cmdline *line)
{
	(void)line;
	if (sched_set_affinity(1ull << UART_HART) != 0) {
		log_printf("selftest panic-full-ring: cannot move to hart index %d\n", UART_HART);
		return -1;
	}
	log_printf("selftest panic-full-ring: filling the TX ring with interrupts off\n");
	/* Start with everything logged so far printed: "behind" below must mean "the ring
	 * is full", not "another hart's flush is still under way". */
	while (log_console_behind())
		sleep_for(1000000);
	irq_push_off();
	int lines = 0;
	while (lines < MAX_LINES && !log_console_behind()) {
		log_printf("panic-full-ring: line %06d ........................................\n",
		           lines);
		lines++;
	}
	if (lines == MAX_LINES) {
		irq_pop_off();
		log_printf("selftest panic-full-ring: %d lines and none waited: not async?\n",
		           lines);
		return -1;
	}
	/* Line lines - 1 did not fit: the ring is full. Fault now. */
	uint64_t value = selftest_touch((volatile uint64_t *)0x10);
	irq_pop_off();
	log_printf("selftest panic-full-ring: the load returned %#lx instead of faulting\n", value);
	return -1;
}
