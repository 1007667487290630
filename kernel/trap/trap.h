/* Trap entry from S-mode: interrupts (timer, software/IPI, external/PLIC) and kernel
 * exceptions. The saved registers form a struct trap_frame on the interrupted stack. */
#ifndef DUPLEX_TRAP_H
#define DUPLEX_TRAP_H

#include <stdint.h>

/* Offsets are used by trap_entry.S: keep in sync. regs[0] holds sepc (x0 needs no slot). */
struct trap_frame {
	uint64_t regs[32]; /* regs[n] = xn, regs[0] = sepc */
	uint64_t sstatus;
	uint64_t scause;
	uint64_t stval;
	uint64_t syscall_a0; /* a0 as a system call got it (the result overwrites regs[10]):
	                        what a restart after a signal puts back (kernel/signal) */
};
#define TRAP_FRAME_SIZE 288

/* Called by kernel_main and secondary_main on each hart: installs the trap vector and
 * enables the timer, software and external interrupt sources (sie). Interrupts stay
 * globally masked (sstatus.SIE) until the caller enables them. */
void trap_init_hart(void);

/* Called from trap_entry.S with interrupts masked; may switch tasks (preemption). */
void trap_handle_kernel(struct trap_frame *frame);

/* Called from trap_entry.S for every trap taken in U-mode but system calls (which go
 * to syscall_entry), on the task's kernel stack: interrupts, and faults (which raise a
 * signal, kernel/signal/fault.c). Delivers pending signals on the way out. Returns with
 * interrupts masked, ready for user_return. */
void trap_handle_user(struct trap_frame *frame);

/* A short human name for an exception cause ("load page fault"). */
const char *trap_cause_name(uint64_t scause);

/* ABI name of register n ("ra", "sp", "a0", ...). */
const char *trap_register_name(int n);

#endif
