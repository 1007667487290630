/* Wakers; see waker.h. The no-lost-wake-up guarantee comes from the scheduler's
 * park protocol (sched.h): a wake between the check and the park cancels the park. */
#include "kernel/waker/waker.h"

void waker_init(struct waker *waker)
{
	waker->task = sched_current();
	waker->wakes = 0;
}

void waker_wake(struct waker *waker)
{
	struct task *task = __atomic_load_n(&waker->task, __ATOMIC_ACQUIRE);
	if (!task)
		return;
	__atomic_fetch_add(&waker->wakes, 1, __ATOMIC_RELAXED);
	sched_wake(task);
}
