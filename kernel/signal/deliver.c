/* Delivering signals on the return to user mode, the signal frame, rt_sigreturn and
 * the default actions; see deliver.h. Linux arch/riscv/kernel/signal.c (setup_rt_frame,
 * restore_sigcontext, arch_do_signal_or_restart) is the model.
 *
 * The return trampoline: riscv has no SA_RESTORER, and Linux points ra at
 * __vdso_rt_sigreturn in its vDSO. Duplex has no vDSO, so it maps one read-only,
 * executable page holding `li a7, 139; ecall` into a process the first time it
 * delivers a signal there (SIGNAL_TRAMPOLINE). Not code on the stack: the stack is not
 * executable, and should not become so for this. Mapped lazily, the page needs nothing
 * from program creation or execve. */
#include "kernel/fpu/fpu.h"
#include "kernel/hart/csr.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/mm/address_space.h"
#include "kernel/mm/page.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/deliver.h"
#include "kernel/waker/waker.h"
#include "uapi/signal_frame.h"

/* One page below the stack's lower guard page. */
#define SIGNAL_TRAMPOLINE (USER_STACK_TOP - USER_STACK_SIZE - 2 * PAGE_SIZE)
/* sstatus.FS (privileged spec 1.12, section 4.1.1). */
#define SSTATUS_FS       (3ul << 13)
#define SSTATUS_FS_DIRTY (3ul << 13)

struct trap_frame *signal_user_frame(void)
{
	struct task *task = sched_current();
	return (struct trap_frame *)((uint8_t *)task->stack + task->stack_size) - 1;
}

/* Map the trampoline if this address space lacks it. False when out of memory. */
static bool trampoline_ready(struct process *process)
{
	if (user_range_ok(&process->space, SIGNAL_TRAMPOLINE, 8, USER_READ))
		return true;
	/* li a7, 139 (addi x17, x0, 139) and ecall: RISC-V unprivileged spec, chapter 2
	 * (I-type encoding, opcode OP-IMM 0x13; ECALL 0x00000073). An ebreak after them
	 * in case the call ever returns. */
	static const uint32_t code[3] = {(139u << 20) | (17u << 7) | 0x13, 0x00000073, 0x00100073};
	if (!address_space_map(&process->space, SIGNAL_TRAMPOLINE, PAGE_SIZE,
	                       USER_READ | USER_EXEC))
		return false;
	address_space_load(&process->space, SIGNAL_TRAMPOLINE, code, sizeof code);
	/* Written through the data side, executed next on this hart. */
	__asm__ volatile("fence.i" ::: "memory");
	return true;
}

static bool on_alternate_stack(const struct signal_state *state, uint64_t sp)
{
	return state->alternate_stack_size &&
	       sp - state->alternate_stack <= state->alternate_stack_size;
}

/* The program's FP registers into the task's fpu_state (they are live in the hart). */
static void fpu_capture(struct task *task, struct trap_frame *frame)
{
	if (!task->fpu.in_use)
		return;
	irq_push_off();
	fpu_switch_out(&task->fpu, frame);
	irq_pop_off();
}

/* Kill the process: the kill report, then exit with `signal` in its wait status. */
static void __attribute__((noreturn))
kill_by(struct process *process, int signal, const char *why, uint64_t address)
{
	log_printf("%s[%d]: killed by %s: %s %#lx\n", process->name, process->pid,
	           signal_name(signal), why, address);
	process_exit(signal);
}

/* The same for a signal's default action: who sent it. */
static void __attribute__((noreturn))
kill_by_signal(struct process *process, int signal, const struct signal_info *info)
{
	log_printf("%s[%d]: killed by %s (signal %d) from pid %d\n", process->name, process->pid,
	           signal_name(signal), signal, info->pid);
	process_exit(signal);
}

/* Enter the handler of `signal`: push the frame and point the registers at it. False if
 * the frame cannot be written (the caller kills with SIGSEGV, as Linux's
 * force_sigsegv). */
static bool push_frame(struct process *process, struct trap_frame *frame, int signal,
                       const struct signal_info *info, struct linux_sigaction *action)
{
	struct signal_state *state = &process->signals;
	struct task *task = sched_current();
	uint64_t sp = frame->regs[2];
	bool on_alternate = on_alternate_stack(state, sp);
	struct linux_rt_sigframe *kernel_frame = (void *)process->io_buffer; /* 1088 of 4096 */

	memset(kernel_frame, 0, sizeof *kernel_frame);
	signal_fill_siginfo(&kernel_frame->info, signal, info);
	kernel_frame->uc.stack.sp = state->alternate_stack;
	kernel_frame->uc.stack.size = state->alternate_stack_size;
	kernel_frame->uc.stack.flags = !state->alternate_stack_size ? SS_DISABLE
	                               : on_alternate               ? SS_ONSTACK
	                                                            : 0;
	if (state->alternate_stack_autodisarm)
		kernel_frame->uc.stack.flags |= (int32_t)SS_AUTODISARM;
	kernel_frame->uc.sigmask =
	    state->restore_saved_mask ? state->saved_mask : process->signal_mask;
	memcpy(kernel_frame->uc.mcontext.regs, frame->regs, sizeof frame->regs);
	fpu_capture(task, frame);
	if (task->fpu.in_use) {
		memcpy(kernel_frame->uc.mcontext.fp.f, task->fpu.f, sizeof task->fpu.f);
		kernel_frame->uc.mcontext.fp.fcsr = task->fpu.fcsr;
	}

	if ((action->flags & SA_ONSTACK) && state->alternate_stack_size && !on_alternate)
		sp = state->alternate_stack + state->alternate_stack_size;
	sp = (sp - sizeof *kernel_frame) & ~15ull;
	if (!trampoline_ready(process) ||
	    copy_to_user(&process->space, sp, kernel_frame, sizeof *kernel_frame) != 0)
		return false;
	if ((action->flags & SA_ONSTACK) && state->alternate_stack_autodisarm && !on_alternate) {
		state->alternate_stack = 0;
		state->alternate_stack_size = 0;
		state->alternate_stack_autodisarm = false;
	}

	frame->regs[0] = action->handler;
	frame->regs[1] = SIGNAL_TRAMPOLINE;
	frame->regs[2] = sp;
	frame->regs[10] = (uint64_t)signal;
	frame->regs[11] = sp + offsetof(struct linux_rt_sigframe, info);
	frame->regs[12] = sp + offsetof(struct linux_rt_sigframe, uc);

	uint64_t blocked = process->signal_mask | action->mask;
	if (!(action->flags & SA_NODEFER))
		blocked |= SIGNAL_BIT(signal);
	state->restore_saved_mask = false; /* the frame carries the mask to go back to */
	signal_set_blocked(process, blocked);
	if (action->flags & SA_RESETHAND) {
		action->handler = SIG_DFL;
		action->flags &= ~SA_SIGINFO;
	}
	return true;
}

/* rt_sigreturn's work: load every register, FP ones included, and the mask from the
 * frame at the user sp. A frame that cannot be read, or whose reserved word or
 * extension header is not what Duplex (and Linux without V) writes, kills the process
 * with SIGSEGV. */
static void restore_frame(struct process *process, struct trap_frame *frame)
{
	struct task *task = sched_current();
	uint64_t sp = frame->regs[2];
	struct linux_rt_sigframe *kernel_frame = (void *)process->io_buffer;

	if (copy_from_user(&process->space, kernel_frame, sp, sizeof *kernel_frame) != 0)
		kill_by(process, SIGSEGV, "unreadable signal frame at sp", sp);
	const struct linux_fp_state *fp = &kernel_frame->uc.mcontext.fp;
	if (fp->reserved || fp->end_magic || fp->end_size)
		kill_by(process, SIGSEGV, "corrupt signal frame at sp", sp);
	memcpy(frame->regs, kernel_frame->uc.mcontext.regs, sizeof frame->regs);
	if (task->fpu.in_use) {
		memcpy(task->fpu.f, fp->f, sizeof task->fpu.f);
		task->fpu.fcsr = fp->fcsr;
		irq_push_off();
		fpu_load(&task->fpu);
		frame->sstatus = (frame->sstatus & ~SSTATUS_FS) | SSTATUS_FS_DIRTY;
		irq_pop_off();
	}
	signal_set_blocked(process, kernel_frame->uc.sigmask);
}

/* The default action "stop" (signal_dequeue_to_deliver marked the process stopped):
 * the parent is told (wait4 WUNTRACED, SIGCHLD), then park until SIGCONT (or SIGKILL),
 * and the parent is told of the continue (WCONTINUED). A SIGTSTP, SIGTTIN or SIGTTOU
 * to an orphaned group is discarded instead (Linux get_signal). */
static void stop(struct process *process, int signal)
{
	struct signal_state *state = &process->signals;
	if (signal != SIGSTOP && process_group_orphaned(process)) {
		signal_cancel_stop(process);
		return;
	}
	process_report_stopped(process, signal);
	sched_note_wait("stopped (job control)", state, 0);
	WAIT_UNTIL(!__atomic_load_n(&state->stopped, __ATOMIC_RELAXED) ||
	           (signal_pending_set(process) & SIGNAL_BIT(SIGKILL)));
	sched_note_wait_done();
	if (!(signal_pending_set(process) & SIGNAL_BIT(SIGKILL)))
		process_report_continued(process);
}

static bool is_restart_code(uint64_t result)
{
	return result + ERESTARTNOHAND <= ERESTARTNOHAND - ERESTARTSYS;
}

/* Back to the ecall with its first argument, to run the call again. */
static void restart(struct trap_frame *frame)
{
	frame->regs[0] -= 4;
	frame->regs[10] = frame->syscall_a0;
}

void signal_return_to_user(struct trap_frame *frame, bool after_system_call)
{
	struct process *process = process_current();
	struct signal_state *state = &process->signals;
	struct task *task = sched_current();

	for (;;) {
		bool restart_due = after_system_call && is_restart_code(frame->regs[10]);
		if (!task->signal_pending && !restart_due)
			return;
		interrupts_enable();
		if (state->sigreturn_requested) {
			state->sigreturn_requested = false;
			restore_frame(process, frame);
			after_system_call = restart_due = false;
		}
		bool entered_handler = false;
		struct signal_info info;
		int signal;
		while (!entered_handler &&
		       (signal = signal_dequeue_to_deliver(process, ~process->signal_mask, &info,
		                                           true)) != 0) {
			struct linux_sigaction *action = &process->signal_actions[signal - 1];
			if (action->handler == SIG_IGN)
				continue;
			if (action->handler == SIG_DFL) {
				if (signal_default_ignores(signal))
					continue;
				if (signal_default_stops(signal)) {
					stop(process, signal);
					continue;
				}
				kill_by_signal(process, signal, &info);
			}
			if (restart_due) {
				uint64_t result = frame->regs[10];
				if (result == (uint64_t)-ERESTARTNOINTR ||
				    (result == (uint64_t)-ERESTARTSYS &&
				     (action->flags & SA_RESTART)))
					restart(frame);
				else
					frame->regs[10] = (uint64_t)-EINTR;
				restart_due = false;
			}
			if (!push_frame(process, frame, signal, &info, action))
				kill_by(process, SIGSEGV, "no room for a signal frame below sp",
				        frame->regs[2]);
			entered_handler = true;
		}
		/* No handler ran: the interrupted call runs again, and sigsuspend's mask goes
		 * back (Linux restore_saved_sigmask). */
		if (restart_due)
			restart(frame);
		if (state->restore_saved_mask) {
			state->restore_saved_mask = false;
			signal_set_blocked(process, state->saved_mask);
		}
		interrupts_disable();
		after_system_call = false;
		if (entered_handler)
			return; /* any further signal waits for the handler's next kernel entry */
	}
}
