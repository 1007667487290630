/* S-mode trap vector (stvec, direct mode).
 *
 * sscratch tells where the trap came from: 0 while in the kernel, this hart's
 * struct hart while in U-mode (set by user_return just before sret).
 *  - From the kernel: save every register into a struct trap_frame on the current
 *    kernel stack, call trap_handle_kernel, restore, sret. tp is not restored: it
 *    names the hart, and a preempted task may resume on another.
 *  - From U-mode: switch to the task's kernel stack (hart->kernel_stack_top), save the
 *    user registers in a frame at its top, call trap_handle_user, then user_return.
 *  - A system call (ecall from U-mode) is the common case, and takes a shorter path:
 *    s1..s11 are neither saved nor restored, because syscall_entry is an ordinary C
 *    function that preserves them (callee-saved), and so does everything it calls,
 *    a switch to another task included (switch_context saves them). Their frame slots
 *    are left stale: nothing on the system call path reads them (only a fault's
 *    report does, and faults take the full path). Every other register is saved and
 *    restored, since Linux's system call ABI preserves all registers but a0. clone is the
 *    exception: it saves s1..s11 as well, for the child's copy of the frame. */
#define HART_KERNEL_STACK_TOP 8
#define HART_USER_SP_SCRATCH 16
#define FRAME_SIZE 288
#define SSTATUS_OFFSET (32 * 8)
#define SCAUSE_OFFSET (33 * 8)
#define STVAL_OFFSET (34 * 8)
#define SYSCALL_A0_OFFSET (35 * 8)
#define SSTATUS_SUM (1 << 18)
#define CAUSE_USER_ECALL 8
#define SYSCALL_CLONE 220	/* Linux asm-generic/unistd.h __NR_clone */

/* Save / restore x5..x31 at their trap_frame slots (sp = the frame), in two groups, since
 * the system call path leaves one out (see above): s1..s11 (x9, x18..x27), and the rest.
 * ra, gp, tp and sp are handled by each path, because the kernel and user paths treat
 * them differently. */
.macro save_s1_to_s11
	sd	x9, 9*8(sp)
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
.endm

.macro restore_s1_to_s11
	ld	x9, 9*8(sp)
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
.endm

.macro save_not_callee_saved
	sd	x5, 5*8(sp)
	sd	x6, 6*8(sp)
	sd	x7, 7*8(sp)
	sd	x8, 8*8(sp)
	sd	x10, 10*8(sp)
	sd	x11, 11*8(sp)
	sd	x12, 12*8(sp)
	sd	x13, 13*8(sp)
	sd	x14, 14*8(sp)
	sd	x15, 15*8(sp)
	sd	x16, 16*8(sp)
	sd	x17, 17*8(sp)
	sd	x28, 28*8(sp)
	sd	x29, 29*8(sp)
	sd	x30, 30*8(sp)
	sd	x31, 31*8(sp)
.endm

.macro restore_not_callee_saved
	ld	x5, 5*8(sp)
	ld	x6, 6*8(sp)
	ld	x7, 7*8(sp)
	ld	x8, 8*8(sp)
	ld	x10, 10*8(sp)
	ld	x11, 11*8(sp)
	ld	x12, 12*8(sp)
	ld	x13, 13*8(sp)
	ld	x14, 14*8(sp)
	ld	x15, 15*8(sp)
	ld	x16, 16*8(sp)
	ld	x17, 17*8(sp)
	ld	x28, 28*8(sp)
	ld	x29, 29*8(sp)
	ld	x30, 30*8(sp)
	ld	x31, 31*8(sp)
.endm

.macro save_x5_to_x31
	save_not_callee_saved
	save_s1_to_s11
.endm

.macro restore_x5_to_x31
	restore_not_callee_saved
	restore_s1_to_s11
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
	save_not_callee_saved
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
	mv	s0, zero		/* end of the frame-pointer chain for backtraces */
	li	t1, CAUSE_USER_ECALL
	beq	t0, t1, syscall_from_user
	save_s1_to_s11			/* interrupts and faults: the whole frame */
	csrr	t0, stval
	sd	t0, STVAL_OFFSET(sp)
	mv	a0, sp
	call	trap_handle_user	/* returns with interrupts masked */
	mv	a0, sp
	j	user_return

/* ecall from U-mode: a0..a5 still hold the call's arguments and a7 its number (only
 * t0 and t1 were used since the frame got them). syscall_entry(a0, ..., a5, number,
 * frame) returns with interrupts masked, having stored the result in the frame's a0;
 * it returns non-zero when signal work waits (a signal to deliver, a restart, a
 * sigreturn), which takes the slow exit below. */
syscall_from_user:
	sd	a0, SYSCALL_A0_OFFSET(sp)	/* for a restart after a signal */
	/* clone copies the whole frame into the child, which returns to U-mode through
	 * user_return and so needs s1..s11 too: the one call that saves them. */
	li	t1, SYSCALL_CLONE
	bne	a7, t1, 1f
	save_s1_to_s11
1:
	mv	a6, a7
	mv	a7, sp
	call	syscall_entry
	bnez	a0, syscall_signal_exit
	csrw	sscratch, tp		/* where the next trap from U-mode finds this hart */
	ld	t0, 0(sp)
	csrw	sepc, t0
	ld	t0, SSTATUS_OFFSET(sp)
	csrw	sstatus, t0
	ld	x1, 1*8(sp)
	ld	x3, 3*8(sp)
	ld	x4, 4*8(sp)
	restore_not_callee_saved
	ld	sp, 2*8(sp)
	sret

/* The system call's exit with signal work: s1..s11 still hold the program's values
 * (callee-saved all through syscall_entry), so they go into the frame now, where a
 * signal frame copies them from and a sigreturn replaces them; then the C side
 * (syscall_exit_work, interrupts masked on return) and the full restore. */
syscall_signal_exit:
	save_s1_to_s11
	mv	a0, sp
	call	syscall_exit_work
	mv	a0, sp
	j	user_return

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
	restore_s1_to_s11
	restore_not_callee_saved
	ld	sp, 2*8(sp)
	sret
