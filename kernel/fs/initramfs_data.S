/* The program archive, placed in .rodata by the assembler. INITRAMFS_PATH comes from
 * the Makefile (build/<board>/initramfs.cpio). */
	.section .rodata
	.balign 8
	.globl initramfs_start, initramfs_end
initramfs_start:
	.incbin INITRAMFS_PATH
initramfs_end:
	.balign 8
