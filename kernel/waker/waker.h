/* Wakers: how a task parks until something happens, and how that something (an
 * interrupt handler on any hart, another task, a timer callback) wakes it without
 * the wake-up ever being lost between "check the condition" and "park".
 *
 *     struct waker waker;
 *     waker_init(&waker);                 // bind to the calling task
 *     publish &waker where the event source will find it, then:
 *     WAIT_UNTIL(condition);              // parks until condition is true
 *
 * and the event source: make the condition true, then waker_wake(&waker).
 * Wait queues (wait_queue.h) keep a list of wakers for "wake whoever waits here". */
#ifndef DUPLEX_WAKER_H
#define DUPLEX_WAKER_H

#include <stdint.h>

#include "kernel/lib/errno.h"
#include "kernel/sched/sched.h"

struct waker {
	struct task *task;
	uint64_t wakes; /* wake-ups delivered through this waker */
};

/* Bind to the calling task. Task context. */
void waker_init(struct waker *waker);
/* Wake the bound task (no-op if none). Any context, any hart; never sleeps. */
void waker_wake(struct waker *waker);

/* Park the calling task until `condition` holds. Task context; may sleep. The
 * condition is re-evaluated after every wake-up, spurious or not. */
#define WAIT_UNTIL(condition)                                                                      \
	do {                                                                                       \
		for (;;) {                                                                         \
			sched_prepare_park();                                                      \
			if (condition)                                                             \
				break;                                                             \
			sched_park();                                                              \
		}                                                                                  \
	} while (0)

/* WAIT_UNTIL that a signal interrupts (sched.h, "Interruptible waits"): sets `result`
 * (an int) to 0 when `condition` holds, or to -ERESTARTSYS when the task has signal
 * work first. A blocking system call returns that -ERESTARTSYS as it is: the return to
 * user mode makes it -EINTR, or restarts the call under SA_RESTART. */
#define WAIT_UNTIL_INTERRUPTIBLE(condition, result)                                                \
	do {                                                                                       \
		(result) = 0;                                                                      \
		for (;;) {                                                                         \
			sched_prepare_park();                                                      \
			if (condition)                                                             \
				break;                                                             \
			if (sched_signal_pending()) {                                              \
				(result) = -ERESTARTSYS;                                           \
				break;                                                             \
			}                                                                          \
			sched_park();                                                              \
		}                                                                                  \
	} while (0)

#endif
