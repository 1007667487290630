/* S-mode trap vector (stvec, direct mode).
 *
 * sscratch tells where the trap came from: 0 while in the kernel, this hart's
 * struct hart while in U-mode (set by user_return just before sret).
 *  - From the kernel: save every register into a struct trap_frame on the current
 *    kernel stack, call trap_handle_kernel, restore, sret. tp is not restored: it
 *    names the hart, and a preempted task may resume on another.
 *  - From U-mode: switch to the task's kernel stack (hart->kernel_stack_top), save the
 *    user registers in a frame at its top, call trap_handle_user, then user_return. */
#define HART_KERNEL_STACK_TOP 8
#define HART_USER_SP_SCRATCH 16
#define FRAME_SIZE 288
#define SSTATUS_OFFSET (32 * 8)
#define SCAUSE_OFFSET (33 * 8)
#define STVAL_OFFSET (34 * 8)
#define SSTATUS_SUM (1 << 18)

/* Save / restore x5..x31 at their trap_frame slots (sp = the frame). ra, gp, tp and sp
 * are handled by each path, because the kernel and user paths treat them differently. */
.macro save_x5_to_x31
	sd	x5, 5*8(sp)
	sd	x6, 6*8(sp)
	sd	x7, 7*8(sp)
	sd	x8, 8*8(sp)
	sd	x9, 9*8(sp)
	sd	x10, 10*8(sp)
	sd	x11, 11*8(sp)
	sd	x12, 12*8(sp)
	sd	x13, 13*8(sp)
	sd	x14, 14*8(sp)
	sd	x15, 15*8(sp)
	sd	x16, 16*8(sp)
	sd	x17, 17*8(sp)
	sd	x18, 18*8(sp)
	sd	x19, 19*8(sp)
	sd	x20, 20*8(sp)
	sd	x21, 21*8(sp)
	sd	x22, 22*8(sp)
	sd	x23, 23*8(sp)
	sd	x24, 24*8(sp)
	sd	x25, 25*8(sp)
	sd	x26, 26*8(sp)
	sd	x27, 27*8(sp)
	sd	x28, 28*8(sp)
	sd	x29, 29*8(sp)
	sd	x30, 30*8(sp)
	sd	x31, 31*8(sp)
.endm

.macro restore_x5_to_x31
	ld	x5, 5*8(sp)
	ld	x6, 6*8(sp)
	ld	x7, 7*8(sp)
	ld	x8, 8*8(sp)
	ld	x9, 9*8(sp)
	ld	x10, 10*8(sp)
	ld	x11, 11*8(sp)
	ld	x12, 12*8(sp)
	ld	x13, 13*8(sp)
	ld	x14, 14*8(sp)
	ld	x15, 15*8(sp)
	ld	x16, 16*8(sp)
	ld	x17, 17*8(sp)
	ld	x18, 18*8(sp)
	ld	x19, 19*8(sp)
	ld	x20, 20*8(sp)
	ld	x21, 21*8(sp)
	ld	x22, 22*8(sp)
	ld	x23, 23*8(sp)
	ld	x24, 24*8(sp)
	ld	x25, 25*8(sp)
	ld	x26, 26*8(sp)
	ld	x27, 27*8(sp)
	ld	x28, 28*8(sp)
	ld	x29, 29*8(sp)
	ld	x30, 30*8(sp)
	ld	x31, 31*8(sp)
.endm

	.section .text
	.globl trap_entry
	.balign 4
trap_entry:
	csrrw	tp, sscratch, tp
	bnez	tp, trap_from_user
	csrrw	tp, sscratch, tp	/* from the kernel: tp back, sscratch 0 again */
	addi	sp, sp, -FRAME_SIZE
	sd	x1, 1*8(sp)
	sd	x3, 3*8(sp)
	sd	x4, 4*8(sp)
	save_x5_to_x31
	addi	t0, sp, FRAME_SIZE
	sd	t0, 2*8(sp)
	csrr	t0, sepc
	sd	t0, 0(sp)
	csrr	t0, sstatus
	sd	t0, SSTATUS_OFFSET(sp)
	li	t0, SSTATUS_SUM		/* only user_copy runs with SUM (sret restores it) */
	csrc	sstatus, t0
	csrr	t0, scause
	sd	t0, SCAUSE_OFFSET(sp)
	csrr	t0, stval
	sd	t0, STVAL_OFFSET(sp)

	mv	a0, sp
	call	trap_handle_kernel

	ld	t0, 0(sp)
	csrw	sepc, t0
	ld	t0, SSTATUS_OFFSET(sp)
	csrw	sstatus, t0
	ld	x1, 1*8(sp)
	ld	x3, 3*8(sp)
	restore_x5_to_x31
	addi	sp, sp, FRAME_SIZE
	sret

trap_from_user:
	/* tp = struct hart, sscratch = the user's tp */
	sd	sp, HART_USER_SP_SCRATCH(tp)
	ld	sp, HART_KERNEL_STACK_TOP(tp)
	addi	sp, sp, -FRAME_SIZE
	sd	x1, 1*8(sp)
	sd	x3, 3*8(sp)
	save_x5_to_x31
	ld	t0, HART_USER_SP_SCRATCH(tp)
	sd	t0, 2*8(sp)
	csrr	t0, sscratch
	sd	t0, 4*8(sp)
	csrw	sscratch, zero		/* in the kernel now */
	csrr	t0, sepc
	sd	t0, 0(sp)
	csrr	t0, sstatus
	sd	t0, SSTATUS_OFFSET(sp)
	li	t0, SSTATUS_SUM		/* only user_copy runs with SUM (sret restores it) */
	csrc	sstatus, t0
	csrr	t0, scause
	sd	t0, SCAUSE_OFFSET(sp)
	csrr	t0, stval
	sd	t0, STVAL_OFFSET(sp)
	mv	s0, zero		/* end of the frame-pointer chain for backtraces */
	mv	a0, sp
	call	trap_handle_user	/* returns with interrupts masked */
	mv	a0, sp
	/* fall through */

/* user_return(struct trap_frame *frame): enter U-mode with the frame's registers.
 * Called with interrupts masked; never returns. */
	.globl user_return
user_return:
	mv	sp, a0
	csrw	sscratch, tp		/* where the next trap from U-mode finds this hart */
	ld	t0, 0(sp)
	csrw	sepc, t0
	ld	t0, SSTATUS_OFFSET(sp)
	csrw	sstatus, t0
	ld	x1, 1*8(sp)
	ld	x3, 3*8(sp)
	ld	x4, 4*8(sp)
	restore_x5_to_x31
	ld	sp, 2*8(sp)
	sret
