/* Timed sleep; see sleep.h. */
#include "kernel/sched/sleep.h"

#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"
#include "kernel/waker/waker.h"

static void wake_sleeper(struct timer *timer)
{
	waker_wake(timer->context);
}

void sleep_until(uint64_t deadline_ns)
{
	struct waker waker;
	struct timer timer;

	waker_init(&waker);
	timer_init(&timer, wake_sleeper, &waker);
	timer_start(&timer, deadline_ns);
	WAIT_UNTIL(clock_now_ns() >= deadline_ns);
	/* Normally already fired; after a spurious wake-up it may still be pending. */
	timer_cancel(&timer);
}

void sleep_for(uint64_t duration_ns)
{
	sleep_until(clock_now_ns() + duration_ns);
}
