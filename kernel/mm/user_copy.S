/* user_copy: the one place the kernel touches user memory directly.
 *
 * long user_copy(void *to, const void *from, size_t length)
 *   Copies `length` bytes between a kernel buffer and user memory of the address space
 *   loaded on this hart; returns 0, or -EFAULT (-14) if an access faulted (the bytes
 *   before the fault may have been copied). Called by copy_to_user / copy_from_user
 *   (address_space.c) after they checked that the user range lies below
 *   USER_SPACE_END, so that only user pages can be reached. Any task; does not sleep.
 *
 * With sstatus.SUM set, S-mode may load and store U-mode pages (privileged spec 1.12,
 * 4.1.1.2), so the MMU checks the program's mappings and permissions for us instead of
 * a software walk of its page table. A page fault or access fault at any instruction
 * from user_copy up to user_copy_fault is not a kernel bug: trap_handle_kernel
 * resumes at user_copy_fault, which returns -EFAULT (the same idea as Linux's exception
 * table). This function is a leaf and uses no stack (only caller-saved registers), so
 * resuming there is safe.
 *
 * An interrupt in the middle saves sstatus (SUM set) in its trap frame and sret puts it
 * back; trap entry clears SUM, so no other code ever runs with it. */
#define SSTATUS_SUM (1 << 18)
#define EFAULT 14

	.section .text
	.globl user_copy
	.globl user_copy_fault
	.globl user_copy_end
	.balign 4
user_copy:
	li	t0, SSTATUS_SUM
	csrs	sstatus, t0
	mv	t3, a2			/* bytes for the byte loop: all of them, */
	li	t4, 0			/* and no doublewords after it */
	li	t1, 8
	bltu	a2, t1, copy_bytes	/* short (a 1-byte write): no alignment work */
	xor	t1, a0, a1
	andi	t1, t1, 7
	bnez	t1, copy_bytes		/* different alignment mod 8: bytes only */
	neg	t3, a0
	andi	t3, t3, 7		/* bytes up to an 8-byte boundary */
	bgeu	t3, a2, all_bytes	/* no whole doubleword after them: bytes only */
	sub	a2, a2, t3		/* what is left after the head */
	li	t4, 1
	j	copy_bytes
all_bytes:
	mv	t3, a2
copy_bytes:				/* t3 bytes, then doublewords if t4 is set */
	beqz	t3, bytes_done
	lbu	t1, 0(a1)
	sb	t1, 0(a0)
	addi	a0, a0, 1
	addi	a1, a1, 1
	addi	t3, t3, -1
	j	copy_bytes
bytes_done:
	beqz	t4, done
	li	t4, 0
	li	t2, 64
copy_blocks:				/* 64 bytes a turn: 21 instructions, not 56 (a pipe's
					 * 64 KiB writes and reads are two of these copies; under
					 * QEMU -icount every instruction is a nanosecond) */
	bltu	a2, t2, copy_words_start
	ld	t1, 0(a1)
	ld	t5, 8(a1)
	ld	t6, 16(a1)
	ld	a3, 24(a1)
	ld	a4, 32(a1)
	ld	a5, 40(a1)
	ld	a6, 48(a1)
	ld	a7, 56(a1)
	sd	t1, 0(a0)
	sd	t5, 8(a0)
	sd	t6, 16(a0)
	sd	a3, 24(a0)
	sd	a4, 32(a0)
	sd	a5, 40(a0)
	sd	a6, 48(a0)
	sd	a7, 56(a0)
	addi	a0, a0, 64
	addi	a1, a1, 64
	addi	a2, a2, -64
	j	copy_blocks
copy_words_start:
	li	t2, 8
copy_words:
	bltu	a2, t2, all_bytes	/* the tail, fewer than 8 bytes */
	ld	t1, 0(a1)
	sd	t1, 0(a0)
	addi	a0, a0, 8
	addi	a1, a1, 8
	addi	a2, a2, -8
	j	copy_words
done:
	csrc	sstatus, t0
	li	a0, 0
	ret
user_copy_fault:
	li	t0, SSTATUS_SUM
	csrc	sstatus, t0
	li	a0, -EFAULT
	ret
user_copy_end:
