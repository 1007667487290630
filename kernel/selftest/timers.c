/* selftest=timers: on every hart, timers armed in scrambled order must fire in
 * deadline order and never before their deadline; cancelled timers must not fire;
 * tasks sleeping on one hart must wake in deadline order; a timer cancelled from
 * another hart while an earlier callback runs is either disarmed or already done. */
#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/log/log.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/sleep.h"
#include "kernel/selftest/selftest.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"

#define TIMERS_PER_HART 48
#define WATCHDOG_NS     (60 * 1000000000ull)

struct probe {
	struct timer timer;
	int hart_index;    /* where it was armed */
	int fired_on;      /* where the callback ran */
	uint64_t fired_at; /* clock_now_ns() in the callback */
	int sequence;      /* order of firing on its hart, from 1; 0 = never */
	bool cancelled;
};

static struct probe probes[MAX_HARTS][TIMERS_PER_HART];
static volatile int fire_sequence[MAX_HARTS];
static volatile int harts_finished;
static volatile int failures;

static void probe_fire(struct timer *timer)
{
	struct probe *probe = timer->context;
	probe->fired_at = clock_now_ns();
	probe->fired_on = this_hart()->index;
	probe->sequence =
	    __atomic_add_fetch(&fire_sequence[probe->hart_index], 1, __ATOMIC_RELAXED);
}

static void fail(const char *what, int hart, int index)
{
	log_printf("timers: hart index %d timer %d: %s\n", hart, index, what);
	__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
}

/* One task per hart, pinned: arm, cancel some, sleep past the last deadline, check. */
static void timer_task(void *argument)
{
	int hart = (int)(long)argument;
	struct probe *mine = probes[hart];
	uint32_t random = 2463534242u + (uint32_t)hart * 7919u; /* xorshift32, fixed seed */
	uint64_t base = clock_now_ns() + 2000000, latest = 0;

	irq_push_off(); /* arm all on this hart without being moved mid-way */
	for (int i = 0; i < TIMERS_PER_HART; i++) {
		random ^= random << 13;
		random ^= random >> 17;
		random ^= random << 5;
		uint64_t deadline = base + (random % 20000) * 1000; /* within 20 ms */
		mine[i].hart_index = hart;
		timer_init(&mine[i].timer, probe_fire, &mine[i]);
		timer_start(&mine[i].timer, deadline);
		if (deadline > latest)
			latest = deadline;
	}
	for (int i = 0; i < TIMERS_PER_HART; i += 4)
		mine[i].cancelled = timer_cancel(&mine[i].timer);
	irq_pop_off();

	sleep_until(latest + 1000000);
	int expected = 0;
	for (int i = 0; i < TIMERS_PER_HART; i++) {
		struct probe *p = &mine[i];
		if (p->cancelled) {
			if (p->sequence)
				fail("cancelled but fired", hart, i);
			continue;
		}
		expected++;
		if (!p->sequence) {
			fail("never fired", hart, i);
			continue;
		}
		if (p->fired_at < p->timer.deadline_ns)
			fail("fired before its deadline", hart, i);
		if (p->fired_on != hart)
			fail("fired on another hart", hart, i);
		for (int j = 0; j < TIMERS_PER_HART; j++) {
			struct probe *q = &mine[j];
			if (q->sequence && q->sequence < p->sequence &&
			    q->timer.deadline_ns > p->timer.deadline_ns)
				fail("fired after a later deadline", hart, i);
		}
	}
	if (fire_sequence[hart] != expected)
		fail("fired count differs from armed minus cancelled", hart, -1);
	__atomic_fetch_add(&harts_finished, 1, __ATOMIC_RELEASE);
}

/* Sleepers pinned to one hart, started in reverse deadline order. */
static volatile int wake_order[8];
static volatile int wake_counter;
static volatile int sleepers_done;
static uint64_t switches_onto_hart[8];
static uint64_t sleep_base;

static void sleeper_task(void *argument)
{
	int rank = (int)(long)argument;
	uint64_t deadline = sleep_base + (uint64_t)(rank + 1) * 3000000;
	sleep_until(deadline);
	if (clock_now_ns() < deadline)
		__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
	wake_order[__atomic_fetch_add(&wake_counter, 1, __ATOMIC_RELAXED)] = rank;
	/* 2 (its start, its wake-up) unless something else had the hart between the two or
	 * between the wake-up and the line above: see sleepers_in_order. */
	switches_onto_hart[rank] = sched_current()->switches_in;
	__atomic_fetch_add(&sleepers_done, 1, __ATOMIC_RELEASE);
}

/* The sleepers' places are their deadlines' order, or an inversion is explained: the
 * earlier sleeper, placed later, was put off the hart after it started (a tick that
 * found its slice over: without -icount, a host that stalls QEMU makes a slice end at
 * once, and a loaded `make test` saw sleeper 2 take place 1 so). A sleeper that ran
 * straight through was switched onto its hart twice; the wake order itself is the
 * timer queue's, which the probes above check. Returns the unexplained inversions. */
static int sleepers_in_order(void)
{
	int unexplained = 0;
	for (int place = 0; place < 8; place++) {
		for (int later = place + 1; later < 8; later++) {
			int early = wake_order[later]; /* an earlier deadline, placed later */
			if (early > wake_order[place])
				continue;
			if (switches_onto_hart[early] > 2) {
				log_printf(
				    "timers: sleeper %d placed after sleeper %d: it was put off "
				    "the hart (%lu switches onto it), so its place is not its "
				    "wake-up's\n",
				    early, wake_order[place],
				    (unsigned long)switches_onto_hart[early]);
				continue;
			}
			log_printf(
			    "timers: sleeper %d woke after sleeper %d, whose deadline is later\n",
			    early, wake_order[place]);
			unexplained++;
		}
	}
	return unexplained;
}

/* Cross-hart cancel. On hart 0 a "blocker" and a "victim" share a deadline, so both are
 * due in one interrupt. The blocker's callback holds hart 0 until hart 1 has cancelled
 * the victim. timer_cancel must then either disarm the victim (true: it never fires) or,
 * if it had already left its queue, return only after its callback has finished. */
#define CROSS_ROUNDS  20
#define CROSS_HOLD_NS (20 * 1000000ull)
static struct timer blocker, victim;
static volatile int blocker_running, victim_fired, cancel_done, cross_done;

static void blocker_fire(struct timer *timer)
{
	(void)timer;
	__atomic_store_n(&blocker_running, 1, __ATOMIC_RELEASE);
	/* Wait in wfi, not a spin: under -icount QEMU runs harts round-robin and a spinning
	 * hart would hold on until its time slice ends. The timer interrupt is still
	 * pending (the victim is due), so mask it here, whichever kind the timer source
	 * raises (timer_source.h); hart 1's IPI ends the wait, which it sends whatever
	 * happens. */
	uint64_t was_enabled = csr_read(sie) & (SIE_STIE | SIE_SEIE);
	csr_clear(sie, SIE_STIE | SIE_SEIE);
	while (!__atomic_load_n(&cancel_done, __ATOMIC_ACQUIRE))
		wait_for_interrupt();
	csr_set(sie, was_enabled);
}

static void victim_fire(struct timer *timer)
{
	(void)timer;
	__atomic_store_n(&victim_fired, 1, __ATOMIC_RELEASE);
}

static void cross_arm_task(void *argument)
{
	(void)argument;
	for (int round = 0; round < CROSS_ROUNDS; round++) {
		while (__atomic_load_n(&cross_done, __ATOMIC_ACQUIRE) != round)
			sleep_for(100000);
		blocker_running = victim_fired = cancel_done = 0;
		timer_init(&blocker, blocker_fire, 0);
		timer_init(&victim, victim_fire, 0);
		irq_push_off();
		uint64_t deadline = clock_now_ns() + 200000;
		timer_start(&blocker, deadline);
		timer_start(&victim, deadline);
		/* Before interrupts are back on: once the blocker runs it waits for hart 1,
		 * which starts only on this store. */
		__atomic_store_n(&cross_done, round + 1000, __ATOMIC_RELEASE);
		irq_pop_off();
	}
}

static void cross_cancel_task(void *argument)
{
	(void)argument;
	for (int round = 0; round < CROSS_ROUNDS; round++) {
		while (__atomic_load_n(&cross_done, __ATOMIC_ACQUIRE) != round + 1000)
			cpu_relax();
		uint64_t give_up = clock_now_ns() + CROSS_HOLD_NS;
		while (!__atomic_load_n(&blocker_running, __ATOMIC_ACQUIRE) &&
		       clock_now_ns() < give_up)
			cpu_relax();
		bool disarmed = timer_cancel(&victim);
		bool fired = __atomic_load_n(&victim_fired, __ATOMIC_ACQUIRE);
		__atomic_store_n(&cancel_done, 1, __ATOMIC_RELEASE);
		ipi_send(0, IPI_RESCHEDULE); /* end the blocker's wfi */
		if (disarmed == fired)       /* disarmed and fired, or neither yet */
			fail(disarmed ? "cancelled from another hart but fired"
			              : "cancel returned before the callback had run",
			     1, round);
		sleep_for(CROSS_HOLD_NS / 4); /* let a wrongly pending victim show itself */
		if (disarmed && victim_fired)
			fail("cancelled from another hart but fired later", 1, round);
		timer_cancel(&blocker);
		__atomic_store_n(&cross_done, round + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&cross_done, -1, __ATOMIC_RELEASE);
}

int selftest_timers(const struct cmdline *line)
{
	(void)line;
	int harts = harts_online();

	for (int h = 0; h < harts; h++) {
		if (!task_create("timers", timer_task, (void *)(long)h, 1ull << h))
			return -1;
	}
	if (selftest_wait_count(&harts_finished, harts, WATCHDOG_NS, "timer checks") != 0)
		return -1;
	log_printf("timers: %d harts x %d timers, %d cancelled each, order checked\n", harts,
	           TIMERS_PER_HART, (TIMERS_PER_HART + 3) / 4);

	/* Deadlines from one base, so they are rank-ordered however late each starts;
	 * created highest rank first, so arming order is the reverse of deadline order.
	 * The base leaves 20 ms for all eight to arm: on a loaded host without -icount a
	 * stalled vCPU could otherwise let the first deadline pass before the last arms. */
	sleep_base = clock_now_ns() + 20000000;
	irq_push_off();
	for (int rank = 7; rank >= 0; rank--)
		task_create("sleeper", sleeper_task, (void *)(long)rank, 1ull << (harts - 1));
	irq_pop_off();
	if (selftest_wait_count(&sleepers_done, 8, WATCHDOG_NS, "sleepers") != 0)
		return -1;
	int inversions = sleepers_in_order();
	failures += inversions;
	if (!inversions)
		log_printf("timers: 8 sleepers woke in deadline order\n");

	if (harts >= 2) {
		task_create("cross arm", cross_arm_task, 0, 1ull << 0);
		task_create("cross cancel", cross_cancel_task, 0, 1ull << 1);
		uint64_t give_up = clock_now_ns() + WATCHDOG_NS;
		while (__atomic_load_n(&cross_done, __ATOMIC_ACQUIRE) != -1) {
			if (clock_now_ns() > give_up) {
				log_printf("timers: cross-hart cancel rounds did not finish\n");
				return -1;
			}
			sleep_for(1000000);
		}
		log_printf("timers: %d cross-hart cancels during a running callback\n",
		           CROSS_ROUNDS);
	}
	return failures ? -1 : 0;
}
