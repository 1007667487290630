/* Faults in U-mode become signals; see deliver.h. The signal for each cause is Linux's
 * (arch/riscv/kernel/traps.c): illegal instruction SIGILL/ILL_ILLOPC, ebreak
 * SIGTRAP/TRAP_BRKPT, misaligned accesses SIGBUS/BUS_ADRALN, access faults
 * SIGSEGV/SEGV_ACCERR (si_addr the pc for these), page faults SIGSEGV with si_addr the
 * faulting address (stval), SEGV_ACCERR where a mapping exists, else SEGV_MAPERR. */
#include "kernel/mm/address_space.h"
#include "kernel/signal/deliver.h"

/* Exception causes (privileged spec 1.12, table 4.2). */
#define CAUSE_MISALIGNED_FETCH 0
#define CAUSE_FETCH_ACCESS     1
#define CAUSE_ILLEGAL          2
#define CAUSE_BREAKPOINT       3
#define CAUSE_MISALIGNED_LOAD  4
#define CAUSE_LOAD_ACCESS      5
#define CAUSE_MISALIGNED_STORE 6
#define CAUSE_STORE_ACCESS     7
#define CAUSE_FETCH_PAGE       12
#define CAUSE_LOAD_PAGE        13
#define CAUSE_STORE_PAGE       15

void signal_fault(const struct trap_frame *frame)
{
	struct process *process = process_current();
	uint64_t pc = frame->regs[0];
	struct signal_info info = {.address = pc};
	int signal = SIGSEGV;

	switch (frame->scause) {
	case CAUSE_ILLEGAL:
		signal = SIGILL;
		info.code = ILL_ILLOPC;
		break;
	case CAUSE_BREAKPOINT:
		signal = SIGTRAP;
		info.code = TRAP_BRKPT;
		break;
	case CAUSE_MISALIGNED_FETCH:
	case CAUSE_MISALIGNED_LOAD:
	case CAUSE_MISALIGNED_STORE:
		signal = SIGBUS;
		info.code = BUS_ADRALN;
		break;
	case CAUSE_FETCH_ACCESS:
	case CAUSE_LOAD_ACCESS:
	case CAUSE_STORE_ACCESS:
		info.code = SEGV_ACCERR;
		break;
	default: /* page faults */
		info.address = frame->stval;
		info.code =
		    user_range_ok(&process->space, frame->stval, 1, 0) ? SEGV_ACCERR : SEGV_MAPERR;
		break;
	}
	const struct linux_sigaction *action = &process->signal_actions[signal - 1];
	/* A handler the signal is not blocked for runs (a handler that returns to the same
	 * instruction faults again, as on Linux); otherwise the fault kills, the blocked
	 * and ignored cases included (Linux force_sig_fault resets those to SIG_DFL). */
	if (action->handler != SIG_DFL && action->handler != SIG_IGN &&
	    !(process->signal_mask & SIGNAL_BIT(signal))) {
		signal_send_info(process, signal, &info);
		return;
	}
	process_fault(frame);
}
