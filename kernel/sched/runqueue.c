/* Run queue list operations; see runqueue.h. */
#include "kernel/sched/runqueue.h"

void runqueue_init(struct runqueue *queue)
{
	queue->first = 0;
	queue->last = 0;
	queue->count = 0;
}

void runqueue_push_back(struct runqueue *queue, struct runqueue_entry *entry)
{
	entry->next = 0;
	entry->previous = queue->last;
	if (queue->last)
		queue->last->next = entry;
	else
		queue->first = entry;
	queue->last = entry;
	entry->queued = true;
	queue->count++;
}

void runqueue_remove(struct runqueue *queue, struct runqueue_entry *entry)
{
	if (entry->previous)
		entry->previous->next = entry->next;
	else
		queue->first = entry->next;
	if (entry->next)
		entry->next->previous = entry->previous;
	else
		queue->last = entry->previous;
	entry->next = entry->previous = 0;
	entry->queued = false;
	queue->count--;
}

struct runqueue_entry *runqueue_pop_front(struct runqueue *queue)
{
	struct runqueue_entry *entry = queue->first;
	if (entry)
		runqueue_remove(queue, entry);
	return entry;
}

struct runqueue_entry *runqueue_find_stealable(const struct runqueue *queue, int hart_index)
{
	for (struct runqueue_entry *entry = queue->last; entry; entry = entry->previous) {
		if (entry->allowed_harts & (1ull << hart_index))
			return entry;
	}
	return 0;
}
