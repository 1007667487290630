/* selftest=log-overflow: the kernel log buffer overflows while the console cannot print,
 * and the console must announce the range it skipped.
 *
 * As in panic_ring.c, the test runs on hart 0 (where the async backend takes the UART
 * interrupt) with interrupts masked, and logs numbered lines until the first one the
 * TX ring could not take: from then on lines only go into the log buffer. It logs
 * SKIPPED more lines than the buffer holds, so the oldest SKIPPED records waiting are
 * overwritten, then lets interrupts in again and returns; power-off prints the rest.
 * The host (tests/test_log.py) checks that lines 0 .. W-1 come out, then
 * "** SKIPPED kernel messages dropped **", then every line from W + SKIPPED on, each
 * once and in order. Here: the log's skipped count grows by exactly SKIPPED.
 * Meaningful with console=async only (any other backend prints every line at once). */
#include <stdint.h>

#include "kernel/log/log.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/sleep.h"
#include "kernel/selftest/selftest.h"
#include "kernel/sync/spinlock.h"

#define MAX_LINES 100000
#define SKIPPED   5
#define UART_HART 0 /* drivers/console/port/interrupt.c registers the UART interrupt on hart 0 */

static void log_numbered(int number)
{
	log_printf("log-overflow: line %06d ........................................\n", number);
}

int selftest_log_overflow(const struct cmdline *line)
{
	(void)line;
	if (sched_set_affinity(1ull << UART_HART) != 0) {
		log_printf("selftest log-overflow: cannot move to hart index %d\n", UART_HART);
		return -1;
	}
	int capacity = (int)(log_buffer_bytes() / LOG_LINE_MAX);
	uint64_t skipped_before = log_skipped_records();
	log_printf("selftest log-overflow: %d records; filling the TX ring with interrupts "
	           "off\n",
	           capacity);
	/* Start with everything logged so far printed: "behind" below must mean "the ring
	 * is full", not "another hart's flush is still under way". */
	while (log_console_behind())
		sleep_for(1000000);
	irq_push_off();
	int lines = 0;
	while (lines < MAX_LINES && !log_console_behind())
		log_numbered(lines++);
	/* Line lines - 1 is the first one waiting in the buffer: overflow it by SKIPPED. */
	int waiting = lines < MAX_LINES ? 1 : 0;
	for (; waiting > 0 && waiting < capacity + SKIPPED; waiting++)
		log_numbered(lines++);
	irq_pop_off();
	if (!waiting) {
		log_printf("selftest log-overflow: %d lines and none waited: not async?\n", lines);
		return -1;
	}
	/* Let the console catch up, then count. */
	while (log_console_behind())
		sleep_for(1000000);
	uint64_t skipped = log_skipped_records() - skipped_before;
	log_printf("selftest log-overflow: %d lines, %lu skipped (expected %d)\n", lines,
	           (unsigned long)skipped, SKIPPED);
	return skipped == SKIPPED ? 0 : -1;
}
