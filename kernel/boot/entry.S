/* The first instructions: the Linux RISC-V Image header, then the boot hart's and the
 * secondary harts' entry paths. Both run with the MMU off at whatever physical address
 * the image was loaded, so everything here is PC-relative until the jump to the
 * kernel's linked (virtual) address.
 *
 * Entry register contract (SBI spec v1.0 "HSM" and Linux Documentation/riscv/boot.rst):
 * a0 = hart id, a1 = device tree physical address (boot hart) or the opaque value given
 * to sbi_hart_start (secondary harts: the address of that hart's struct hart). */
#include "kernel/mm/layout.h"
#include "kernel/mm/memattr.h"

#define PTE_V 0x01
#define PTE_R 0x02
#define PTE_W 0x04
#define PTE_X 0x08
#define PTE_G 0x20
#define PTE_A 0x40
#define PTE_D 0x80
#define PTE_KERNEL_RWX (PTE_V | PTE_R | PTE_W | PTE_X | PTE_G | PTE_A | PTE_D)
#define PTE_KERNEL_RW  (PTE_V | PTE_R | PTE_W | PTE_G | PTE_A | PTE_D)

	.section .text.head, "ax"
	.option push
	.option norvc
	.globl _start
_start:
	/* Linux RISC-V boot image header, 64 bytes (Documentation/riscv/boot-image-header.rst) */
	j	boot_entry		/* code0: 4-byte jump over the header */
	.word	0			/* code1 */
	.dword	KERNEL_TEXT_OFFSET	/* text_offset */
	.dword	_kernel_image_size	/* image_size, bss included */
	.dword	0			/* flags: little endian */
	.word	2			/* version 0.2 */
	.word	0			/* res1 */
	.dword	0			/* res2 */
	.ascii	"RISCV\0\0\0"		/* magic (deprecated) */
	.ascii	"RSC\x05"		/* magic2, at offset 0x38: what booti checks */
	.word	0			/* res3 */
	.option pop

boot_entry:
	/* Boot lottery, as in Linux's head.S: only the first hart to get here boots. On
	 * QEMU with OpenSBI 1.1 a second hart was seen arriving here (a0 its id, a1 the
	 * DTB) while the boot hart was mid-way, without any hart_start; running
	 * kernel_main twice wrecked the boot. A late hart stops itself through SBI HSM
	 * instead, so that harts_start_secondaries can start it the normal way. */
	lla	t0, boot_lottery
	li	t1, 1
	amoadd.w t1, t1, (t0)
	bnez	t1, uninvited_entry
	csrw	sie, zero
	csrw	sscratch, zero
	mv	s0, a0			/* hart id */
	mv	s1, a1			/* device tree (physical) */
	la	s2, _start		/* where we were loaded (physical) */
	/* Breadcrumbs (kernel/boot/breadcrumb.h) from the first instruction on: through
	 * the SBI console, so they appear even if the UART driver never starts. s3 says
	 * which SBI call prints: base extension probe (EID 0x10, FID 3; SBI spec 4.8) for
	 * DBCN; a pre-0.2 firmware fails the call (a0 != 0), and legacy putchar it is. */
	li	s3, 0
	lla	t0, early_trap
	csrw	stvec, t0
	li	a7, 0x10
	li	a6, 3
	li	a0, 0x4442434E
	ecall
	bnez	a0, 1f
	snez	s3, a1
1:	lla	a0, crumb_entry
	call	early_puts
	mv	a0, s0
	call	early_puthex
	lla	a0, crumb_dtb
	call	early_puts
	mv	a0, s1
	call	early_puthex
	lla	a0, crumb_image
	call	early_puts
	mv	a0, s2
	call	early_puthex
	lla	a0, crumb_legacy
	beqz	s3, 2f
	lla	a0, crumb_dbcn
2:	call	early_puts
	/* The DTB address must hold a flattened device tree: 8-byte aligned, starting
	 * with the magic 0xd00dfeed, big-endian (Devicetree Specification v0.4, 5.1-5.2).
	 * Checked here because C code reads it right after paging, with no trap vector
	 * of its own yet; a read that faults lands in early_trap, which says so. */
	lla	a0, crumb_no_dtb
	beqz	s1, 4f
	andi	t0, s1, 7
	lla	a0, crumb_dtb_unaligned
	bnez	t0, 4f
	lbu	t0, 0(s1)
	lbu	t1, 1(s1)
	lbu	t2, 2(s1)
	lbu	t3, 3(s1)
	slli	t0, t0, 24
	slli	t1, t1, 16
	slli	t2, t2, 8
	or	t0, t0, t1
	or	t0, t0, t2
	or	s4, t0, t3
	li	t0, 0xd00dfeed
	beq	s4, t0, 5f
	lla	a0, crumb_dtb_magic
	call	early_puts
	mv	a0, s4
	call	early_puthex
	lla	a0, crumb_dtb_magic_end
4:	call	early_puts
	j	early_stop
5:
#ifdef BOARD_CPU_THEAD
	/* Printed before the read: on a hart that is not T-Head it traps (early_trap). */
	lla	a0, crumb_sxstatus
	call	early_puts
	csrr	a0, CSR_THEAD_SXSTATUS
	call	early_puthex
	csrr	t0, CSR_THEAD_SXSTATUS
	li	t1, THEAD_SXSTATUS_MAEE
	and	t0, t0, t1
	lla	a0, crumb_maee_off
	beqz	t0, 6f
	lla	a0, crumb_maee_on
6:	call	early_puts
#endif
	lla	a0, crumb_paging
	call	early_puts
	call	build_boot_page_table
	call	enable_boot_paging
	ld	t0, boot_high_address
	jr	t0

	/* From here on we run at the linked virtual address. */
boot_high:
	la	sp, boot_stack_top
	la	t0, _bss_start
	la	t1, _bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	mv	a0, s0
	mv	a1, s1
	mv	a2, s2
	call	kernel_main		/* kernel/boot/main.c; never returns */
3:	wfi
	j	3b

/* A hart that lost the boot lottery: SBI HSM hart_stop (EID 0x48534D, FID 1; SBI spec
 * v1.0 chapter 9) returns only on failure, after which it just sleeps. */
uninvited_entry:
	li	a7, 0x48534D
	li	a6, 1
	ecall
5:	wfi
	j	5b

/* Secondary harts enter here from SBI HSM hart_start. */
	.globl secondary_entry
secondary_entry:
	csrw	sie, zero
	csrw	sscratch, zero
	mv	s0, a0
	mv	s1, a1
	call	enable_boot_paging
	ld	t0, secondary_high_address
	jr	t0
secondary_high:
	mv	tp, s1			/* struct hart *; its first field is the stack top */
	ld	sp, 0(tp)
	mv	a0, s1
	call	secondary_main		/* kernel/boot/main.c; never returns */
4:	wfi
	j	4b

/* Fill boot_root_table (physical addresses, MMU off). Uses t0-t6, a3 and a4 only.
 *   - identity gigapage over the image, so the instruction after `csrw satp` still runs;
 *   - the direct map of the first 4 GiB of physical space as gigapages (RAM of both our
 *     boards and the device tree live there), for C code until the kernel's own page
 *     table (kernel/mm/vm.c) replaces this one;
 *   - KERNEL_VIRT_BASE .. +KERNEL_MAX_SIZE onto the image, as 2 MiB pages.
 *
 * Memory attributes (kernel/mm/memattr.h): on a T-Head C906 with MAEE on, RAM mapped
 * without the T-Head "normal memory" bits is uncached and atomics on it fail, and the C
 * code this table serves takes spinlocks. Those bits must be zero on every other hart
 * (reserved without Svpbmt: the walk page-faults), and th.sxstatus, which tells MAEE,
 * traps there. So the build decides whether the CSR may be read (BOARD_CPU_THEAD, from
 * boards/lichee-rv-d1/board.mk) and the CSR decides the bits, as memattr_init() will
 * later for the kernel's own table. a3 holds the bits for RAM, a4 those for devices:
 * direct-map gigapages below the image's are devices (the D1 puts all its registers
 * below DRAM at 0x40000000: D1 user manual, memory map), the others RAM. */
build_boot_page_table:
	li	a3, 0
	li	a4, 0
#ifdef BOARD_CPU_THEAD
	csrr	t0, CSR_THEAD_SXSTATUS
	li	t1, THEAD_SXSTATUS_MAEE
	and	t0, t0, t1
	beqz	t0, 0f
	li	a3, THEAD_PTE_NORMAL
	li	a4, THEAD_PTE_DEVICE
0:
#endif
	la	t0, boot_root_table
	la	t1, boot_kernel_table
	/* identity: root[pa >> 30] = gigapage(pa & ~(1G-1)) */
	srli	t2, s2, 30
	slli	t3, t2, 3
	add	t3, t3, t0
	slli	t4, t2, 28		/* PPN[2] = pa >> 30, PPN starts at bit 10 */
	ori	t4, t4, PTE_KERNEL_RWX
	or	t4, t4, a3
	sd	t4, 0(t3)
	/* direct map: root[256 + i] = gigapage(i << 30), i = 0..3 */
	li	t2, 0
	li	t5, 4
	srli	t6, s2, 30		/* the image's gigapage: RAM from here up */
1:	slli	t4, t2, 28
	ori	t4, t4, PTE_KERNEL_RW
	mv	t3, a3
	bgeu	t2, t6, 5f
	mv	t3, a4
5:	or	t4, t4, t3
	addi	t3, t2, 256
	slli	t3, t3, 3
	add	t3, t3, t0
	sd	t4, 0(t3)
	addi	t2, t2, 1
	blt	t2, t5, 1b
	/* root[511] -> boot_kernel_table */
	srli	t4, t1, 12
	slli	t4, t4, 10
	ori	t4, t4, PTE_V
	li	t3, 511 * 8
	add	t3, t3, t0
	sd	t4, 0(t3)
	/* boot_kernel_table[1 + i] = 2 MiB page at pa + i * 2 MiB (VPN[1] of KERNEL_VIRT_BASE is 1) */
	li	t2, 0
	li	t5, (KERNEL_MAX_SIZE >> 21)
	li	t6, 0x200000
2:	mul	t3, t2, t6
	add	t3, t3, s2
	srli	t3, t3, 12
	slli	t3, t3, 10
	ori	t3, t3, PTE_KERNEL_RWX
	or	t3, t3, a3
	addi	t4, t2, 1
	slli	t4, t4, 3
	add	t4, t4, t1
	sd	t3, 0(t4)
	addi	t2, t2, 1
	blt	t2, t5, 2b
	ret

/* Turn on Sv39 with boot_root_table on this hart. Uses t0-t1. */
enable_boot_paging:
	la	t0, boot_root_table
	srli	t0, t0, 12
	li	t1, (8 << 60)
	or	t0, t0, t1
	sfence.vma
	csrw	satp, t0
	sfence.vma
	ret

	.section .rodata
crumb_entry:	.asciz "boot: entry on hart "
crumb_dtb:	.asciz ", DTB at "
crumb_image:	.asciz ", image at "
crumb_legacy:	.asciz ", SBI console: legacy putchar\n"
crumb_dbcn:	.asciz ", SBI console: DBCN\n"
crumb_no_dtb:	.asciz "boot: no device tree: a1 is 0 (the bootloader passed none); stopping\n"
crumb_dtb_unaligned:
	.asciz "boot: the DTB address is not 8-byte aligned, so it is no device tree; stopping\n"
crumb_dtb_magic:
	.asciz "boot: no device tree at the DTB address: it starts with "
crumb_dtb_magic_end:
	.asciz ", not the FDT magic 0xd00dfeed; stopping\n"
#ifdef BOARD_CPU_THEAD
crumb_sxstatus:	.asciz "boot: T-Head build: th.sxstatus "
crumb_maee_on:	.asciz ": MAEE on, page tables carry T-Head attribute bits\n"
crumb_maee_off:	.asciz ": MAEE off\n"
#endif
crumb_paging:	.asciz "boot: building the boot page table, turning on Sv39\n"

	.balign 8
boot_high_address:
	.dword	boot_high
secondary_high_address:
	.dword	secondary_high

	.section .data
	.balign 4
	.globl boot_lottery
boot_lottery:			/* harts that reached boot_entry (read by kernel_main) */
	.word	0

	.section .data.page_aligned, "aw"
	.balign 4096
	.globl boot_root_table
boot_root_table:
	.zero	4096
boot_kernel_table:
	.zero	4096

	.section .boot_stack, "aw", @nobits
	.balign 16
	.zero	KERNEL_STACK_SIZE
	.globl boot_stack_top
boot_stack_top:
