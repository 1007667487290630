/* Inside kernel/sched: the list of every started task, which sched.c keeps up to date
 * (task_start and sched_init_hart link, finish_switch unlinks a dead task before freeing
 * it) and sched_visit_tasks walks. Not for use outside this folder. */
#ifndef DUPLEX_SCHED_TASK_LIST_H
#define DUPLEX_SCHED_TASK_LIST_H

#include "kernel/sched/task.h"

/* Link a task that is about to run for the first time / unlink a dead one before its
 * memory is freed. Any context; take the list's spinlock. */
void task_list_add(struct task *task);
void task_list_remove(struct task *task);

#endif
