/* Floating point for user programs (F and D, the lp64d ABI), lazily.
 *
 * A program starts with the FPU off (sstatus.FS = Off in its trap frame), so its first
 * floating-point instruction traps as an illegal instruction. fpu_first_use then gives
 * it a clean register file (all zeros, fcsr 0) and FS = Initial, and the instruction
 * runs again. From then on the hardware tracks whether the registers changed (FS =
 * Dirty), and a switch away saves them only then; a switch to the task loads them.
 * A task that never uses floating point pays one flag test per switch and nothing
 * else. The kernel itself is built without F and D and runs with FS = Off: only fpu.S
 * touches the registers.
 *
 * The FS a program runs with is the one in the trap frame at the top of its kernel
 * stack (restored by sret), so that is where this module reads and writes it. */
#ifndef DUPLEX_FPU_H
#define DUPLEX_FPU_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fpu/fpu_state.h"
#include "kernel/trap/trap.h"

/* fpu.S: store / load the register file. Interrupts masked (the registers belong to
 * whatever task runs on this hart). */
void fpu_save(struct fpu_state *state);
void fpu_load(const struct fpu_state *state);

/* Called by trap_handle_user, interrupts masked, for an illegal-instruction trap from
 * U-mode, with the running task's state and trap frame: if the task has not used the
 * FPU yet and every hart has F and D (kernel/hart/isa.h), turn it on with a clean state
 * and return true, so the instruction is retried; false means the instruction is
 * illegal for some other reason. */
bool fpu_first_use(struct fpu_state *state, struct trap_frame *frame);

/* The out-of-line half of fpu_switch: save `state` if the frame says Dirty. */
void fpu_switch_out(struct fpu_state *state, struct trap_frame *frame);

/* Called by the scheduler's switch_to, with the hart's scheduler lock held (interrupts
 * masked), just before switch_context: save the previous task's registers if it changed
 * them (its U-mode trap frame, at the top of its kernel stack `previous_stack_top`,
 * holds its FS), load the next task's if it uses the FPU. */
static inline void fpu_switch(struct fpu_state *previous, uintptr_t previous_stack_top,
                              struct fpu_state *next)
{
	if (previous->in_use)
		fpu_switch_out(previous, (struct trap_frame *)previous_stack_top - 1);
	if (next->in_use)
		fpu_load(next);
}

#endif
