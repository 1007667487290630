/* selftest=sched: tasks that never yield still share a hart (preemption); a task
 * moved by affinity runs where it was sent; unpinned work spreads over the harts. */
#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/log/log.h"
#include "kernel/sched/sched.h"
#include "kernel/selftest/selftest.h"
#include "kernel/sync/spinlock.h"

#define WATCHDOG_NS (120 * 1000000000ull)
#define SPINNERS    3

static volatile uint64_t spin_counts[SPINNERS];
static volatile int spinners_done;

static int current_hart_index(void)
{
	irq_push_off();
	int index = this_hart()->index;
	irq_pop_off();
	return index;
}

/* Never yields or sleeps: only the timer interrupt lets the others run. */
static void spinner_task(void *argument)
{
	int me = (int)(long)argument;
	for (;;) {
		spin_counts[me]++;
		bool everyone_ran = true;
		for (int i = 0; i < SPINNERS; i++)
			everyone_ran &= spin_counts[i] > 0;
		if (everyone_ran)
			break;
	}
	__atomic_fetch_add(&spinners_done, 1, __ATOMIC_RELEASE);
}

static volatile int mover_done;
static volatile int mover_errors;

static void mover_task(void *argument)
{
	(void)argument;
	int harts = harts_online();
	for (int lap = 0; lap < 3; lap++) {
		for (int h = harts - 1; h >= 0; h--) {
			if (sched_set_affinity(1ull << h) != 0 || current_hart_index() != h) {
				log_printf("sched: mover not on hart index %d after set_affinity\n",
				           h);
				mover_errors++;
			}
		}
	}
	if (sched_set_affinity(0) != -1) {
		log_printf("sched: an empty affinity mask was accepted\n");
		mover_errors++;
	}
	__atomic_store_n(&mover_done, 1, __ATOMIC_RELEASE);
}

#define WORKERS 8
static volatile uint64_t worker_harts; /* bit per hart index a worker ran on */
static volatile int workers_done;

static void worker_task(void *argument)
{
	(void)argument;
	volatile uint64_t sum = 0;
	for (int i = 0; i < 200000; i++)
		sum += (uint64_t)i;
	__atomic_fetch_or(&worker_harts, 1ull << current_hart_index(), __ATOMIC_RELAXED);
	__atomic_fetch_add(&workers_done, 1, __ATOMIC_RELEASE);
}

int selftest_sched(const struct cmdline *line)
{
	(void)line;
	int harts = harts_online();
	uint64_t last_hart = 1ull << (harts - 1);

	for (int i = 0; i < SPINNERS; i++) {
		if (!task_create("spinner", spinner_task, (void *)(long)i, last_hart))
			return -1;
	}
	if (selftest_wait_count(&spinners_done, SPINNERS, WATCHDOG_NS, "preemption") != 0)
		return -1;
	log_printf("sched: %d never-yielding tasks on one hart all ran (preemption works)\n",
	           SPINNERS);

	if (!task_create("mover", mover_task, 0, ALL_HARTS))
		return -1;
	if (selftest_wait_count(&mover_done, 1, WATCHDOG_NS, "affinity moves") != 0 || mover_errors)
		return -1;
	log_printf("sched: affinity moved a task across all %d harts, 3 laps\n", harts);

	for (int i = 0; i < WORKERS; i++) {
		if (!task_create("worker", worker_task, 0, ALL_HARTS))
			return -1;
	}
	if (selftest_wait_count(&workers_done, WORKERS, WATCHDOG_NS, "workers") != 0)
		return -1;
	int used = 0;
	for (uint64_t bits = worker_harts; bits; bits &= bits - 1)
		used++;
	log_printf("sched: %d unpinned workers ran on %d harts\n", WORKERS, used);
	if (harts > 1 && used < 2) {
		log_printf("sched: work did not spread\n");
		return -1;
	}
	for (int h = 0; h < harts; h++) {
		uint64_t busy, idle;
		struct sched_hart_stats stats;
		sched_hart_times(h, &busy, &idle);
		sched_hart_stats(h, &stats);
		log_printf(
		    "sched: hart index %d busy %lu us idle %lu us, %lu switches, %lu steals\n", h,
		    busy / 1000, idle / 1000, stats.context_switches, stats.steals);
	}
	return 0;
}
