/* The scheduler: preemptive, one run queue per hart, optional CPU affinity, idle harts
 * steal runnable work, wake-ups go to an idle allowed hart when there is one.
 *
 * Parking and waking (the waker primitive in kernel/waker builds on these): a task
 * that waits for a condition does
 *
 *     for (;;) {
 *             sched_prepare_park();
 *             if (condition)
 *                     break;
 *             sched_park();
 *     }
 *
 * and whoever makes the condition true calls sched_wake(task) afterwards, from any
 * context on any hart. A wake that lands between the check and sched_park() makes
 * sched_park() return at once, so no wake-up is lost. Spurious returns are allowed;
 * the loop re-checks. */
#ifndef DUPLEX_SCHED_H
#define DUPLEX_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/hart/hart.h"
#include "kernel/sched/task.h"

/* Length of a time slice when other tasks wait on the same hart. */
#define SCHED_SLICE_NS 10000000ull

/* Called once per hart, after timers_init_hart, with interrupts masked: the code
 * running now becomes that hart's idle task. */
void sched_init_hart(void);
/* Called last by boot code on every hart: enables interrupts and runs the idle loop. */
void sched_idle_loop(void) __attribute__((noreturn));

/* Create a runnable kernel task. `allowed_harts` is a mask of hart indexes
 * (ALL_HARTS for any). May be called from any task; returns NULL when out of memory. */
struct task *task_create(const char *name, void (*entry)(void *argument), void *argument,
                         uint64_t allowed_harts);
/* task_create in two steps, for callers that must finish setting up the task (its
 * satp, its owner) before it can run. */
struct task *task_allocate(const char *name, void (*entry)(void *argument), void *argument,
                           uint64_t allowed_harts);
void task_start(struct task *task);
/* Switch the calling task to another page table (0: the kernel's), now and whenever
 * it is scheduled. */
void task_set_satp(uint64_t satp);

/* End the calling task; its stack is freed by the next task to run on its hart. */
void task_exit(void) __attribute__((noreturn));
/* Park until the task with id `task_id` has ended and its stack is given back (at once
 * if no such task exists). One waiter per task: its reaper (process_wait, for a zombie
 * whose task may still be switching away on another hart). Task context; sleeps, not
 * interruptibly (the wait is the dead task's last switch); takes no lock of the
 * caller's. */
void sched_wait_task_freed(int task_id);

/* The running task. Any context. Inline (every system call asks, through
 * process_current): one load relative to tp, so an interrupt, and so a move to another
 * hart, can come before or after it but not between finding this hart and reading its
 * task. */
static inline struct task *sched_current(void)
{
	struct task *task;
	__asm__ volatile("ld %0, %1(tp)" : "=r"(task) : "i"(offsetof(struct hart, current_task)));
	return task;
}
/* Name of the running task, or NULL before the scheduler is up. Any context. */
const char *sched_current_name(void);

/* Let other runnable tasks on this hart run. Task context, may switch. */
void sched_yield(void);
/* See the protocol above. Task context; sched_park may sleep. */
void sched_prepare_park(void);
void sched_park(void);
/* Make a parked task runnable (or mark a wake pending). Any context, any hart. */
void sched_wake(struct task *task);
/* Called on the way out of an interrupt that interrupted preemptible code. */
void sched_preempt_point(void);

/* Interruptible waits (Linux's TASK_INTERRUPTIBLE, in the park protocol's terms). The
 * signal layer calls sched_signal_wake after making a signal pending that `task` does
 * not block: it sets task->signal_pending, wakes the task if it is parked, and if it
 * runs in U-mode on another hart sends that hart an IPI, so that its return to user
 * mode (kernel/signal/deliver.c) comes now rather than at the next slice tick. Any
 * context, any hart. An interruptible wait adds `sched_signal_pending()` to its
 * condition and returns -ERESTARTSYS (kernel/lib/errno.h) when that ended it; wakers
 * (WAIT_UNTIL_INTERRUPTIBLE), wait queues (wait_queue_wait_interruptible) and timed
 * sleep (sleep_until_interruptible) do so already. */
void sched_signal_wake(struct task *task);

/* True if the running task has signal work (see sched_signal_wake). Task context. */
static inline bool sched_signal_pending(void)
{
	return __atomic_load_n(&sched_current()->signal_pending, __ATOMIC_RELAXED) != 0;
}

/* Restrict the calling task to `allowed_harts` and move it if it is on a hart outside
 * the mask. Returns 0, or -1 (nothing changed) if the mask names no online hart. */
int sched_set_affinity(uint64_t allowed_harts);
uint64_t sched_get_affinity(void);

/* Busy and idle nanoseconds of a hart since it came online. Any context. */
void sched_hart_times(int hart_index, uint64_t *busy_ns, uint64_t *idle_ns);

/* The calling task's CPU time in ns: every turn it had on a hart, including the current
 * one up to now (interrupts taken meanwhile count to it, as on Linux without
 * IRQ_TIME_ACCOUNTING). Never decreases. Task context (clock_gettime's CPU-time clocks);
 * takes no lock: only switch_to writes these fields, and not while the task runs. */
uint64_t sched_current_cpu_ns(void);

struct sched_hart_stats {
	uint64_t context_switches;
	uint64_t steals;
	uint64_t wakeups; /* tasks made runnable on this hart by sched_wake */
};
void sched_hart_stats(int hart_index, struct sched_hart_stats *stats);
/* For the task dump: the calling task is about to wait for `what` (a static string: a
 * wait queue's name, "sleep", "poll"), on `object` (or NULL), until `deadline_ns`
 * (clock_now_ns time, 0: none); sched_note_wait_done once the wait is over. Task
 * context; no lock (only the task writes these, the dump reads them racily). */
void sched_note_wait(const char *what, const void *object, uint64_t deadline_ns);
void sched_note_wait_done(void);
/* Call visit(task, argument) for every started task that has not been freed, idle
 * tasks included, under the task list's spinlock (so each stays allocated meanwhile:
 * visit must not sleep or start or end a task). Returns how many it visited. Any
 * context; the task dump (kernel/proc/task_dump.c) is its caller. */
int sched_visit_tasks(void (*visit)(struct task *task, void *argument), void *argument);
/* The task running on hart `hart_index` now (its idle task when idle), or NULL for a
 * hart not online. Any context; a racy read, for the task dump. */
struct task *sched_running_task(int hart_index);

#endif
