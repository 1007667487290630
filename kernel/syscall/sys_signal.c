/* The signal system calls: rt_sigaction, rt_sigprocmask, rt_sigreturn, rt_sigsuspend,
 * rt_sigpending, rt_sigtimedwait, sigaltstack, with Linux's checks, errno values and
 * order of checks (kernel/signal.c). Delivery itself is kernel/signal/deliver.c; kill,
 * tkill and tgkill are sys_kill.c. */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/sleep.h"
#include "kernel/signal/deliver.h"
#include "kernel/syscall/syscall.h"
#include "kernel/timer/clock.h"
#include "kernel/waker/waker.h"
#include "uapi/signal_frame.h"
#include "uapi/time.h"

#define NS_PER_SECOND 1000000000ll

long sys_rt_sigaction(uint64_t signal, uint64_t action, uint64_t old_action, uint64_t set_size,
                      uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	if (set_size != SIGSET_SIZE || signal < 1 || signal > LINUX_NSIG)
		return -EINVAL;
	if (action && (signal == SIGKILL || signal == SIGSTOP))
		return -EINVAL;
	struct linux_sigaction wanted;
	if (action && copy_from_user(&process->space, &wanted, action, sizeof wanted) != 0)
		return -EFAULT;
	struct linux_sigaction *slot = &process->signal_actions[signal - 1];
	if (old_action && copy_to_user(&process->space, old_action, slot, sizeof *slot) != 0)
		return -EFAULT;
	if (action) {
		wanted.mask &= ~SIGNAL_UNBLOCKABLE;
		*slot = wanted;
		signal_action_changed(process, (int)signal);
	}
	return 0;
}

long sys_rt_sigprocmask(uint64_t how, uint64_t set, uint64_t old_set, uint64_t set_size,
                        uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	if (set_size != SIGSET_SIZE)
		return -EINVAL;
	uint64_t mask = 0;
	/* Linux's order (kernel/signal.c): the new set is read before `how` is looked at,
	 * so a bad pointer is -EFAULT whatever `how` says. */
	if (set) {
		if (copy_from_user(&process->space, &mask, set, sizeof mask) != 0)
			return -EFAULT;
		if (how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
			return -EINVAL;
	}
	if (old_set && copy_to_user(&process->space, old_set, &process->signal_mask,
	                            sizeof process->signal_mask) != 0)
		return -EFAULT;
	if (set) {
		uint64_t blocked = process->signal_mask;
		if (how == SIG_BLOCK)
			blocked |= mask;
		else if (how == SIG_UNBLOCK)
			blocked &= ~mask;
		else
			blocked = mask;
		/* An unblocked pending signal is delivered on this call's way out. */
		signal_set_blocked(process, blocked);
	}
	return 0;
}

long sys_rt_sigreturn(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	/* The frame is read on the way out (signal_return_to_user), where the whole
	 * register file, s1..s11 included, is in the trap frame to be replaced. */
	process_current()->signals.sigreturn_requested = true;
	__atomic_store_n(&sched_current()->signal_pending, 1, __ATOMIC_RELAXED);
	return 0;
}

long sys_rt_sigsuspend(uint64_t set, uint64_t set_size, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	if (set_size != SIGSET_SIZE)
		return -EINVAL;
	uint64_t mask;
	if (copy_from_user(&process->space, &mask, set, sizeof mask) != 0)
		return -EFAULT;
	process->signals.saved_mask = process->signal_mask;
	process->signals.restore_saved_mask = true;
	signal_set_blocked(process, mask);
	sched_note_wait("sigsuspend", 0, 0);
	WAIT_UNTIL(sched_signal_pending());
	sched_note_wait_done();
	/* A handler runs (the frame carries the old mask), then this is -EINTR. */
	return -ERESTARTNOHAND;
}

long sys_rt_sigpending(uint64_t set, uint64_t set_size, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	if (set_size > SIGSET_SIZE)
		return -EINVAL;
	uint64_t pending = signal_pending_set(process) & process->signal_mask;
	if (copy_to_user(&process->space, set, &pending, set_size) != 0)
		return -EFAULT;
	return 0;
}

long sys_rt_sigtimedwait(uint64_t set, uint64_t info, uint64_t timeout, uint64_t set_size,
                         uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	if (set_size != SIGSET_SIZE)
		return -EINVAL;
	uint64_t wanted;
	if (copy_from_user(&process->space, &wanted, set, sizeof wanted) != 0)
		return -EFAULT;
	wanted &= ~SIGNAL_UNBLOCKABLE;
	uint64_t deadline = ~0ull;
	if (timeout) {
		struct linux_timespec time;
		if (copy_from_user(&process->space, &time, timeout, sizeof time) != 0)
			return -EFAULT;
		if (time.seconds < 0 || time.nanoseconds < 0 || time.nanoseconds >= NS_PER_SECOND)
			return -EINVAL;
		deadline = clock_now_ns() + (uint64_t)time.seconds * NS_PER_SECOND +
		           (uint64_t)time.nanoseconds;
	}
	struct signal_info found;
	int signal = signal_dequeue(process, wanted, &found);
	if (!signal && !(timeout && deadline == clock_now_ns())) {
		/* Wait with the wanted signals unblocked (Linux: real_blocked), so that
		 * their arrival sets our signal work and ends the sleep. */
		uint64_t blocked = process->signal_mask;
		process->signals.waited_for = wanted;
		signal_set_blocked(process, blocked & ~wanted);
		sleep_until_interruptible(deadline);
		signal_set_blocked(process, blocked);
		process->signals.waited_for = 0;
		signal = signal_dequeue(process, wanted, &found);
		if (!signal && clock_now_ns() < deadline)
			return -EINTR; /* another signal, which will be delivered now */
	}
	if (!signal)
		return -EAGAIN;
	if (info) {
		struct linux_siginfo siginfo;
		signal_fill_siginfo(&siginfo, signal, &found);
		if (copy_to_user(&process->space, info, &siginfo, sizeof siginfo) != 0)
			return -EFAULT;
	}
	return signal;
}

long sys_sigaltstack(uint64_t new_stack, uint64_t old_stack, uint64_t a2, uint64_t a3, uint64_t a4,
                     uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct signal_state *state = &process->signals;
	uint64_t sp = signal_user_frame()->regs[2];
	bool on_stack = state->alternate_stack_size &&
	                sp - state->alternate_stack <= state->alternate_stack_size;
	struct linux_stack wanted;
	if (new_stack && copy_from_user(&process->space, &wanted, new_stack, sizeof wanted) != 0)
		return -EFAULT;
	if (old_stack) {
		struct linux_stack old = {
		    .sp = state->alternate_stack,
		    .size = state->alternate_stack_size,
		    .flags = !state->alternate_stack_size ? SS_DISABLE
		             : on_stack                   ? SS_ONSTACK
		                                          : 0,
		};
		if (state->alternate_stack_autodisarm)
			old.flags |= (int32_t)SS_AUTODISARM;
		if (copy_to_user(&process->space, old_stack, &old, sizeof old) != 0)
			return -EFAULT;
	}
	if (!new_stack)
		return 0;
	/* Linux do_sigaltstack: no change while running on it; flags 0, SS_ONSTACK (an old
	 * spelling of 0) or SS_DISABLE, with SS_AUTODISARM; a stack below MINSIGSTKSZ is
	 * -ENOMEM. */
	if (on_stack)
		return -EPERM;
	uint32_t mode = (uint32_t)wanted.flags & ~SS_AUTODISARM;
	if (mode != 0 && mode != SS_ONSTACK && mode != SS_DISABLE)
		return -EINVAL;
	if (mode == SS_DISABLE) {
		state->alternate_stack = 0;
		state->alternate_stack_size = 0;
		state->alternate_stack_autodisarm = false;
		return 0;
	}
	if (wanted.size < MINSIGSTKSZ)
		return -ENOMEM;
	state->alternate_stack = wanted.sp;
	state->alternate_stack_size = wanted.size;
	state->alternate_stack_autodisarm = ((uint32_t)wanted.flags & SS_AUTODISARM) != 0;
	return 0;
}
