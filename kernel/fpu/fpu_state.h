/* A task's floating-point register file (F and D extensions): what fpu.S saves and
 * loads. Kept in struct task; all zeros is the state every program starts with. */
#ifndef DUPLEX_FPU_STATE_H
#define DUPLEX_FPU_STATE_H

#include <stdbool.h>
#include <stdint.h>

/* Offsets are used by fpu.S: f0..f31 at 8 * n, fcsr after them. */
struct fpu_state {
	uint64_t f[32];
	uint32_t fcsr;
	bool in_use; /* the task has executed a floating-point instruction */
};

#define FPU_STATE_FCSR_OFFSET (32 * 8)

#endif
