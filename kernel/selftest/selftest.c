/* Self-test dispatch and shared helpers; see selftest.h. */
#include "kernel/selftest/selftest.h"

#include <stdbool.h>

#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/sched/sleep.h"
#include "kernel/timer/clock.h"

int selftest_wait_count(volatile int *counter, int target, uint64_t watchdog_ns, const char *what)
{
	/* Poll with sleeps rather than park: this is the referee, it must not depend on
	 * the mechanism under test to wake it. */
	uint64_t give_up = clock_now_ns() + watchdog_ns;
	while (__atomic_load_n(counter, __ATOMIC_ACQUIRE) < target) {
		if (clock_now_ns() >= give_up) {
			log_printf(
			    "selftest: %s: only %d of %d after %lu ms: hung or lost wake-up\n",
			    what, *counter, target, watchdog_ns / 1000000);
			return -1;
		}
		sleep_for(1000000);
	}
	return 0;
}

int selftest_run(const char *name, const struct cmdline *line)
{
	/* in_all: part of selftest=all (the ones that end in a panic are not). */
	static const struct {
		const char *name;
		int (*run)(const struct cmdline *line);
		bool in_all;
	} tests[] = {
	    {"wakers", selftest_wakers, true},
	    {"timers", selftest_timers, true},
	    {"sched", selftest_sched, true},
	    {"fault", selftest_fault, false},
	    {"panic-full-ring", selftest_panic_full_ring, false},
	    {"boot-lottery", selftest_boot_lottery, false},
	    {"log-overflow", selftest_log_overflow, false},
	};
	int failures = 0;
	bool found = false;

	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		bool all = strcmp(name, "all") == 0 && tests[i].in_all;
		if (!all && strcmp(name, tests[i].name) != 0)
			continue;
		found = true;
		int result = tests[i].run(line);
		log_printf("selftest %s: %s\n", tests[i].name, result == 0 ? "PASS" : "FAIL");
		failures += result != 0;
	}
	if (!found) {
		log_printf("selftest: no test named '%s' (wakers, timers, sched, fault, "
		           "panic-full-ring, boot-lottery, log-overflow, all)\n",
		           name);
		return 2;
	}
	return failures ? 1 : 0;
}
