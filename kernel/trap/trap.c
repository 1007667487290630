/* Trap dispatch for traps taken in S-mode; see trap.h. */
#include "kernel/trap/trap.h"

#include "kernel/fpu/fpu.h"
#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/irq/irq.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/address_space.h"
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
#define CAUSE_STORE_PAGE_FAULT    15 /* stores and AMOs (privileged spec 1.12, table 4.2) */

/* Load/store access faults and page faults (privileged spec 1.12, table 4.2). */
static bool is_memory_fault(uint64_t cause)
{
	return cause == 5 || cause == 7 || cause == 13 || cause == 15;
}

/* A store in user_copy faulted on a copy-on-write page of the space loaded on this hart
 * (copy_to_user of the current program: read() into its buffer, a signal frame on its
 * stack, wait4's status): unshare the page as the program's own store would, so the
 * copy goes on. Handling the fault here rather than walking every destination page
 * before each copy costs nothing on the common path (the MMU checks the mapping), and
 * user_copy can resume at the faulting store since it keeps no state the trap loses.
 * False when this is no such page, or there is no free page for the copy: then the copy
 * fails with -EFAULT, as Linux's copy_to_user does when its fault fails in kernel mode
 * (arch/riscv/mm/fault.c, no_context). */
static bool user_copy_write_fault(const struct trap_frame *frame)
{
	struct process *process = process_current();
	if (frame->scause != CAUSE_STORE_PAGE_FAULT || !process ||
	    process->space.satp != csr_read(satp))
		return false;
	return address_space_write_fault(&process->space, frame->stval) == 0;
}

void trap_handle_kernel(struct trap_frame *frame)
{
	uint64_t cause = frame->scause;

	if (!(cause & SCAUSE_INTERRUPT)) {
		if (is_memory_fault(cause) && user_copy_owns_fault(frame->regs[0])) {
			if (!user_copy_write_fault(frame)) /* else: the store runs again */
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

/* A store from U-mode faulted: a copy-on-write page (fork) gets unshared and the store
 * runs again (true); anything else is a real fault (false). With no free page for the
 * copy the program is killed (process_out_of_memory): the kernel never panics for it. */
static bool copy_on_write_fault(struct trap_frame *frame)
{
	interrupts_enable(); /* copying a page takes a while; nothing here needs them off */
	int result = address_space_write_fault(&process_current()->space, frame->stval);
	if (result == -ENOMEM)
		process_out_of_memory(frame);
	return result == 0;
}

void trap_handle_user(struct trap_frame *frame)
{
	uint64_t cause = frame->scause;

	if (cause & SCAUSE_INTERRUPT) {
		handle_interrupt(cause);
	} else if (cause == CAUSE_ILLEGAL_INSTRUCTION &&
	           fpu_first_use(&sched_current()->fpu, frame)) {
		/* the program's first floating-point instruction: retried with the FPU on */
	} else if (cause == CAUSE_STORE_PAGE_FAULT && copy_on_write_fault(frame)) {
		/* a store to a copy-on-write page: retried on the program's own copy */
	} else {
		interrupts_enable();
		signal_fault(frame); /* returns if a handler will run */
	}
	sched_preempt_point();
	interrupts_disable();
	if (sched_signal_pending())
		signal_return_to_user(frame, false);
}
