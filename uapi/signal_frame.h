/* The signal frame riscv64 Linux pushes on the user stack, byte for byte, so that
 * glibc's ucontext_t and a handler's siginfo_t read it as they would on Linux:
 * struct rt_sigframe { siginfo_t info; struct ucontext uc; } (Linux
 * arch/riscv/kernel/signal.c), with struct ucontext from
 * arch/riscv/include/uapi/asm/ucontext.h and its uc_mcontext, struct sigcontext, from
 * arch/riscv/include/uapi/asm/sigcontext.h and ptrace.h: the 32 integer registers as
 * struct user_regs_struct (pc in x0's place, then ra, sp, ... t6), then the FP union
 * (the D extension's f0..f31 and fcsr, in 528 bytes sized for the Q extension, whose
 * last 12 bytes are a reserved word and the end-of-extensions header that Linux
 * checks on sigreturn). siginfo_t and stack_t are here too: the frame holds them, and
 * rt_sigtimedwait and sigaltstack copy them alone.
 *
 * Only prefixed names (struct linux_*), so that libc can include this beside picolibc's
 * <signal.h>; the SS_ flags and MINSIGSTKSZ are in uapi/signal.h with the numbers. */
#ifndef DUPLEX_UAPI_SIGNAL_FRAME_H
#define DUPLEX_UAPI_SIGNAL_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* siginfo_t: 128 bytes; the union starts at 16 (include/uapi/asm-generic/siginfo.h). */
struct linux_siginfo {
	int32_t signo;
	int32_t error;
	int32_t code;
	int32_t pad;
	union {
		struct { /* kill, tkill, SIGCHLD */
			int32_t pid;
			uint32_t uid;
			int32_t status; /* SIGCHLD */
		} process;
		uint64_t address; /* faults */
		uint8_t bytes[112];
	} fields;
};

/* stack_t (include/uapi/asm-generic/signal.h); flags SS_* in uapi/signal.h. */
struct linux_stack {
	uint64_t sp;
	int32_t flags;
	int32_t pad;
	uint64_t size;
};

struct linux_fp_state {
	uint64_t f[32]; /* __riscv_d_ext_state.f */
	uint32_t fcsr;
	uint8_t unused[516 - 33 * 8 + 4]; /* up to the reserved word of the Q-sized union */
	uint32_t reserved;                /* __riscv_extra_ext_header.reserved: must be 0 */
	uint32_t end_magic;               /* the first extension header: END (0, size 0) */
	uint32_t end_size;
} __attribute__((aligned(16)));

struct linux_sigcontext {
	uint64_t regs[32]; /* pc, ra, sp, gp, tp, t0-t2, s0, s1, a0-a7, s2-s11, t3-t6 */
	struct linux_fp_state fp;
};

struct linux_ucontext {
	uint64_t flags;
	uint64_t link;
	struct linux_stack stack;
	uint64_t sigmask;
	uint8_t unused[1024 / 8 - 8];
	struct linux_sigcontext mcontext;
};

struct linux_rt_sigframe {
	struct linux_siginfo info;
	struct linux_ucontext uc;
};

_Static_assert(sizeof(struct linux_siginfo) == 128, "siginfo_t is 128 bytes");
_Static_assert(sizeof(struct linux_fp_state) == 528, "the FP union is 528 bytes");
_Static_assert(offsetof(struct linux_fp_state, reserved) == 516, "reserved word at 516");
_Static_assert(offsetof(struct linux_ucontext, mcontext) == 176, "uc_mcontext at 176");
_Static_assert(sizeof(struct linux_rt_sigframe) == 1088, "rt_sigframe is 1088 bytes");

#endif
