/* The task dump; see task_dump.h. One log line per task, so that a test (and a person
 * reading a soak log) can find a task by its pid and read its wait on the same line:
 *
 *   sysrq: task 41 pid 17 'fuzz' blocked h1 5.000 s on 'pipe readable' 0x80212340
 *          park 0x8020a1b2 upc 0x1034a sigpnd 0x0 sigblk 0x0 ppid 3
 *
 * (one line in the log). `park` is the kernel address that called sched_park (look it
 * up with addr2line -e build/qemu-virt/kernel.elf), `upc` the user pc at the task's
 * last entry into the kernel (a blocked task's system call). The fields are read
 * without the scheduler's locks: a task that runs meanwhile may show a mix of before
 * and after, as Linux's show_state accepts. */
#include "kernel/proc/task_dump.h"

#include <stdbool.h>
#include <stdint.h>

#include "kernel/hart/hart.h"
#include "kernel/lib/format.h"
#include "kernel/log/log.h"
#include "kernel/proc/process.h"
#include "kernel/proc/process_list.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/timer/clock.h"
#include "kernel/trap/trap.h"

#define NS_PER_MS 1000000ull

struct dump {
	bool blocked_only;
	uint64_t now_ns;
	int shown;
};

static const char *state_name(int state)
{
	switch (state) {
	case TASK_RUNNING:
		return "running";
	case TASK_RUNNABLE:
		return "runnable";
	case TASK_BLOCKED:
		return "blocked";
	case TASK_DEAD:
		return "dead";
	}
	return "?";
}

/* The process whose task this is, if it is still on the process list (a dead task's
 * owner may already have been reaped and freed). Caller holds process_lock. */
static struct process *process_of(const struct task *task)
{
	for (struct process *process = all_processes; process; process = process->next)
		if (process->task == task)
			return process;
	return 0;
}

/* "1.234 s" for a duration in ns, into `out`. */
static void seconds(char *out, size_t size, uint64_t ns)
{
	format_buffer(out, size, "%llu.%03llu s", (unsigned long long)(ns / 1000000000ull),
	              (unsigned long long)(ns / NS_PER_MS % 1000));
}

/* sched_visit_tasks' callback: print one task's line. Caller holds process_lock and
 * the task list's lock. */
static void dump_task(struct task *task, void *argument)
{
	struct dump *dump = argument;
	int state = __atomic_load_n(&task->state, __ATOMIC_RELAXED);
	if (dump->blocked_only && state != TASK_BLOCKED)
		return;
	dump->shown++;

	char wait[112] = "";
	const char *what = __atomic_load_n(&task->waiting_for, __ATOMIC_ACQUIRE);
	if (state == TASK_BLOCKED) {
		char since[24], until[32] = "";
		seconds(since, sizeof since, dump->now_ns - task->parked_since_ns);
		uint64_t deadline = task->waiting_deadline_ns;
		if (what && deadline) {
			char left[24];
			seconds(left, sizeof left,
			        deadline > dump->now_ns ? deadline - dump->now_ns : 0);
			format_buffer(until, sizeof until, " until +%s", left);
		}
		format_buffer(wait, sizeof wait, " %s on '%s' %p%s park %p", since,
		              what ? what : "(unnamed)", what ? task->waiting_on : 0, until,
		              (void *)task->park_site);
	}
	char user[96] = "";
	struct process *process = task->owner ? process_of(task) : 0;
	if (process) {
		const struct trap_frame *frame =
		    (const struct trap_frame *)((uint8_t *)task->stack + task->stack_size) - 1;
		format_buffer(user, sizeof user, " upc %p sigpnd %#llx sigblk %#llx ppid %d%s",
		              (void *)frame->regs[0], (unsigned long long)process->signals.pending,
		              (unsigned long long)process->signal_mask,
		              process->parent ? process->parent->pid : 0,
		              process->state == PROCESS_ZOMBIE ? " zombie" : "");
	}
	/* A process's name, which execve changes; a task's stays the one fork gave it. */
	log_printf("sysrq: task %d pid %d '%s' %s h%d%s%s\n", task->id, process ? process->pid : 0,
	           process ? process->name : task->name, state_name(state), task->hart_index, wait,
	           user);
}

static void dump_tasks(bool blocked_only)
{
	struct dump dump = {blocked_only, clock_now_ns(), 0};
	log_printf("sysrq: %s at %llu ms\n", blocked_only ? "blocked tasks" : "all tasks",
	           (unsigned long long)(dump.now_ns / NS_PER_MS));
	spin_lock(&process_lock);
	int visited = sched_visit_tasks(dump_task, &dump);
	spin_unlock(&process_lock);
	for (int index = 0; index < hart_count(); index++) {
		struct task *running = sched_running_task(index);
		if (running)
			log_printf("sysrq: hart %d runs task %d '%s'\n", index, running->id,
			           running->name);
		else
			log_printf("sysrq: hart %d offline\n", index);
	}
	log_printf("sysrq: end (%d of %d tasks shown)\n", dump.shown, visited);
}

void task_dump_all(void)
{
	dump_tasks(false);
}

void task_dump_blocked(void)
{
	dump_tasks(true);
}
