/* A run queue: a FIFO of runnable tasks, one per hart. Each entry carries the set of
 * harts its task may run on, so an idle hart can steal only what it is allowed to run.
 *
 * Pure list logic: the caller (sched.c) holds the owning hart's scheduler lock; host
 * unit tests drive it directly. */
#ifndef DUPLEX_SCHED_RUNQUEUE_H
#define DUPLEX_SCHED_RUNQUEUE_H

#include <stdbool.h>
#include <stdint.h>

struct runqueue_entry {
	struct runqueue_entry *next;
	struct runqueue_entry *previous;
	uint64_t allowed_harts; /* bit i = may run on hart index i */
	bool queued;
};

struct runqueue {
	struct runqueue_entry *first;
	struct runqueue_entry *last;
	int count;
};

void runqueue_init(struct runqueue *queue);
void runqueue_push_back(struct runqueue *queue, struct runqueue_entry *entry);
/* NULL when empty. */
struct runqueue_entry *runqueue_pop_front(struct runqueue *queue);
void runqueue_remove(struct runqueue *queue, struct runqueue_entry *entry);
/* The entry nearest the back that may run on hart `hart_index` (the one that has
 * waited least, so stealing it disturbs the victim's order least); NULL if none. */
struct runqueue_entry *runqueue_find_stealable(const struct runqueue *queue, int hart_index);

#endif
