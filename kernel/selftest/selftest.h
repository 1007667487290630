/* In-kernel self-tests of the core services, chosen with `selftest=NAME` on the
 * kernel command line (test-only: nothing else uses them). Each prints what it
 * checked and a final "selftest NAME: PASS" or "selftest NAME: FAIL ..." line; the
 * QEMU system tests in tests/ assert on those lines and the exit status.
 *
 *   wakers   tasks on every hart pass a token through wakers, timer callbacks wake a
 *            task, wait queues wake groups: counts must match, nothing may hang
 *   timers   timers fire in deadline order, never early; cancelled ones never fire;
 *            sleepers wake in deadline order
 *   sched    preemption of tasks that never yield, affinity moves, work spreading
 *   fault    a kernel task touches an unmapped address: the fault report must appear
 *   panic-full-ring
 *            the same fault while the async console's TX ring is full: everything
 *            queued, then the whole report, must come out (panic_ring.c)
 *   boot-lottery
 *            a hart sent into the boot entry after boot stops itself (entry.S)
 *   log-overflow
 *            the kernel log buffer overflows while the console cannot print: the
 *            console announces the skipped records (log_overflow.c)
 *   all      wakers, timers and sched in turn */
#ifndef DUPLEX_SELFTEST_H
#define DUPLEX_SELFTEST_H

#include <stdint.h>

#include "kernel/cmdline/cmdline.h"

/* Called by the init task. Returns the exit status for power_off: 0 when every
 * check passed. Task context; sleeps. */
int selftest_run(const char *name, const struct cmdline *line);

int selftest_wakers(const struct cmdline *line);
int selftest_timers(const struct cmdline *line);
int selftest_sched(const struct cmdline *line);
int selftest_fault(const struct cmdline *line);
int selftest_panic_full_ring(const struct cmdline *line);
int selftest_boot_lottery(const struct cmdline *line);
int selftest_log_overflow(const struct cmdline *line);

/* fault.c: load from `address` in a function of its own (not inlined), so a fault
 * report's backtrace shows a real call chain. */
uint64_t selftest_touch(volatile uint64_t *address);

/* Shared by the tests: wait until *counter reaches `target`, or fail the test (and
 * say which) if it has not after `watchdog_ns`. Returns 0 or -1. */
int selftest_wait_count(volatile int *counter, int target, uint64_t watchdog_ns, const char *what);

#endif
