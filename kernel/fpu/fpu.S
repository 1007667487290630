/* Save and load a struct fpu_state (fpu_state.h). The kernel is built for rv64imac, so
 * these are the only floating-point instructions in it: `.option arch, +d` lets the
 * assembler take them here and nowhere else. Each routine turns sstatus.FS on for its
 * own use and off again, so the kernel never runs with the FPU usable (a stray
 * floating-point instruction in the kernel traps instead of corrupting a program's
 * registers). The FS value a program sees is the one in its trap frame (fpu.c).
 * Privileged spec 1.12, section 4.1.1 (sstatus.FS, bits 14:13); unprivileged spec,
 * chapters 11-12 (F, D: fsd/fld, fcsr CSR 0x003). */
#define SSTATUS_FS (3 << 13)

	.section .text
	.option push
	.option arch, +d

/* fpu_save(struct fpu_state *state): store f0..f31 and fcsr into *state. */
	.globl fpu_save
fpu_save:
	li	t0, SSTATUS_FS
	csrs	sstatus, t0
	fsd	f0, 0*8(a0)
	fsd	f1, 1*8(a0)
	fsd	f2, 2*8(a0)
	fsd	f3, 3*8(a0)
	fsd	f4, 4*8(a0)
	fsd	f5, 5*8(a0)
	fsd	f6, 6*8(a0)
	fsd	f7, 7*8(a0)
	fsd	f8, 8*8(a0)
	fsd	f9, 9*8(a0)
	fsd	f10, 10*8(a0)
	fsd	f11, 11*8(a0)
	fsd	f12, 12*8(a0)
	fsd	f13, 13*8(a0)
	fsd	f14, 14*8(a0)
	fsd	f15, 15*8(a0)
	fsd	f16, 16*8(a0)
	fsd	f17, 17*8(a0)
	fsd	f18, 18*8(a0)
	fsd	f19, 19*8(a0)
	fsd	f20, 20*8(a0)
	fsd	f21, 21*8(a0)
	fsd	f22, 22*8(a0)
	fsd	f23, 23*8(a0)
	fsd	f24, 24*8(a0)
	fsd	f25, 25*8(a0)
	fsd	f26, 26*8(a0)
	fsd	f27, 27*8(a0)
	fsd	f28, 28*8(a0)
	fsd	f29, 29*8(a0)
	fsd	f30, 30*8(a0)
	fsd	f31, 31*8(a0)
	frcsr	t1
	sw	t1, 32*8(a0)
	csrc	sstatus, t0
	ret

/* fpu_load(const struct fpu_state *state): load f0..f31 and fcsr from *state. */
	.globl fpu_load
fpu_load:
	li	t0, SSTATUS_FS
	csrs	sstatus, t0
	fld	f0, 0*8(a0)
	fld	f1, 1*8(a0)
	fld	f2, 2*8(a0)
	fld	f3, 3*8(a0)
	fld	f4, 4*8(a0)
	fld	f5, 5*8(a0)
	fld	f6, 6*8(a0)
	fld	f7, 7*8(a0)
	fld	f8, 8*8(a0)
	fld	f9, 9*8(a0)
	fld	f10, 10*8(a0)
	fld	f11, 11*8(a0)
	fld	f12, 12*8(a0)
	fld	f13, 13*8(a0)
	fld	f14, 14*8(a0)
	fld	f15, 15*8(a0)
	fld	f16, 16*8(a0)
	fld	f17, 17*8(a0)
	fld	f18, 18*8(a0)
	fld	f19, 19*8(a0)
	fld	f20, 20*8(a0)
	fld	f21, 21*8(a0)
	fld	f22, 22*8(a0)
	fld	f23, 23*8(a0)
	fld	f24, 24*8(a0)
	fld	f25, 25*8(a0)
	fld	f26, 26*8(a0)
	fld	f27, 27*8(a0)
	fld	f28, 28*8(a0)
	fld	f29, 29*8(a0)
	fld	f30, 30*8(a0)
	fld	f31, 31*8(a0)
	lw	t1, 32*8(a0)
	fscsr	t1
	csrc	sstatus, t0
	ret

	.option pop
