/* Poll tables over wait queues; see poll_table.h. */
#include "kernel/waker/poll_table.h"

void poll_table_init(struct poll_table *table)
{
	table->count = 0;
	table->recheck_ns = 0;
}

void poll_table_wait(struct poll_table *table, struct wait_queue *queue)
{
	if (!table)
		return;
	for (int i = 0; i < table->count; i++) {
		if (table->slots[i].queue == queue)
			return;
	}
	if (table->count == POLL_TABLE_ENTRIES) {
		poll_table_recheck_after(table, POLL_TABLE_OVERFLOW_NS);
		return;
	}
	int slot = table->count++;
	table->slots[slot].queue = queue;
	waker_init(&table->slots[slot].entry.waker);
	wait_queue_add(queue, &table->slots[slot].entry);
}

void poll_table_recheck_after(struct poll_table *table, uint64_t period_ns)
{
	if (table && (table->recheck_ns == 0 || period_ns < table->recheck_ns))
		table->recheck_ns = period_ns;
}

void poll_table_release(struct poll_table *table)
{
	for (int i = 0; i < table->count; i++)
		wait_queue_remove(table->slots[i].queue, &table->slots[i].entry);
	table->count = 0;
}
