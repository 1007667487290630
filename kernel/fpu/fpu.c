/* Lazy floating-point state for user tasks; see fpu.h. */
#include "kernel/fpu/fpu.h"

#include "kernel/hart/isa.h"
#include "kernel/lib/string.h"
#include "kernel/sched/sched.h"

/* sstatus.FS, bits 14:13 (privileged spec 1.12, section 4.1.1 and table 3.3). */
#define SSTATUS_FS         (3ul << 13)
#define SSTATUS_FS_INITIAL (1ul << 13)
#define SSTATUS_FS_CLEAN   (2ul << 13)
#define SSTATUS_FS_DIRTY   (3ul << 13)

/* The frame a trap from U-mode saved at the top of the task's kernel stack. Valid for
 * a task with fpu.in_use, which has been in U-mode. */
static struct trap_frame *user_frame(struct task *task)
{
	return (struct trap_frame *)((uint8_t *)task->stack + task->stack_size) - 1;
}

bool fpu_first_use(struct trap_frame *frame)
{
	struct task *task = sched_current();
	if (!isa_has('f') || !isa_has('d') || task->fpu.in_use || !task->owner)
		return false;
	memset(&task->fpu, 0, sizeof task->fpu);
	fpu_load(&task->fpu);
	task->fpu.in_use = true;
	frame->sstatus = (frame->sstatus & ~SSTATUS_FS) | SSTATUS_FS_INITIAL;
	return true;
}

void fpu_switch_out(struct task *task)
{
	struct trap_frame *frame = user_frame(task);
	if ((frame->sstatus & SSTATUS_FS) != SSTATUS_FS_DIRTY)
		return;
	fpu_save(&task->fpu);
	frame->sstatus = (frame->sstatus & ~SSTATUS_FS) | SSTATUS_FS_CLEAN;
}

void fpu_switch_in(struct task *task)
{
	fpu_load(&task->fpu);
}
