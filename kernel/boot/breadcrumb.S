/* The boot breadcrumbs' assembly half (kernel/boot/breadcrumb.h): output through the
 * SBI console for entry.S while the MMU is still off, the trap vector that catches
 * traps before paging, and the one kernel_main installs until trap_init_hart.
 *
 * Everything here is PC-relative, so it runs at the physical load address as well as
 * at the linked one. SBI calls per the SBI spec v2.0: DBCN write_byte (EID 0x4442434E
 * "DBCN", FID 2, chapter 12) when entry.S found the extension (s3 != 0), else the legacy
 * console_putchar (EID 0x01, chapter 5.2). An ecall preserves every register but a0 and
 * a1 (SBI spec, "Binary Encoding"). */

	.section .text
	.balign 4

/* a0 = byte. Clobbers a0, a1, a6, a7. */
	.globl early_putc
early_putc:
	beqz	s3, 1f
	li	a7, 0x4442434E
	li	a6, 2
	ecall
	ret
1:	li	a7, 0x01
	li	a6, 0
	ecall
	ret

/* a0 = NUL-terminated string. Clobbers a0, a1, a6, a7, t0, t3. */
	.globl early_puts
early_puts:
	mv	t3, ra
	mv	t0, a0
1:	lbu	a0, 0(t0)
	beqz	a0, 2f
	call	early_putc
	addi	t0, t0, 1
	j	1b
2:	mv	ra, t3
	ret

/* a0 = value, printed as 0x and its hex digits without leading zeros. Clobbers a0, a1,
 * a6, a7, t0-t2, t4. */
	.globl early_puthex
early_puthex:
	mv	t4, ra
	mv	t0, a0
	li	a0, '0'
	call	early_putc
	li	a0, 'x'
	call	early_putc
	li	t1, 60			/* shift of the digit to print */
	li	t2, 0			/* a digit printed yet */
1:	srl	a0, t0, t1
	andi	a0, a0, 0xf
	bnez	a0, 2f
	bnez	t2, 2f
	beqz	t1, 2f			/* the last digit always */
	j	4f
2:	li	t2, 1
	li	a1, 10
	blt	a0, a1, 3f
	addi	a0, a0, 'a' - 10 - '0'
3:	addi	a0, a0, '0'
	call	early_putc
4:	addi	t1, t1, -4
	bgez	t1, 1b
	mv	ra, t4
	ret

/* Stop this hart for good, after a breadcrumb said why. */
	.globl early_stop
early_stop:
	csrw	sie, zero
1:	wfi
	j	1b

/* stvec from entry.S's first instructions until kernel_main's breadcrumb_catch_traps
 * (physical; after paging still reached through the boot table's identity gigapage). */
	.balign 4
	.globl early_trap
early_trap:
	lla	a0, crumb_trap
	call	early_puts
	csrr	a0, scause
	call	early_puthex
	lla	a0, crumb_sepc
	call	early_puts
	csrr	a0, sepc
	call	early_puthex
	lla	a0, crumb_stval
	call	early_puts
	csrr	a0, stval
	call	early_puthex
	lla	a0, crumb_stopping
	call	early_puts
	j	early_stop

/* stvec from breadcrumb_catch_traps until trap_init_hart: hand the trap to boot_trap
 * (kernel/boot/breadcrumb.c), which never returns. */
	.balign 4
	.globl boot_trap_vector
boot_trap_vector:
	csrr	a0, scause
	csrr	a1, sepc
	csrr	a2, stval
	call	boot_trap
	j	early_stop

	.section .rodata
crumb_trap:	.asciz "\nboot: trap before paging: scause "
crumb_sepc:	.asciz ", sepc "
crumb_stval:	.asciz ", stval "
crumb_stopping:	.asciz "; stopping\n"
