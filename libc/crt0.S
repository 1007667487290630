/* The first instructions of every Duplex program.
 *
 * The kernel enters _start in U-mode with sp (16-byte aligned) pointing at
 *     argc, argv[0] .. argv[argc-1], NULL, envp[0] .., NULL, auxv pairs .., AT_NULL
 * (the RISC-V System V ABI / Linux layout). Only sp is meaningful; every other register
 * may hold anything. */

	.section .text._start, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	/* gp: the linker relaxes accesses near __global_pointer$ into gp-relative ones.
	 * norelax, or the linker would turn this very load into "mv gp, gp". */
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop

	/* tp: thread-local variables (picolibc's errno is one) live at tp + offset. A program
	 * has one thread, so its TLS block is the .tdata/.tbss image the kernel loaded. */
	la	tp, __tls_base

	mv	a0, sp		/* libc_start(stack) never returns */
	call	libc_start
1:	j	1b

	.size _start, . - _start
