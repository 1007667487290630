/* Sending, masking and dequeuing signals: the pending set and its lock; see signal.h
 * and deliver.h. Linux kernel/signal.c (send_signal_locked, recalc_sigpending,
 * dequeue_signal) is the model, for one thread per process and the standard (not
 * queued) semantics for every signal: a signal already pending is not queued again. */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/proc/terminal.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/deliver.h"
#include "kernel/signal/signal.h"
#include "uapi/signal_frame.h"

/* The default actions (Linux kernel/signal.c, the table above sig_kernel_ignore). */
#define DEFAULT_IGNORE                                                                             \
	(SIGNAL_BIT(SIGCHLD) | SIGNAL_BIT(SIGURG) | SIGNAL_BIT(SIGWINCH) | SIGNAL_BIT(SIGCONT))
#define DEFAULT_STOP                                                                               \
	(SIGNAL_BIT(SIGSTOP) | SIGNAL_BIT(SIGTSTP) | SIGNAL_BIT(SIGTTIN) | SIGNAL_BIT(SIGTTOU))
/* Synchronous signals (faults) are taken before the others, as Linux's dequeue does. */
#define SYNCHRONOUS                                                                                \
	(SIGNAL_BIT(SIGSEGV) | SIGNAL_BIT(SIGBUS) | SIGNAL_BIT(SIGILL) | SIGNAL_BIT(SIGTRAP) |     \
	 SIGNAL_BIT(SIGFPE) | SIGNAL_BIT(SIGSYS))

bool signal_default_ignores(int signal)
{
	return signal > 0 && signal <= SIGNAL_COUNT && (DEFAULT_IGNORE & SIGNAL_BIT(signal));
}

bool signal_default_stops(int signal)
{
	return signal > 0 && signal <= SIGNAL_COUNT && (DEFAULT_STOP & SIGNAL_BIT(signal));
}

/* Whether `process` would throw `signal` away on delivery. Init's default actions
 * are all "ignore" (Linux sig_task_ignored with SIGNAL_UNKILLABLE). */
static bool ignored(const struct process *process, int signal)
{
	uint64_t handler = process->signal_actions[signal - 1].handler;
	return handler == SIG_IGN ||
	       (handler == SIG_DFL && (signal_default_ignores(signal) || process->pid == 1));
}

/* Recompute the task's signal work. Caller holds the signal lock and is the process's
 * own task (a sender only ever sets the flag). */
static void recalculate(struct process *process)
{
	struct signal_state *state = &process->signals;
	bool work = (state->pending & ~process->signal_mask) || state->sigreturn_requested;
	if (process->task)
		__atomic_store_n(&process->task->signal_pending, work, __ATOMIC_RELAXED);
}

int signal_send_info(struct process *process, int signal, const struct signal_info *info)
{
	if (signal < 1 || signal > SIGNAL_COUNT)
		return -EINVAL;
	struct signal_state *state = &process->signals;
	uint64_t bit = SIGNAL_BIT(signal);
	bool deliverable = false, resume = false;

	spin_lock(&state->lock);
	if (process->state == PROCESS_ZOMBIE) {
		spin_unlock(&state->lock);
		return 0;
	}
	/* SIGCONT cancels pending stops and resumes; a stop cancels a pending SIGCONT
	 * (Linux prepare_signal). */
	if (signal == SIGCONT) {
		state->pending &= ~DEFAULT_STOP;
		resume = state->stopped;
		state->stopped = false;
	} else if (DEFAULT_STOP & bit) {
		state->pending &= ~SIGNAL_BIT(SIGCONT);
	}
	if (((process->signal_mask | state->waited_for) & bit) || !ignored(process, signal)) {
		if (!(state->pending & bit)) {
			state->pending |= bit;
			state->info[signal - 1] = *info;
		}
		deliverable = (state->pending & ~process->signal_mask) != 0;
		resume |= signal == SIGKILL && state->stopped;
	}
	spin_unlock(&state->lock);
	/* The task stays valid: the caller keeps the process, and a live process's task
	 * lives as long as it (process_exit marks it a zombie before the task ends). */
	if (deliverable)
		sched_signal_wake(process->task);
	else if (resume)
		sched_wake(process->task);
	return 0;
}

int signal_send(struct process *process, int signal)
{
	struct signal_info info = {.code = SI_KERNEL};
	return signal_send_info(process, signal, &info);
}

int signal_send_current(int signal)
{
	struct signal_info info = {.code = SI_KERNEL};
	return signal_send_info(process_current(), signal, &info);
}

int signal_send_foreground(int signal)
{
	if (signal < 1 || signal > SIGNAL_COUNT)
		return 0;
	return terminal_signal_foreground(signal);
}

bool signal_ignored_or_blocked(const struct process *process, int signal)
{
	return (process->signal_mask & SIGNAL_BIT(signal)) ||
	       process->signal_actions[signal - 1].handler == SIG_IGN;
}

bool signal_stop_notices_wanted(const struct process *parent)
{
	return !(parent->signal_actions[SIGCHLD - 1].flags & SA_NOCLDSTOP);
}

void signal_cancel_stop(struct process *process)
{
	struct signal_state *state = &process->signals;
	spin_lock(&state->lock);
	state->stopped = false;
	spin_unlock(&state->lock);
}

void signal_set_blocked(struct process *process, uint64_t blocked)
{
	struct signal_state *state = &process->signals;
	spin_lock(&state->lock);
	process->signal_mask = blocked & ~SIGNAL_UNBLOCKABLE;
	recalculate(process);
	spin_unlock(&state->lock);
}

int signal_dequeue(struct process *process, uint64_t set, struct signal_info *info)
{
	return signal_dequeue_to_deliver(process, set, info, false);
}

int signal_dequeue_to_deliver(struct process *process, uint64_t set, struct signal_info *info,
                              bool stop_now)
{
	struct signal_state *state = &process->signals;
	spin_lock(&state->lock);
	uint64_t candidates = state->pending & set;
	if (candidates & SYNCHRONOUS)
		candidates &= SYNCHRONOUS;
	int signal = 0;
	if (candidates) {
		signal = 1;
		while (!(candidates & SIGNAL_BIT(signal))) /* no Zbb, no libgcc: count by hand */
			signal++;
		state->pending &= ~SIGNAL_BIT(signal);
		*info = state->info[signal - 1];
		/* Stopped under the same lock that took the signal, so a SIGCONT sent from now
		 * on finds the process stopped and resumes it. */
		if (stop_now && process->signal_actions[signal - 1].handler == SIG_DFL &&
		    (DEFAULT_STOP & SIGNAL_BIT(signal)))
			state->stopped = true;
	}
	recalculate(process);
	spin_unlock(&state->lock);
	return signal;
}

uint64_t signal_pending_set(struct process *process)
{
	struct signal_state *state = &process->signals;
	spin_lock(&state->lock);
	uint64_t pending = state->pending;
	spin_unlock(&state->lock);
	return pending;
}

void signal_action_changed(struct process *process, int signal)
{
	struct signal_state *state = &process->signals;
	spin_lock(&state->lock);
	if (ignored(process, signal))
		state->pending &= ~SIGNAL_BIT(signal);
	recalculate(process);
	spin_unlock(&state->lock);
}

void signal_fork(struct process *child, const struct process *parent)
{
	for (int i = 0; i < SIGNAL_COUNT; i++)
		child->signal_actions[i] = parent->signal_actions[i];
	child->signal_mask = parent->signal_mask;
	struct signal_state *state = &child->signals;
	state->pending = 0;
	state->waited_for = 0;
	state->stopped = false;
	state->restore_saved_mask = false;
	state->sigreturn_requested = false;
	state->alternate_stack = parent->signals.alternate_stack;
	state->alternate_stack_size = parent->signals.alternate_stack_size;
	state->alternate_stack_autodisarm = parent->signals.alternate_stack_autodisarm;
}

void signal_exec(struct process *process)
{
	struct signal_state *state = &process->signals;
	for (int i = 0; i < SIGNAL_COUNT; i++) {
		struct linux_sigaction *action = &process->signal_actions[i];
		if (action->handler != SIG_IGN)
			action->handler = SIG_DFL;
		action->flags = 0;
		action->mask = 0;
	}
	spin_lock(&state->lock);
	state->alternate_stack = 0;
	state->alternate_stack_size = 0;
	state->alternate_stack_autodisarm = false;
	state->restore_saved_mask = false;
	state->sigreturn_requested = false;
	recalculate(process);
	spin_unlock(&state->lock);
}

void signal_fill_siginfo(struct linux_siginfo *siginfo, int signal, const struct signal_info *info)
{
	*siginfo = (struct linux_siginfo){.signo = signal, .code = info->code};
	if (signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGTRAP ||
	    signal == SIGFPE) {
		if (info->code > 0) {
			siginfo->fields.address = info->address;
			return;
		}
	}
	siginfo->fields.process.pid = info->pid;
	siginfo->fields.process.uid = info->uid;
	siginfo->fields.process.status = info->status;
}

const char *signal_name(int signal)
{
	static const char *const names[32] = {
	    "signal 0", "SIGHUP",  "SIGINT",    "SIGQUIT", "SIGILL",  "SIGTRAP",   "SIGABRT",
	    "SIGBUS",   "SIGFPE",  "SIGKILL",   "SIGUSR1", "SIGSEGV", "SIGUSR2",   "SIGPIPE",
	    "SIGALRM",  "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP",   "SIGTSTP",
	    "SIGTTIN",  "SIGTTOU", "SIGURG",    "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF",
	    "SIGWINCH", "SIGIO",   "SIGPWR",    "SIGSYS",
	};
	return signal >= 0 && signal < 32 ? names[signal] : "a real-time signal";
}
