/* Inside kernel/sched: the list of every started task, which sched.c keeps up to date
 * (task_start and sched_init_hart link, finish_switch unlinks a dead task and gives its
 * stack back) and sched_visit_tasks and sched_wait_task_freed walk. Not for use outside
 * this folder. */
#ifndef DUPLEX_SCHED_TASK_LIST_H
#define DUPLEX_SCHED_TASK_LIST_H

#include "kernel/sched/task.h"

/* Link a task that is about to run for the first time. Any context; takes the list's
 * spinlock. */
void task_list_add(struct task *task);
/* finish_switch, for a dead task no hart runs on any more: unlink it, give its stack
 * back and wake its freed_waiter, all under the list's spinlock, so that a waiter that
 * finds it gone finds its pages back too. The caller frees the task itself. Any
 * context, never sleeps. */
void task_list_release(struct task *task);

#endif
