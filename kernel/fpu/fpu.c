/* Lazy floating-point state for user tasks; see fpu.h. */
#include "kernel/fpu/fpu.h"

#include "kernel/hart/isa.h"
#include "kernel/lib/string.h"

/* sstatus.FS, bits 14:13 (privileged spec 1.12, section 4.1.1 and table 3.3). */
#define SSTATUS_FS         (3ul << 13)
#define SSTATUS_FS_INITIAL (1ul << 13)
#define SSTATUS_FS_CLEAN   (2ul << 13)
#define SSTATUS_FS_DIRTY   (3ul << 13)

bool fpu_first_use(struct fpu_state *state, struct trap_frame *frame)
{
	if (!isa_has('f') || !isa_has('d') || state->in_use)
		return false;
	memset(state, 0, sizeof *state);
	fpu_load(state);
	state->in_use = true;
	frame->sstatus = (frame->sstatus & ~SSTATUS_FS) | SSTATUS_FS_INITIAL;
	return true;
}

void fpu_switch_out(struct fpu_state *state, struct trap_frame *frame)
{
	if ((frame->sstatus & SSTATUS_FS) != SSTATUS_FS_DIRTY)
		return;
	fpu_save(state);
	frame->sstatus = (frame->sstatus & ~SSTATUS_FS) | SSTATUS_FS_CLEAN;
}
