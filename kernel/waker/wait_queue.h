/* Wait queues: any number of tasks wait for one kind of event.
 *
 *     wait_queue_wait(&queue, condition_fn, argument);   // task context, may sleep
 *     ... elsewhere: make it true, then wait_queue_wake_all(&queue);  // any context
 *
 * Each waiter links a waker from its own stack into the queue, so the queue needs no
 * memory of its own. */
#ifndef DUPLEX_WAIT_QUEUE_H
#define DUPLEX_WAIT_QUEUE_H

#include <stdbool.h>

#include "kernel/sync/spinlock.h"
#include "kernel/waker/waker.h"

struct wait_entry {
	struct waker waker;
	struct wait_entry *next;
};

struct wait_queue {
	struct spinlock lock;
	struct wait_entry *first;
};

void wait_queue_init(struct wait_queue *queue, const char *name);
/* Park until condition(argument) is true. Task context; may sleep. */
void wait_queue_wait(struct wait_queue *queue, bool (*condition)(void *argument), void *argument);
/* wait_queue_wait that a signal interrupts: 0 once condition(argument) is true, or
 * -ERESTARTSYS (kernel/lib/errno.h) when the task has signal work first; a blocking
 * system call returns that as it is (sched.h, "Interruptible waits"). Task context. */
int wait_queue_wait_interruptible(struct wait_queue *queue, bool (*condition)(void *argument),
                                  void *argument);
/* Wake every / the longest-waiting parked task. Any context. Return how many. */
int wait_queue_wake_all(struct wait_queue *queue);
int wait_queue_wake_one(struct wait_queue *queue);
/* Link / unlink a caller-owned entry (its waker already bound) without waiting: for a
 * task that waits on several queues at once (poll_table.h). Any context. */
void wait_queue_add(struct wait_queue *queue, struct wait_entry *entry);
void wait_queue_remove(struct wait_queue *queue, struct wait_entry *entry);

#endif
