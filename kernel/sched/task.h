/* Kernel tasks: a stack, saved registers and a scheduling state. User programs (a
 * later layer) are tasks that also own an address space. */
#ifndef DUPLEX_SCHED_TASK_H
#define DUPLEX_SCHED_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/fpu/fpu_state.h"
#include "kernel/sched/runqueue.h"

/* Callee-saved registers kept across switch_context (switch.S keeps the offsets). */
struct task_context {
	uint64_t ra;
	uint64_t sp;
	uint64_t s[12];
};

enum task_state {
	TASK_RUNNING,  /* on a hart right now */
	TASK_RUNNABLE, /* in a run queue */
	TASK_BLOCKED,  /* parked until woken */
	TASK_DEAD,     /* exited; freed by the next task on its hart */
};

#define TASK_NAME_MAX 16
#define ALL_HARTS     (~0ull)

struct task {
	struct task_context context; /* must stay first: switch.S uses offset 0 */
	struct runqueue_entry run;   /* must stay second: runqueue entries map back to tasks */
	volatile int state;          /* enum task_state; under the hart's scheduler lock */
	volatile int wake_pending;   /* a wake-up arrived while the task was not parked */
	/* A signal the task does not block is pending, or other signal work waits for the
	 * return to user mode (Linux's TIF_SIGPENDING). Set by kernel/signal (and by
	 * sched_signal_wake); interruptible waits stop when it is set. */
	volatile int signal_pending;
	int hart_index;              /* the hart it runs, is queued or last ran on */
	int id;
	char name[TASK_NAME_MAX];
	void (*entry)(void *argument);
	void *argument;
	void *stack;
	size_t stack_size;
	uint64_t satp;        /* page table to run with (the kernel's, or a program's) */
	void *owner;          /* the process a user task belongs to, NULL for kernel tasks */
	uint64_t switches_in; /* times scheduled onto a hart */
	uint64_t migrations;  /* times moved to another hart */
	/* CPU time: completed turns on a hart, and when the current turn began (both
	 * written by switch_to on the hart the task leaves or enters, under its lock). */
	uint64_t cpu_ns;
	uint64_t running_since_ns;
	struct fpu_state fpu; /* a user task's floating-point registers (kernel/fpu/fpu.h) */
	/* The list of every started task (kernel/sched/task_list.c), for the task dump. */
	struct task *all_next;
	struct task *all_previous;
	/* The task waiting in sched_wait_task_freed for this one's stack to be given back
	 * (its reaper), or NULL; under the list's lock. */
	struct task *freed_waiter;
	/* What the task waits for, as the waiting code said (sched_note_wait): a name (a
	 * wait queue's, "sleep", "poll"), the object, a deadline (0: none); NULL when it
	 * said nothing. Where it last parked (the caller of sched_park) and when. Written by
	 * the task itself, read racily by the task dump: a diagnostic, never a decision. */
	const char *waiting_for;
	const void *waiting_on;
	uint64_t waiting_deadline_ns;
	uint64_t park_site;
	uint64_t parked_since_ns;
};

#endif
