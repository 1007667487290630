/* execve: replace the calling process's program; see process.h. The new program is
 * built completely (program_load) before anything of the old one is touched, so a
 * failing execve returns to its caller intact, as Linux's does up to its "point of no
 * return" (fs/exec.c begin_new_exec). */
#include "kernel/hart/csr.h"
#include "kernel/lib/string.h"
#include "kernel/proc/process.h"
#include "kernel/proc/program.h"
#include "kernel/signal/signal.h"

/* trap_entry.S: load the frame's registers and sret to U-mode. */
void user_return(struct trap_frame *frame) __attribute__((noreturn));

/* What survives an exec and what does not (POSIX execve; Linux fs/exec.c):
 * descriptors stay but close-on-exec ones are closed; caught signals go back to their
 * default action, ignored ones stay ignored, the mask stays; limits and the pid stay. */
static void forget_old_program(struct process *process)
{
	for (int fd = 0; fd < PROCESS_MAX_FILES; fd++) {
		if ((process->close_on_exec & (1u << fd)) && process->files[fd]) {
			file_put(process->files[fd]);
			process->files[fd] = 0;
		}
	}
	process->close_on_exec = 0;
	signal_exec(process);
	process->clear_child_tid = 0; /* Linux's exec_mm_release */
	process->robust_list = 0;
}

int process_execve(const char *path, char *const argv[], char *const envp[])
{
	struct process *process = process_current();
	struct program program;
	int error = program_load(process->cwd, path, argv, envp, &program);
	if (error)
		return error;

	/* The point of no return: switch to the new space, then drop (or, for a vfork
	 * child, hand back) the old one. */
	struct address_space old = process->space;
	process->space = program.space;
	task_set_satp(program.space.satp);
	/* The new code was written through the data side on this hart: a hart with a
	 * separate instruction cache (the D1's C906) must not run stale lines (switch_to
	 * does the same when it changes satp; this switch is not through it). */
	__asm__ volatile("fence.i" ::: "memory");
	if (process->vfork_parent)
		process_vfork_release(process, &old);
	else
		address_space_destroy(&old);
	process->entry = program.entry;
	process->stack_pointer = program.stack_pointer;
	memcpy(process->name, program.name, sizeof process->name);
	forget_old_program(process);
	__atomic_store_n(&process->has_execed, true, __ATOMIC_RELAXED); /* setpgid reads it */

	/* Start the new program as spawn's first run does: a fresh frame at the top of the
	 * kernel stack (where this call's frame is), all registers zero, the FPU off until
	 * the new program's first floating-point instruction (kernel/fpu/fpu.h). */
	struct task *task = process->task;
	struct trap_frame *frame =
	    (struct trap_frame *)((uint8_t *)task->stack + task->stack_size) - 1;
	interrupts_disable(); /* the FPU state and the frame change together */
	task->fpu.in_use = false;
	memset(frame, 0, sizeof *frame);
	frame->regs[0] = process->entry;
	frame->regs[2] = process->stack_pointer;
	frame->sstatus = SSTATUS_SPIE; /* SPP = 0: U-mode; interrupts on there */
	interrupts_enable();
	return 0;
}

void process_enter_new_program(void)
{
	struct task *task = process_current()->task;
	interrupts_disable();
	user_return((struct trap_frame *)((uint8_t *)task->stack + task->stack_size) - 1);
}
