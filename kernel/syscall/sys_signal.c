/* rt_sigaction and rt_sigprocmask: accepted with Linux's checks and errno values, and
 * remembered (a later call reads back what an earlier one set), but Duplex delivers no
 * signal to a handler. What signals do here: a fault in U-mode kills the program with
 * SIGSEGV, SIGILL or SIGBUS in its wait status, whatever handler it installed or mask it
 * set (kernel/proc/process.c); nothing else sends signals (there is no kill). */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"

#define SIGSTOP 19
/* The kernel's sigset_t is 64 bits on riscv64 (asm-generic/signal.h). */
#define SIGSET_SIZE 8
/* rt_sigprocmask's `how` (asm-generic/signal-defs.h). */
#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* SIGKILL and SIGSTOP can be neither caught nor blocked. */
static uint64_t unblockable(void)
{
	return (1ull << (SIGKILL - 1)) | (1ull << (SIGSTOP - 1));
}

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
		wanted.mask &= ~unblockable();
		*slot = wanted;
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
		if (how == SIG_BLOCK)
			process->signal_mask |= mask;
		else if (how == SIG_UNBLOCK)
			process->signal_mask &= ~mask;
		else
			process->signal_mask = mask;
		process->signal_mask &= ~unblockable();
	}
	return 0;
}
