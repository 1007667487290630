/* Host unit tests for the scheduler's run queue (kernel/sched/runqueue.c). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel/sched/runqueue.h"

static struct runqueue_entry entries[8];

static void setup(struct runqueue *queue, int count)
{
	runqueue_init(queue);
	memset(entries, 0, sizeof entries);
	for (int i = 0; i < count; i++) {
		entries[i].allowed_harts = ~0ull;
		runqueue_push_back(queue, &entries[i]);
	}
}

static void test_fifo_order(void)
{
	struct runqueue queue;
	setup(&queue, 5);
	CHECK_EQ_U64(queue.count, 5);
	for (int i = 0; i < 5; i++) {
		struct runqueue_entry *entry = runqueue_pop_front(&queue);
		CHECK(entry == &entries[i]);
		CHECK(!entry->queued);
	}
	CHECK(runqueue_pop_front(&queue) == NULL);
	CHECK_EQ_U64(queue.count, 0);
	CHECK(queue.first == NULL && queue.last == NULL);
}

static void test_remove_anywhere(void)
{
	struct runqueue queue;
	setup(&queue, 4);
	runqueue_remove(&queue, &entries[2]); /* middle */
	runqueue_remove(&queue, &entries[0]); /* front */
	runqueue_remove(&queue, &entries[3]); /* back */
	CHECK_EQ_U64(queue.count, 1);
	CHECK(queue.first == &entries[1] && queue.last == &entries[1]);
	runqueue_push_back(&queue, &entries[0]);
	CHECK(runqueue_pop_front(&queue) == &entries[1]);
	CHECK(runqueue_pop_front(&queue) == &entries[0]);
	CHECK(runqueue_pop_front(&queue) == NULL);
}

static void test_stealable_respects_affinity(void)
{
	struct runqueue queue;
	setup(&queue, 4);
	entries[0].allowed_harts = 1ull << 2;
	entries[1].allowed_harts = 1ull << 1;
	entries[2].allowed_harts = 1ull << 2;
	entries[3].allowed_harts = 1ull << 0;
	/* The one nearest the back that hart 2 may run. */
	CHECK(runqueue_find_stealable(&queue, 2) == &entries[2]);
	CHECK(runqueue_find_stealable(&queue, 1) == &entries[1]);
	CHECK(runqueue_find_stealable(&queue, 3) == NULL);
	runqueue_init(&queue);
	CHECK(runqueue_find_stealable(&queue, 0) == NULL);
}

static void test_random_against_model(void)
{
	/* Random pushes/pops/removes cross-checked against an array model. */
	struct runqueue queue;
	int model[8], length = 0;
	bool in_queue[8] = {0};
	runqueue_init(&queue);
	memset(entries, 0, sizeof entries);
	srand(12345);
	for (int step = 0; step < 100000; step++) {
		int op = rand() % 3, which = rand() % 8;
		if (op == 0 && !in_queue[which]) {
			runqueue_push_back(&queue, &entries[which]);
			model[length++] = which;
			in_queue[which] = true;
		} else if (op == 1) {
			struct runqueue_entry *entry = runqueue_pop_front(&queue);
			if (length == 0) {
				CHECK(entry == NULL);
			} else {
				CHECK(entry == &entries[model[0]]);
				in_queue[model[0]] = false;
				memmove(model, model + 1, sizeof(int) * (size_t)--length);
			}
		} else if (op == 2 && in_queue[which]) {
			runqueue_remove(&queue, &entries[which]);
			int at = 0;
			while (model[at] != which)
				at++;
			memmove(model + at, model + at + 1,
			        sizeof(int) * (size_t)(length - at - 1));
			length--;
			in_queue[which] = false;
		}
		CHECK_EQ_U64(queue.count, length);
		if (check_current_failed)
			return;
	}
}

int main(void)
{
	RUN(test_fifo_order);
	RUN(test_remove_anywhere);
	RUN(test_stealable_respects_affinity);
	RUN(test_random_against_model);
	return check_summary();
}
