/* Trap dispatch for traps taken in S-mode; see trap.h. */
#include "kernel/trap/trap.h"

#include "kernel/fpu/fpu.h"
#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/irq/irq.h"
#include "kernel/mm/user_copy.h"
#include "kernel/panic/panic.h"
#include "kernel/proc/process.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/deliver.h"
#include "kernel/timer/timer.h"
#include "kernel/trace/trace.h"

extern char trap_entry[];

void trap_init_hart(void)
{
	csr_write(stvec, (uint64_t)trap_entry);
	csr_write(sscratch, 0);
	csr_set(sie, SIE_SSIE | SIE_STIE | SIE_SEIE);
	/* Let U-mode read cycle, time and instret (the benchmark does). */
	csr_write(scounteren, 7);
}

const char *trap_cause_name(uint64_t scause)
{
	/* Privileged spec 1.12, table 4.2 (supervisor cause values). */
	static const char *const exceptions[16] = {
	    "instruction address misaligned",
	    "instruction access fault",
	    "illegal instruction",
	    "breakpoint",
	    "load address misaligned",
	    "load access fault",
	    "store address misaligned",
	    "store access fault",
	    "environment call from U-mode",
	    "environment call from S-mode",
	    "reserved",
	    "reserved",
	    "instruction page fault",
	    "load page fault",
	    "reserved",
	    "store page fault",
	};
	if (scause & SCAUSE_INTERRUPT)
		return "interrupt";
	return scause < 16 ? exceptions[scause] : "unknown exception";
}

const char *trap_register_name(int n)
{
	static const char *const names[32] = {
	    "pc", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
	    "a1", "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
	    "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
	};
	return names[n & 31];
}

static void handle_interrupt(uint64_t cause)
{
	trace_event(TRACE_IRQ_ENTER, (uint32_t)(cause & ~SCAUSE_INTERRUPT), 0, 0, 0);
	switch (cause & ~SCAUSE_INTERRUPT) {
	case IRQ_S_TIMER:
		timer_handle_interrupt();
		break;
	case IRQ_S_SOFTWARE:
		ipi_handle();
		break;
	case IRQ_S_EXTERNAL:
		irq_handle_external();
		break;
	default:
		panic("unexpected interrupt, scause %#lx", cause);
	}
	trace_event(TRACE_IRQ_EXIT, (uint32_t)(cause & ~SCAUSE_INTERRUPT), 0, 0, 0);
}

#define CAUSE_ILLEGAL_INSTRUCTION 2

/* Load/store access faults and page faults (privileged spec 1.12, table 4.2). */
static bool is_memory_fault(uint64_t cause)
{
	return cause == 5 || cause == 7 || cause == 13 || cause == 15;
}

void trap_handle_kernel(struct trap_frame *frame)
{
	uint64_t cause = frame->scause;

	if (!(cause & SCAUSE_INTERRUPT)) {
		if (is_memory_fault(cause) && user_copy_owns_fault(frame->regs[0])) {
			frame->regs[0] = (uint64_t)user_copy_fault; /* a bad user pointer */
			return;
		}
		panic_fault(frame, sched_current_name());
	}
	handle_interrupt(cause);
	/* Preempt only code that ran with interrupts enabled: anything else holds a lock or
	 * is itself an interrupt path. */
	if (frame->sstatus & SSTATUS_SPIE)
		sched_preempt_point();
}

void trap_handle_user(struct trap_frame *frame)
{
	uint64_t cause = frame->scause;

	if (cause & SCAUSE_INTERRUPT) {
		handle_interrupt(cause);
	} else if (cause == CAUSE_ILLEGAL_INSTRUCTION &&
	           fpu_first_use(&sched_current()->fpu, frame)) {
		/* the program's first floating-point instruction: retried with the FPU on */
	} else {
		interrupts_enable();
		signal_fault(frame); /* returns if a handler will run */
	}
	sched_preempt_point();
	interrupts_disable();
	if (sched_signal_pending())
		signal_return_to_user(frame, false);
}
