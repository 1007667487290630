/* Signal frames gone wrong, on purpose: what user/fuzz.c draws at random and
 * user/exhaust.c (`exhaust faults`) runs one by one. Each case runs in a child of its
 * own (fork), which it ends: the kernel must kill it with SIGSEGV and its one-line
 * report, never panic or let the bad frame reach kernel state; one case (a frame whose
 * saved mask blocks everything) must return normally, with SIGKILL and SIGSTOP still
 * unblockable, and exits 0.
 *
 * The frame is riscv64 Linux's struct rt_sigframe (arch/riscv/kernel/signal.c):
 * siginfo_t (128 bytes), then struct ucontext (arch/riscv/include/uapi/asm/ucontext.h)
 * whose uc_sigmask is at byte 40 and uc_mcontext at 176: 32 registers (pc in x0's
 * place, sp at index 2), then the FP union, whose reserved word (at 516 in it) Linux's
 * sigreturn requires to be 0. A handler gets a pointer to the ucontext. */
#ifndef DUPLEX_USER_FRAME_FAULTS_H
#define DUPLEX_USER_FRAME_FAULTS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h> /* the numbers, and raw_syscall.h's syscallN */

/* Linux values (asm-generic/signal.h, signal-defs.h, uapi/asm-generic/unistd.h). */
#define FRAME_SIGUSR1     10
#define FRAME_SIGSEGV     11
#define FRAME_SIGKILL     9
#define FRAME_SIGSTOP     19
#define FRAME_SA_SIGINFO  0x4ul
#define FRAME_SA_ONSTACK  0x08000000ul
#define FRAME_SIG_BLOCK   0
#define FRAME_SIG_SETMASK 2

#define UCONTEXT_SIGMASK   40
#define UCONTEXT_REGISTERS 176
#define UCONTEXT_FP        (UCONTEXT_REGISTERS + 32 * 8)
#define UCONTEXT_RESERVED  (UCONTEXT_FP + 516)
#define RT_SIGFRAME_BYTES  1088

/* An address no user mapping covers (the fuzzer's SCRATCH area is above it) and the
 * kernel image (kernel/mm/layout.h): a pc or sp there must fault in U-mode. */
#define FRAME_UNMAPPED       0x3000000000ul
#define FRAME_KERNEL_ADDRESS 0xffffffffc0200000ul

enum frame_fault {
	FRAME_SCRAMBLED_REGISTERS, /* the handler fills the saved registers, pc too, at random */
	FRAME_RESERVED_WORD,       /* the FP area's reserved word is set: "corrupt frame" */
	FRAME_BAD_SP_AT_RETURN,    /* the handler returns with sp unmapped: unreadable frame */
	FRAME_KERNEL_PC,           /* the saved pc points into the kernel */
	FRAME_BAD_SAVED_SP,        /* the saved sp is unmapped: the program resumes and faults */
	FRAME_FULL_MASK,           /* the saved mask blocks everything: returns, exits 0 */
	FRAME_NONE_GARBAGE,        /* rt_sigreturn with no frame: sp at random bytes */
	FRAME_NONE_UNMAPPED,       /* rt_sigreturn with sp unmapped */
	FRAME_NO_ROOM,             /* a signal arrives while sp is unmapped: no room for a frame */
	FRAME_BAD_ALTSTACK,        /* SA_ONSTACK, the alternate stack on unmapped memory */
	FRAME_FAULT_COUNT
};

/* Exit codes of a case that was not killed. */
#define FRAME_RETURNED_OK   0 /* FRAME_FULL_MASK: back from the handler, mask right */
#define FRAME_MASK_WRONG    3 /* FRAME_FULL_MASK: SIGKILL or SIGSTOP came back blocked */
#define FRAME_SURVIVED      4 /* a case that must be killed came back */
#define FRAME_SETUP_FAILED  5 /* sigaction or sigaltstack refused */
#define FRAME_ALTSTACK_BUSY 6 /* sigaltstack EPERM: we run on an alternate stack already */

static inline bool frame_fault_kills(enum frame_fault fault)
{
	return fault != FRAME_FULL_MASK;
}

static enum frame_fault frame_case;
static uint64_t frame_random;

static inline uint64_t frame_next_random(void)
{
	uint64_t x = frame_random;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	frame_random = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* The handler: spoil the frame as the case says, then return through the trampoline
 * (its return address) into rt_sigreturn. */
static void frame_fault_handler(int signal, void *info, void *context)
{
	(void)signal, (void)info;
	uint8_t *uc = context;
	uint64_t *registers = (uint64_t *)(uc + UCONTEXT_REGISTERS);
	switch (frame_case) {
	case FRAME_SCRAMBLED_REGISTERS:
		for (int i = 0; i < 32; i++)
			registers[i] = frame_next_random();
		break;
	case FRAME_RESERVED_WORD:
		*(uint32_t *)(uc + UCONTEXT_RESERVED) = 1 + (uint32_t)(frame_next_random() >> 40);
		break;
	case FRAME_BAD_SP_AT_RETURN: {
		void *trampoline = __builtin_return_address(0);
		__asm__ volatile("mv sp, %0\n\tjr %1" ::"r"(FRAME_UNMAPPED), "r"(trampoline));
		__builtin_unreachable();
	}
	case FRAME_KERNEL_PC:
		registers[0] = FRAME_KERNEL_ADDRESS;
		break;
	case FRAME_BAD_SAVED_SP:
		registers[2] = FRAME_UNMAPPED;
		break;
	case FRAME_FULL_MASK:
		*(uint64_t *)(uc + UCONTEXT_SIGMASK) = ~0ull;
		break;
	default:
		break;
	}
}

static inline long frame_install_handler(unsigned long flags)
{
	unsigned long action[3] = {(unsigned long)(uintptr_t)frame_fault_handler,
	                           FRAME_SA_SIGINFO | flags, 0};
	return syscall4(SYS_rt_sigaction, FRAME_SIGUSR1, (long)(uintptr_t)action, 0, 8);
}

/* Run case `fault` in this (forked) child; `scratch` is at least RT_SIGFRAME_BYTES of
 * memory the child owns, `seed` the random bits. Never returns: exits, or is killed. */
static void __attribute__((noreturn))
frame_fault_run(enum frame_fault fault, uint8_t *scratch, uint64_t seed)
{
	frame_case = fault;
	frame_random = seed | 1;
	long self = syscall0(SYS_gettid);
	/* A fuzzer's random rt_sigprocmask may have blocked SIGUSR1: nothing blocked here. */
	uint64_t none = 0;
	syscall4(SYS_rt_sigprocmask, FRAME_SIG_SETMASK, (long)(uintptr_t)&none, 0, 8);
	unsigned long flags = 0;
	if (fault == FRAME_BAD_ALTSTACK) {
		uint64_t stack[3] = {FRAME_UNMAPPED, 0, 65536}; /* stack_t: sp, flags, size */
		long result = syscall2(SYS_sigaltstack, (long)(uintptr_t)stack, 0);
		/* EPERM (1), as Linux: a fuzzer's random sigaltstack left one that covers our
		 * stack, so we are on it and it cannot change; the case cannot run. */
		if (result != 0)
			syscall1(SYS_exit_group,
			         result == -1 ? FRAME_ALTSTACK_BUSY : FRAME_SETUP_FAILED);
		flags = FRAME_SA_ONSTACK;
	}
	if (frame_install_handler(flags) != 0)
		syscall1(SYS_exit_group, FRAME_SETUP_FAILED);
	switch (fault) {
	case FRAME_NONE_GARBAGE:
	case FRAME_NONE_UNMAPPED: {
		uint64_t sp = FRAME_UNMAPPED;
		if (fault == FRAME_NONE_GARBAGE) {
			for (int i = 0; i < RT_SIGFRAME_BYTES; i++)
				scratch[i] = (uint8_t)frame_next_random();
			sp = (uint64_t)(uintptr_t)scratch;
		}
		__asm__ volatile("mv sp, %0\n\tli a7, %1\n\tecall\n\tebreak" ::"r"(sp),
		                 "i"(SYS_rt_sigreturn)
		                 : "a7", "memory");
		__builtin_unreachable();
	}
	case FRAME_NO_ROOM:
		__asm__ volatile(
		    "mv sp, %0\n\tmv a0, %1\n\tli a1, %2\n\tli a7, %3\n\tecall\n\tebreak" ::"r"(
		        FRAME_UNMAPPED),
		    "r"(self), "i"(FRAME_SIGUSR1), "i"(SYS_tkill)
		    : "a0", "a1", "a7", "memory");
		__builtin_unreachable();
	default:
		break;
	}
	syscall2(SYS_tkill, self, FRAME_SIGUSR1);
	/* FRAME_BAD_SAVED_SP resumes here with sp unmapped: use the stack (the compiler
	 * might not), so that the fault comes now. */
	if (fault == FRAME_BAD_SAVED_SP)
		__asm__ volatile("sd zero, -8(sp)" ::: "memory");
	/* Back from the handler: only FRAME_FULL_MASK may get here. */
	if (fault != FRAME_FULL_MASK)
		syscall1(SYS_exit_group, FRAME_SURVIVED);
	uint64_t blocked = 0;
	syscall4(SYS_rt_sigprocmask, FRAME_SIG_BLOCK, 0, (long)(uintptr_t)&blocked, 8);
	uint64_t unblockable = (1ull << (FRAME_SIGKILL - 1)) | (1ull << (FRAME_SIGSTOP - 1));
	syscall1(SYS_exit_group, (blocked & unblockable) ? FRAME_MASK_WRONG : FRAME_RETURNED_OK);
	__builtin_unreachable();
}

#endif
