/* Per-hart one-shot timer queues; see timer.h. */
#include "kernel/timer/timer.h"

#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer_source.h"

struct timer_queue {
	struct spinlock lock;
	struct timer *first; /* sorted by deadline, earliest first */
	uint64_t programmed_ticks;
	uint64_t interrupts;
	struct timer *volatile running; /* whose callback runs right now, for timer_cancel */
};

static struct timer_queue queues[MAX_HARTS];
static const struct timer_source *source; /* the same on every hart */

/* Program this hart's comparator for the earliest deadline. Caller holds the queue lock. */
static void program_hardware(struct timer_queue *queue)
{
	uint64_t deadline_ns =
	    queue->first ? queue->first->deadline_ns : clock_now_ns() + TIMER_KEEPALIVE_NS;
	uint64_t ticks = clock_ns_to_ticks(deadline_ns);
	/* Timers armed on the boot hart before its timers_init_hart (the async console's line
	 * model arms one for every log line) wait in the queue; init programs them. */
	if (!source || ticks == queue->programmed_ticks)
		return;
	queue->programmed_ticks = ticks;
	source->program(ticks);
}

void timers_init_hart(const struct timer_source *hardware)
{
	struct timer_queue *queue = &queues[this_hart()->index];
	source = hardware;
	this_hart()->program_timer = hardware->program;
	/* A device timer leaves the supervisor timer interrupt to nobody; a broken SBI timer
	 * checked at boot may have left it pending for good (timer_source.h). */
	if (hardware->external)
		csr_clear(sie, SIE_STIE);
	spinlock_init(&queue->lock, "timer");
	spin_lock(&queue->lock);
	queue->programmed_ticks = 0;
	program_hardware(queue);
	spin_unlock(&queue->lock);
}

void timer_init(struct timer *timer, void (*callback)(struct timer *timer), void *context)
{
	timer->deadline_ns = 0;
	timer->callback = callback;
	timer->context = context;
	timer->next = 0;
	timer->hart_index = -1;
}

/* Unlink from its queue if pending. Caller holds that queue's lock. */
static bool unlink_timer(struct timer_queue *queue, struct timer *timer)
{
	for (struct timer **link = &queue->first; *link; link = &(*link)->next) {
		if (*link == timer) {
			*link = timer->next;
			timer->next = 0;
			timer->hart_index = -1;
			return true;
		}
	}
	return false;
}

/* Wait until no hart is inside this timer's callback, so the caller may free it. */
static void wait_for_callback(struct timer *timer)
{
	irq_push_off(); /* keep `here` true while we look */
	int here = this_hart()->index, harts = hart_count();
	for (int i = 0; i < harts; i++) {
		if (i == here)
			continue; /* our own hart's callback cannot be running under us */
		while (__atomic_load_n(&queues[i].running, __ATOMIC_ACQUIRE) == timer)
			cpu_relax();
	}
	irq_pop_off();
}

bool timer_cancel(struct timer *timer)
{
	for (;;) {
		int index = __atomic_load_n(&timer->hart_index, __ATOMIC_ACQUIRE);
		if (index < 0) {
			wait_for_callback(timer);
			return false;
		}
		struct timer_queue *queue = &queues[index];
		spin_lock(&queue->lock);
		if (timer->hart_index != index) { /* moved or fired meanwhile: look again */
			spin_unlock(&queue->lock);
			continue;
		}
		bool was_first = queue->first == timer;
		bool removed = unlink_timer(queue, timer);
		if (was_first && index == this_hart()->index)
			program_hardware(queue);
		spin_unlock(&queue->lock);
		return removed;
	}
}

void timer_start(struct timer *timer, uint64_t deadline_ns)
{
	timer_cancel(timer);
	irq_push_off();
	int index = this_hart()->index;
	struct timer_queue *queue = &queues[index];
	spin_lock(&queue->lock);
	timer->deadline_ns = deadline_ns;
	struct timer **link = &queue->first;
	while (*link && (*link)->deadline_ns <= deadline_ns)
		link = &(*link)->next;
	timer->next = *link;
	*link = timer;
	__atomic_store_n(&timer->hart_index, index, __ATOMIC_RELEASE);
	if (queue->first == timer)
		program_hardware(queue);
	spin_unlock(&queue->lock);
	irq_pop_off();
}

bool timer_is_pending(const struct timer *timer)
{
	return __atomic_load_n(&timer->hart_index, __ATOMIC_ACQUIRE) >= 0;
}

/* Run every callback whose deadline had passed when the interrupt came, one timer at a
 * time. A timer leaves the queue only as its callback starts: `running` is set before
 * hart_index is cleared, so a timer_cancel on another hart either unlinks it (the callback
 * will not run) or sees it running and waits. (Collecting the due timers in a private list
 * first, as this code once did, left them in neither state: a cancel returned at once, the
 * owner reused the timer, often a stack variable in sleep_until, and the queue walk
 * followed its new links. That lost timers, e.g. the line model's TX event.) */
void timer_handle_interrupt(void)
{
	struct timer_queue *queue = &queues[this_hart()->index];

	spin_lock(&queue->lock);
	queue->interrupts++;
	uint64_t now = clock_now_ns();
	while (queue->first && queue->first->deadline_ns <= now) {
		struct timer *timer = queue->first;
		queue->first = timer->next;
		timer->next = 0;
		queue->running = timer;
		__atomic_store_n(&timer->hart_index, -1, __ATOMIC_RELEASE);
		spin_unlock(&queue->lock);
		timer->callback(timer); /* never touch `timer` after this (timer.h) */
		spin_lock(&queue->lock);
		__atomic_store_n(&queue->running, 0, __ATOMIC_RELEASE);
	}
	/* Re-arm for what is left: a program of the same deadline must still reach the
	 * hardware, since the interrupt that got us here has consumed it. */
	queue->programmed_ticks = 0;
	program_hardware(queue);
	spin_unlock(&queue->lock);
}

uint64_t timer_interrupt_count(int hart_index)
{
	return queues[hart_index].interrupts;
}
