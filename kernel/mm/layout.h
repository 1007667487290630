/* The kernel's virtual address layout under Sv39 (RISC-V privileged spec 1.12, 4.4).
 * Plain macros so that assembly (kernel/boot/entry.S) can use them too.
 *
 *   0x0000000000000000 .. 0x0000003fffffffff   user space (issue: user programs)
 *   0xffffffc000000000 .. 0xffffffffbfffffff   direct map: physical address + DIRECT_MAP_BASE
 *                                              (RAM as normal memory, devices as MMIO)
 *   0xffffffffc0000000 .. 0xffffffffffffffff   the kernel image, linked at KERNEL_VIRT_BASE
 *
 * The image may be loaded at any 2 MiB-aligned physical address (0x80200000 on QEMU
 * virt, 0x40200000 on the D1); the boot code maps it wherever it landed. */
#ifndef DUPLEX_MM_LAYOUT_H
#define DUPLEX_MM_LAYOUT_H

#define DIRECT_MAP_BASE  0xffffffc000000000
#define KERNEL_VIRT_BASE 0xffffffffc0200000
/* Linux RISC-V Image header text_offset: the image sits 2 MiB above the start of its
 * 2 MiB-aligned region (Documentation/riscv/boot-image-header.rst). */
#define KERNEL_TEXT_OFFSET 0x200000
/* How much of the image's region the boot page table maps (text, data, bss, stacks). */
#define KERNEL_MAX_SIZE 0x2000000
#define USER_SPACE_END  0x0000004000000000

#define KERNEL_STACK_SIZE 16384

#endif
