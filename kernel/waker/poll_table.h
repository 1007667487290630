/* Poll tables: one task waiting on several wait queues at once (ppoll, pselect6), as
 * Linux's poll_table does in fs/select.c. A file's poll op names the queue its readiness
 * changes on (poll_table_wait); the poller links one waker of its own into each, then
 * parks under the ordinary park protocol, so a wake from any of them ends the park and
 * none is lost. A source with no queue to offer (the polling console backend, which
 * notices input only by looking) asks instead to be looked at again after a while
 * (poll_table_recheck_after).
 *
 *     struct poll_table table;
 *     poll_table_init(&table);        // binds to the calling task
 *     ... each file's poll op: poll_table_wait(&table, &its_queue);
 *     ... park until ready (the caller's loop), then:
 *     poll_table_release(&table);     // unlink everything before the stack frame goes
 *
 * Task context; the table lives on the poller's stack and is touched only by it. */
#ifndef DUPLEX_POLL_TABLE_H
#define DUPLEX_POLL_TABLE_H

#include <stdint.h>

#include "kernel/waker/wait_queue.h"

/* Queues one table can be linked into: a process has at most 32 descriptors, and a pipe
 * end or the console offers one queue each. More (duplicates aside) make the poller look
 * again every POLL_TABLE_OVERFLOW_NS instead. */
#define POLL_TABLE_ENTRIES     32
#define POLL_TABLE_OVERFLOW_NS 1000000

struct poll_table {
	int count;
	uint64_t recheck_ns; /* 0, or the shortest re-look period a source asked for */
	struct {
		struct wait_entry entry;
		struct wait_queue *queue;
	} slots[POLL_TABLE_ENTRIES];
};

/* Task context. */
void poll_table_init(struct poll_table *table);
/* Link the table's task into `queue` (once per queue). Called by file poll ops; `table`
 * may be NULL (a re-check after the first round: already linked). Task context, may be
 * called between sched_prepare_park and sched_park (takes only the queue's spinlock). */
void poll_table_wait(struct poll_table *table, struct wait_queue *queue);
/* A source that cannot wake the poller: look again after at most `period_ns`. */
void poll_table_recheck_after(struct poll_table *table, uint64_t period_ns);
/* Unlink from every queue. Task context, by the task that owns the table. */
void poll_table_release(struct poll_table *table);

#endif
