/* Wait queues over wakers; see wait_queue.h. */
#include "kernel/waker/wait_queue.h"

void wait_queue_init(struct wait_queue *queue, const char *name)
{
	spinlock_init(&queue->lock, name);
	queue->first = 0;
}

void wait_queue_add(struct wait_queue *queue, struct wait_entry *entry)
{
	spin_lock(&queue->lock);
	struct wait_entry **link = &queue->first;
	while (*link)
		link = &(*link)->next;
	entry->next = 0;
	*link = entry;
	spin_unlock(&queue->lock);
}

void wait_queue_remove(struct wait_queue *queue, struct wait_entry *entry)
{
	spin_lock(&queue->lock);
	for (struct wait_entry **link = &queue->first; *link; link = &(*link)->next) {
		if (*link == entry) {
			*link = entry->next;
			break;
		}
	}
	spin_unlock(&queue->lock);
}

void wait_queue_wait(struct wait_queue *queue, bool (*condition)(void *argument), void *argument)
{
	struct wait_entry entry;

	waker_init(&entry.waker);
	/* Enqueue before the first check, so a wake after the check finds us. */
	wait_queue_add(queue, &entry);
	sched_note_wait(queue->lock.name, queue, 0);
	WAIT_UNTIL(condition(argument));
	sched_note_wait_done();
	wait_queue_remove(queue, &entry);
}

int wait_queue_wait_interruptible(struct wait_queue *queue, bool (*condition)(void *argument),
                                  void *argument)
{
	struct wait_entry entry;
	int result;

	waker_init(&entry.waker);
	wait_queue_add(queue, &entry);
	sched_note_wait(queue->lock.name, queue, 0);
	WAIT_UNTIL_INTERRUPTIBLE(condition(argument), result);
	sched_note_wait_done();
	wait_queue_remove(queue, &entry);
	return result;
}

/* Wakes under the queue lock: the entry lives on the waiter's stack and is only
 * unlinked under this lock, so it cannot vanish while we use it. Out of line, so that
 * the common wake that finds nobody waiting saves no registers for it. */
static int __attribute__((noinline)) wake_locked(struct wait_queue *queue, bool all)
{
	int woken = 0;
	spin_lock(&queue->lock);
	for (struct wait_entry *entry = queue->first; entry; entry = entry->next) {
		waker_wake(&entry->waker);
		woken++;
		if (!all)
			break;
	}
	spin_unlock(&queue->lock);
	return woken;
}

static inline int wake(struct wait_queue *queue, bool all)
{
	/* Nobody waiting: skip the lock (most wakes, e.g. every uncontended mutex_unlock).
	 * Safe against a waiter arriving now: it links itself in before it checks its
	 * condition, with a full fence between (sched_prepare_park); ours sits between the
	 * caller making the condition true and this look. One of us sees the other. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&queue->first, __ATOMIC_RELAXED))
		return 0;
	return wake_locked(queue, all);
}

int wait_queue_wake_all(struct wait_queue *queue)
{
	return wake(queue, true);
}

int wait_queue_wake_one(struct wait_queue *queue)
{
	return wake(queue, false);
}
