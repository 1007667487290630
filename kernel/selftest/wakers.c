/* selftest=wakers: wake-ups across harts, from tasks, timer callbacks and wait queues,
 * counted so that a single lost wake-up shows (as a hang caught by the watchdog). */
#include "kernel/hart/hart.h"
#include "kernel/log/log.h"
#include "kernel/mm/heap.h"
#include "kernel/sched/sched.h"
#include "kernel/selftest/selftest.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"
#include "kernel/waker/wait_queue.h"
#include "kernel/waker/waker.h"

#define WATCHDOG_NS (120 * 1000000000ull)

/* ---- token ring: task i waits for the token, passes it to i+1 and wakes it */
struct ring {
	int tasks;
	int rounds;
	volatile int token;
	struct waker wakers[MAX_HARTS * 2];
	volatile int ready;
	volatile int passes[MAX_HARTS * 2];
	volatile int done;
};

struct ring_member {
	struct ring *ring;
	int index;
};

static void ring_task(void *argument)
{
	struct ring_member *member = argument;
	struct ring *ring = member->ring;
	int me = member->index, next = (me + 1) % ring->tasks;

	waker_init(&ring->wakers[me]);
	__atomic_fetch_add(&ring->ready, 1, __ATOMIC_RELEASE);
	for (int round = 0; round < ring->rounds; round++) {
		WAIT_UNTIL(__atomic_load_n(&ring->token, __ATOMIC_ACQUIRE) == me);
		ring->passes[me]++;
		__atomic_store_n(&ring->token, next, __ATOMIC_RELEASE);
		waker_wake(&ring->wakers[next]);
	}
	__atomic_fetch_add(&ring->done, 1, __ATOMIC_RELEASE);
}

static int token_ring(int rounds)
{
	static struct ring ring;
	static struct ring_member members[MAX_HARTS * 2];
	int harts = harts_online();

	ring.tasks = harts * 2 < 4 ? 4 : harts * 2;
	ring.rounds = rounds;
	ring.token = -1; /* nobody moves until every waker is bound */
	for (int i = 0; i < ring.tasks; i++) {
		members[i] = (struct ring_member){&ring, i};
		/* Even members pinned one per hart; odd ones free to migrate. */
		uint64_t allowed = (i % 2 == 0) ? 1ull << ((i / 2) % harts) : ALL_HARTS;
		if (!task_create("ring", ring_task, &members[i], allowed))
			return -1;
	}
	if (selftest_wait_count(&ring.ready, ring.tasks, WATCHDOG_NS, "ring start") != 0)
		return -1;
	__atomic_store_n(&ring.token, 0, __ATOMIC_RELEASE);
	waker_wake(&ring.wakers[0]);
	if (selftest_wait_count(&ring.done, ring.tasks, WATCHDOG_NS, "token ring") != 0)
		return -1;
	int total = 0;
	for (int i = 0; i < ring.tasks; i++) {
		if (ring.passes[i] != rounds) {
			log_printf("ring task %d passed %d times, expected %d\n", i, ring.passes[i],
			           rounds);
			return -1;
		}
		total += ring.passes[i];
	}
	log_printf("token ring: %d tasks on %d harts, %d hand-offs, none lost\n", ring.tasks, harts,
	           total);
	return 0;
}

/* ---- timer callbacks (interrupt context) waking a task */
struct timer_chain {
	struct timer timer;
	struct waker waker;
	volatile int fired;
	volatile int consumed;
	volatile int done;
	int target;
};

static void chain_fire(struct timer *timer)
{
	struct timer_chain *chain = timer->context;
	__atomic_fetch_add(&chain->fired, 1, __ATOMIC_RELEASE);
	waker_wake(&chain->waker);
}

static void chain_task(void *argument)
{
	struct timer_chain *chain = argument;
	waker_init(&chain->waker);
	for (int i = 0; i < chain->target; i++) {
		timer_start(&chain->timer, clock_now_ns() + 20000);
		WAIT_UNTIL(__atomic_load_n(&chain->fired, __ATOMIC_ACQUIRE) > i);
		chain->consumed++;
	}
	__atomic_store_n(&chain->done, 1, __ATOMIC_RELEASE);
}

static int timer_wakes(int count)
{
	static struct timer_chain chain;
	chain.target = count;
	timer_init(&chain.timer, chain_fire, &chain);
	if (!task_create("chain", chain_task, &chain, ALL_HARTS))
		return -1;
	if (selftest_wait_count(&chain.done, 1, WATCHDOG_NS, "timer-callback wakes") != 0)
		return -1;
	if (chain.fired != count || chain.consumed != count) {
		log_printf("timer chain: fired %d consumed %d, expected %d\n", chain.fired,
		           chain.consumed, count);
		return -1;
	}
	log_printf("timer callbacks: %d wake-ups from interrupt context, none lost\n", count);
	return 0;
}

/* ---- wait queue: many waiters, one producer stepping a counter */
struct gate {
	struct wait_queue queue;
	volatile int level;
	volatile int passed;
	int steps;
};

struct gate_waiter {
	struct gate *gate;
	int threshold;
};

static bool gate_open(void *argument)
{
	struct gate_waiter *waiter = argument;
	return __atomic_load_n(&waiter->gate->level, __ATOMIC_ACQUIRE) >= waiter->threshold;
}

static void gate_task(void *argument)
{
	struct gate_waiter *waiter = argument;
	struct gate *gate = waiter->gate;
	for (; waiter->threshold <= gate->steps; waiter->threshold++)
		wait_queue_wait(&gate->queue, gate_open, waiter);
	__atomic_fetch_add(&gate->passed, 1, __ATOMIC_RELEASE);
}

static int wait_queue_wakes(int waiters, int steps)
{
	static struct gate gate;
	static struct gate_waiter members[16];
	wait_queue_init(&gate.queue, "selftest gate");
	gate.steps = steps;
	for (int i = 0; i < waiters; i++) {
		members[i] = (struct gate_waiter){&gate, 1};
		if (!task_create("gate", gate_task, &members[i], ALL_HARTS))
			return -1;
	}
	for (int step = 1; step <= steps; step++) {
		__atomic_store_n(&gate.level, step, __ATOMIC_RELEASE);
		wait_queue_wake_all(&gate.queue);
		/* Let waiters catch up now and then, so some wakes find parked tasks and
		 * some find tasks still running. */
		if (step % 8 == 0)
			sched_yield();
	}
	if (selftest_wait_count(&gate.passed, waiters, WATCHDOG_NS, "wait queue") != 0)
		return -1;
	log_printf("wait queue: %d waiters followed %d steps each\n", waiters, steps);
	return 0;
}

int selftest_wakers(const struct cmdline *line)
{
	uint64_t rounds = 5000;
	cmdline_get_u64(line, "selftest.rounds", rounds, &rounds);
	if (token_ring((int)rounds) != 0)
		return -1;
	if (timer_wakes(2000) != 0)
		return -1;
	if (wait_queue_wakes(12, 500) != 0)
		return -1;
	return 0;
}
