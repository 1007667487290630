/* Timed sleep; see sleep.h. */
#include "kernel/sched/sleep.h"

#include "kernel/lib/errno.h"
#include "kernel/sched/sched.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"

/* The timer's callback (any hart, interrupt context): wake the sleeper. The park
 * protocol of sched.h is enough here, with the task itself as the timer's context: a
 * waker (kernel/waker/), built on that protocol, would sit above the scheduler. */
static void wake_sleeper(struct timer *timer)
{
	sched_wake(timer->context);
}

/* Park until the deadline, or until signal work if `interruptible`. */
static int sleep_until_deadline(uint64_t deadline_ns, bool interruptible)
{
	struct timer timer;
	int result = 0;

	timer_init(&timer, wake_sleeper, sched_current());
	timer_start(&timer, deadline_ns);
	sched_note_wait(interruptible ? "sleep" : "sleep (uninterruptible)", &timer, deadline_ns);
	for (;;) {
		sched_prepare_park();
		if (clock_now_ns() >= deadline_ns)
			break;
		if (interruptible && sched_signal_pending()) {
			result = -ERESTARTSYS;
			break;
		}
		sched_park();
	}
	sched_note_wait_done();
	/* Normally already fired; after a spurious wake-up it may still be pending. */
	timer_cancel(&timer);
	return result;
}

void sleep_until(uint64_t deadline_ns)
{
	sleep_until_deadline(deadline_ns, false);
}

int sleep_until_interruptible(uint64_t deadline_ns)
{
	return sleep_until_deadline(deadline_ns, true);
}

void sleep_for(uint64_t duration_ns)
{
	sleep_until(clock_now_ns() + duration_ns);
}
