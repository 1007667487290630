/* The list of every started task and the wait notes, for the task dump (Linux keeps
 * its tasks on init_task.tasks for show_state; wchan is its "waits where"). See
 * task_list.h and sched.h. */
#include "kernel/sched/task_list.h"

#include "kernel/mm/page.h"
#include "kernel/sched/sched.h"
#include "kernel/sync/spinlock.h"

/* Guards the links and freed_waiter. Taken inside process_lock by the task dump
 * (kernel/proc), and by task_start, which process.c calls without it; never with a
 * scheduler lock held. task_list_release takes the page allocator's lock and, to wake the
 * waiter, a hart's scheduler lock inside it. */
static struct spinlock task_list_lock = SPINLOCK_INIT("task list");
static struct task *first_task;

void task_list_add(struct task *task)
{
	spin_lock(&task_list_lock);
	task->all_previous = 0;
	task->all_next = first_task;
	if (first_task)
		first_task->all_previous = task;
	first_task = task;
	spin_unlock(&task_list_lock);
}

void task_list_release(struct task *task)
{
	spin_lock(&task_list_lock);
	if (task->all_previous)
		task->all_previous->all_next = task->all_next;
	else if (first_task == task)
		first_task = task->all_next;
	if (task->all_next)
		task->all_next->all_previous = task->all_previous;
	task->all_next = task->all_previous = 0;
	page_free_pages(task->stack, task->stack_size / PAGE_SIZE);
	task->stack = 0;
	/* Under the lock: the waiter cannot see the task gone, return and be freed before
	 * this wake reaches it. */
	if (task->freed_waiter)
		sched_wake(task->freed_waiter);
	spin_unlock(&task_list_lock);
}

void sched_wait_task_freed(int task_id)
{
	struct task *self = sched_current();
	for (;;) {
		sched_prepare_park();
		struct task *task;
		spin_lock(&task_list_lock);
		for (task = first_task; task && task->id != task_id; task = task->all_next)
			;
		if (task)
			task->freed_waiter = self;
		spin_unlock(&task_list_lock);
		if (!task)
			break;
		sched_park();
	}
}

int sched_visit_tasks(void (*visit)(struct task *task, void *argument), void *argument)
{
	int visited = 0;
	spin_lock(&task_list_lock);
	for (struct task *task = first_task; task; task = task->all_next) {
		visit(task, argument);
		visited++;
	}
	spin_unlock(&task_list_lock);
	return visited;
}

void sched_note_wait(const char *what, const void *object, uint64_t deadline_ns)
{
	struct task *task = sched_current();
	task->waiting_on = object;
	task->waiting_deadline_ns = deadline_ns;
	__atomic_store_n(&task->waiting_for, what, __ATOMIC_RELEASE);
}

void sched_note_wait_done(void)
{
	__atomic_store_n(&sched_current()->waiting_for, (const char *)0, __ATOMIC_RELEASE);
}
