/* test_signal: signal delivery as riscv64 Linux does it, checked through raw system
 * calls (Linux numbers and structures, so both builds check the same ABI) and then
 * through the C library's own API (signal, sigaction, sigprocmask, sigsuspend, kill,
 * raise, sigpending, sigaltstack, sigtimedwait). Built for the hard-float ABI with
 * picolibc (/bin/test_signal, USER_FP_PROGRAMS) and with glibc (/bin/glibc/test_signal):
 * the register round trip fills f0..f31 and fcsr too. tests/test_signal.py runs both, on
 * 1 and 4 harts.
 *
 * Prints "ok NAME" / "FAIL NAME: DETAIL" per check (user/check.h), then
 * "test_signal: N passed, M failed"; exits 0 only if nothing failed.
 *
 *   test_signal                     run the checks
 *   test_signal send PID SIG MS     (a helper child) sleep MS ms, kill(PID, SIG), exit 0
 *   test_signal sleep MS            sleep MS ms, exit 0
 *   test_signal corrupt             a handler spoils its frame's reserved word: sigreturn
 *                                   must kill the program with SIGSEGV
 *   test_signal badsp               rt_sigreturn with sp at an unmapped address: SIGSEGV
 *   test_signal segv-blocked        fault with SIGSEGV blocked (a handler installed):
 *                                   killed by SIGSEGV, as Linux's force_sig
 *   test_signal exit N              exit with status N
 *   test_signal spin                loop in U-mode for ever (until killed)
 *   test_signal state               exit with 1 (SIGUSR1 blocked) | 2 (SIGUSR2 at SIG_DFL)
 *                                   | 4 (SIGPIPE at SIG_IGN)
 *   test_signal bench N             N round trips kill(self) -> handler -> sigreturn:
 *                                   "SIGNAL-BENCH what=... n=N p50=... p90=... p99=...
 *                                   max=..." for the time from the kill to the handler's
 *                                   first instruction and for the whole round trip, in ns
 *                                   (the time CSR) and in instructions retired (instret,
 *                                   exact under QEMU -icount) */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <duplex.h>

#include "check.h"

#define SELF DUPLEX_BIN_DIR "/test_signal"

/* Linux values (include/uapi/asm-generic/signal.h, signal-defs.h, siginfo.h, errno). */
#define L_SIGTRAP      5
#define L_SIGKILL      9
#define L_SIGUSR1      10
#define L_SIGSEGV      11
#define L_SIGUSR2      12
#define L_SIGTERM      15
#define L_SIGCHLD      17
#define L_SIGCONT      18
#define L_SIGSTOP      19
#define L_SIGWINCH     28
#define L_SIGRTMIN     34
#define L_SA_SIGINFO   0x00000004ul
#define L_SA_ONSTACK   0x08000000ul
#define L_SA_RESTART   0x10000000ul
#define L_SA_NODEFER   0x40000000ul
#define L_SA_RESETHAND 0x80000000ul
#define L_SIG_BLOCK    0
#define L_SIG_UNBLOCK  1
#define L_SIG_SETMASK  2
#define L_SS_ONSTACK   1
#define L_SS_DISABLE   2
#define L_EPERM        1
#define L_ESRCH        3
#define L_EINTR        4
#define L_EAGAIN       11
#define L_ENOMEM       12
#define L_EINVAL       22
#define L_SI_USER      0
#define L_SI_TKILL     (-6)
#define L_CLD_EXITED   1
#define L_SEGV_MAPERR  1
#define L_TRAP_BRKPT   1
#define L_WNOHANG      1
#define BIT(signal)    (1ul << ((signal)-1))

/* The kernel's struct sigaction (riscv has no sa_restorer) and stack_t. */
struct kernel_sigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long mask;
};
struct kernel_stack {
	unsigned long sp;
	int flags;
	unsigned long size;
};
/* siginfo_t's first fields and the union at 16. */
struct kernel_siginfo {
	int signo, error, code, pad;
	union {
		struct {
			int pid;
			unsigned uid;
			int status;
		} process;
		unsigned long address;
	} fields;
	char rest[128 - 32];
};
/* struct ucontext: uc_sigmask at 40, uc_mcontext at 176: 32 integer registers (pc
 * first), then f0..f31, fcsr, and at 516 into the FP area a reserved word. */
#define UC_STACK    16
#define UC_SIGMASK  40
#define UC_MCONTEXT 176
#define UC_FP       (UC_MCONTEXT + 256)
#define UC_FCSR     (UC_FP + 256)
#define UC_RESERVED (UC_FP + 516)

static unsigned long *uc_regs(void *uc)
{
	return (unsigned long *)((char *)uc + UC_MCONTEXT);
}

static long sigaction_raw(int signal, void *handler, unsigned long flags, unsigned long mask)
{
	struct kernel_sigaction action = {(unsigned long)handler, flags, mask};
	return syscall4(SYS_rt_sigaction, signal, (long)&action, 0, 8);
}

static unsigned long mask_now(void)
{
	unsigned long mask = 0;
	syscall4(SYS_rt_sigprocmask, L_SIG_BLOCK, 0, (long)&mask, 8);
	return mask;
}

static void set_mask(unsigned long mask)
{
	syscall4(SYS_rt_sigprocmask, L_SIG_SETMASK, (long)&mask, 0, 8);
}

static long raise_raw(int signal)
{
	return syscall2(SYS_kill, syscall0(SYS_getpid), signal);
}

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
	while (syscall2(SYS_nanosleep, (long)&t, (long)&t) == -L_EINTR)
		;
}

static char *env[] = {0};

/* Start this program with `a`, `b`, `c` as arguments (any may be NULL). */
static long spawn_self(const char *a, const char *b, const char *c, const char *d)
{
	char *argv[] = {"test_signal", (char *)a, (char *)b, (char *)c, (char *)d, 0};
	return syscall3(SYS_spawn, (long)SELF, (long)argv, (long)env);
}

/* A child that sends us `signal` after `ms` milliseconds. */
static long spawn_sender(int signal, int ms)
{
	char pid[16], number[16], delay[16];
	snprintf(pid, sizeof pid, "%ld", syscall0(SYS_getpid));
	snprintf(number, sizeof number, "%d", signal);
	snprintf(delay, sizeof delay, "%d", ms);
	return spawn_self("send", pid, number, delay);
}

/* Wait for child `pid`, through EINTR; its raw status, or -1. */
static int wait_child(long pid)
{
	int status = 0;
	long r;
	while ((r = syscall4(SYS_wait4, pid, (long)&status, 0, 0)) == -L_EINTR)
		;
	return r == pid ? status : -1;
}

/* ------------------------------------------------------------------ handlers */

static volatile int handled, handled_signal, nesting, max_nesting;
static struct kernel_siginfo last_info;
static unsigned long mask_inside, last_ra, last_sp, uc_mask;
static volatile int uc_valid;

static void record(int signal, struct kernel_siginfo *info, void *uc)
{
	handled++;
	handled_signal = signal;
	if (info)
		last_info = *info;
	mask_inside = mask_now();
	if (uc) {
		uc_mask = *(unsigned long *)((char *)uc + UC_SIGMASK);
		uc_valid = 1;
	}
}

static void __attribute__((noinline))
info_handler(int signal, struct kernel_siginfo *info, void *uc)
{
	last_ra = (unsigned long)__builtin_return_address(0);
	last_sp = (unsigned long)info; /* the frame starts with the siginfo, at the new sp */
	record(signal, info, uc);
}

static void nodefer_handler(int signal, struct kernel_siginfo *info, void *uc)
{
	(void)info, (void)uc;
	nesting++;
	if (nesting > max_nesting)
		max_nesting = nesting;
	handled++;
	mask_inside = mask_now();
	if (handled == 1)
		raise_raw(signal); /* with SA_NODEFER this nests at once, else waits */
	nesting--;
}

/* ------------------------------------------------------------------ registers */

/* The register round trip (asm below): every integer register but ra, sp, gp, tp, and
 * with the D extension every FP register and fcsr, hold distinctive values across a
 * kill() of ourselves; clobber_handler, run in between, overwrites them all without
 * saving anything, so only sigreturn can put them back. roundtrip_out gets x0..x31
 * (slots 0-4 unused) then f0..f31 and fcsr as the program saw them after the call. */
static unsigned long roundtrip_out[32 + 33];
/* clobber_handler copies its frame's mcontext here first (32 + 33 words). */
unsigned long clobber_saw[32 + 33];
volatile int clobber_ran;
long register_roundtrip(unsigned long *out, long pid, long signal);
void clobber_handler(int signal, void *info, void *uc);

#define XVALUE(n)  (0x5a5a000000000000ul + 0x0101ul * (n))
#define FVALUE(n)  (0x4000000000000000ul + 0x1111ul * (n))
#define FCSR_VALUE 0x61 /* rounding mode RUP (3), the NX flag */

#ifdef __riscv_flen
#define FP_SAVE    ".irp n, 8,9,18,19,20,21,22,23,24,25,26,27\n fsd f\\n, 112+8*\\n(sp)\n .endr\n"
#define FP_RESTORE ".irp n, 8,9,18,19,20,21,22,23,24,25,26,27\n fld f\\n, 112+8*\\n(sp)\n .endr\n"
#define FP_LOAD                                                                                    \
	".irp n, "                                                                                 \
	"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"  \
	" li t0, 0x4000000000000000 + 0x1111 * \\n\n fmv.d.x f\\n, t0\n .endr\n"                   \
	" li t0, 0x61\n fscsr t0\n"
#define FP_STORE                                                                                   \
	".irp n, "                                                                                 \
	"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"  \
	" fsd f\\n, 464+8*\\n(sp)\n .endr\n frcsr t0\n sd t0, 720(sp)\n"
#define FP_CLOBBER                                                                                 \
	".irp n, "                                                                                 \
	"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"  \
	" fmv.d.x f\\n, zero\n .endr\n fscsr zero\n"
#else
#define FP_SAVE    ""
#define FP_RESTORE ""
#define FP_LOAD    ""
#define FP_STORE   ""
#define FP_CLOBBER ""
#endif

/* Stack frame of register_roundtrip (1024 bytes): ra at 0, s0-s11 at 8 + 8*k, the out
 * pointer at 104, fs registers at 112 + 8*n, x registers after the call at 208 + 8*n,
 * f registers at 464 + 8*n, fcsr at 720. */
__asm__(".text\n"
        ".globl register_roundtrip\n"
        "register_roundtrip:\n"
        " addi sp, sp, -1024\n"
        " sd ra, 0(sp)\n"
        " sd s0, 8(sp)\n"
        " sd s1, 16(sp)\n"
        " .irp n, 2,3,4,5,6,7,8,9,10,11\n sd s\\n, 8+8*\\n(sp)\n .endr\n"
        " sd a0, 104(sp)\n" FP_SAVE FP_LOAD " mv a0, a1\n"
        " mv a1, a2\n"
        " li a7, 129\n" /* kill */
        " .irp n, 5,6,7,8,9,12,13,14,15,16,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
        " li x\\n, 0x5a5a000000000000 + 0x0101 * \\n\n .endr\n"
        " ecall\n"
        " .irp n, 5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
        " sd x\\n, 208+8*\\n(sp)\n .endr\n" FP_STORE " ld t0, 104(sp)\n"
        " addi t1, sp, 208\n"
        " li t2, 65\n"
        "1: ld t3, 0(t1)\n"
        " sd t3, 0(t0)\n"
        " addi t0, t0, 8\n"
        " addi t1, t1, 8\n"
        " addi t2, t2, -1\n"
        " bnez t2, 1b\n"
        " ld ra, 0(sp)\n"
        " ld s0, 8(sp)\n"
        " ld s1, 16(sp)\n"
        " .irp n, 2,3,4,5,6,7,8,9,10,11\n ld s\\n, 8+8*\\n(sp)\n .endr\n" FP_RESTORE
        " addi sp, sp, 1024\n"
        " ret\n"
        /* clobber_handler(signal, info, uc): copy uc_mcontext, then wreck every
         * register it may (ra and sp it needs, gp and tp stay) and return. */
        ".globl clobber_handler\n"
        "clobber_handler:\n"
        " addi t0, a2, 176\n"
        " la t1, clobber_saw\n"
        " li t2, 65\n"
        "2: ld t3, 0(t0)\n"
        " sd t3, 0(t1)\n"
        " addi t0, t0, 8\n"
        " addi t1, t1, 8\n"
        " addi t2, t2, -1\n"
        " bnez t2, 2b\n"
        " la t0, clobber_ran\n"
        " li t1, 1\n"
        " sw t1, 0(t0)\n" FP_CLOBBER
        " .irp n, 5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
        " li x\\n, -1\n .endr\n"
        " ret\n");

static void check_register_roundtrip(void)
{
	expect("sigaction clobber handler",
	       sigaction_raw(L_SIGUSR2, (void *)clobber_handler, L_SA_SIGINFO, 0), 0);
	long pid = syscall0(SYS_getpid);
	register_roundtrip(roundtrip_out, pid, L_SIGUSR2);
	check(clobber_ran == 1, "clobber handler ran", "ran %d", clobber_ran);
	int bad_x = -1, bad_f = -1, bad_frame = -1;
	for (int n = 5; n < 32; n++) {
		unsigned long want = n == 10 ? 0 : n == 11 ? L_SIGUSR2 : n == 17 ? 129 : XVALUE(n);
		if (roundtrip_out[n] != want && bad_x < 0)
			bad_x = n;
		/* The frame saw the registers as the program left them in the ecall. */
		unsigned long frame_want = n == 10 ? 0 : want;
		if (clobber_saw[n] != frame_want && bad_frame < 0)
			bad_frame = n;
	}
	check(bad_x < 0, "sigreturn restores every integer register", "x%d = %#lx", bad_x,
	      bad_x < 0 ? 0 : roundtrip_out[bad_x]);
	check(bad_frame < 0, "signal frame holds the integer registers", "x%d = %#lx", bad_frame,
	      bad_frame < 0 ? 0 : clobber_saw[bad_frame]);
#ifdef __riscv_flen
	for (int n = 0; n < 32; n++) {
		if ((roundtrip_out[32 + n] != FVALUE(n) || clobber_saw[32 + n] != FVALUE(n)) &&
		    bad_f < 0)
			bad_f = n;
	}
	check(bad_f < 0, "sigreturn restores f0-f31 (and the frame holds them)",
	      "f%d = %#lx, frame %#lx", bad_f, bad_f < 0 ? 0 : roundtrip_out[32 + bad_f],
	      bad_f < 0 ? 0 : clobber_saw[32 + bad_f]);
	check((roundtrip_out[64] & 0xff) == FCSR_VALUE &&
	          (clobber_saw[64] & 0xffffffff) == FCSR_VALUE,
	      "sigreturn restores fcsr", "fcsr %#lx, frame %#lx", roundtrip_out[64],
	      clobber_saw[64]);
#else
	(void)bad_f;
	check(true, "sigreturn restores f0-f31 (and the frame holds them)", "");
	check(true, "sigreturn restores fcsr", "");
#endif
	sigaction_raw(L_SIGUSR2, 0, 0, 0);
}

/* ------------------------------------------------------------------ checks */

static void check_delivery(void)
{
	long pid = syscall0(SYS_getpid);
	handled = 0;
	expect("rt_sigaction SA_SIGINFO",
	       sigaction_raw(L_SIGUSR1, (void *)info_handler, L_SA_SIGINFO, 0), 0);
	expect("kill self", raise_raw(L_SIGUSR1), 0);
	check(handled == 1 && handled_signal == L_SIGUSR1, "handler ran once with the signal",
	      "ran %d, signal %d", handled, handled_signal);
	check(last_info.signo == L_SIGUSR1 && last_info.code == L_SI_USER &&
	          last_info.fields.process.pid == pid && last_info.fields.process.uid == 0,
	      "siginfo of kill: signo, SI_USER, pid, uid", "signo %d code %d pid %d uid %u",
	      last_info.signo, last_info.code, last_info.fields.process.pid,
	      last_info.fields.process.uid);
	check(last_sp % 16 == 0, "signal frame 16-byte aligned", "siginfo at %#lx", last_sp);
	const unsigned *code = (const unsigned *)last_ra;
	check(last_ra && code[0] == 0x08b00893 && code[1] == 0x00000073,
	      "ra is the trampoline li a7, 139; ecall", "ra %#lx", last_ra);
	check(mask_inside == BIT(L_SIGUSR1), "signal blocked inside its handler", "mask %#lx",
	      mask_inside);
	check(uc_valid && uc_mask == 0, "uc_sigmask is the mask before", "uc mask %#lx", uc_mask);
	expect("mask back after sigreturn", (long)mask_now(), 0);

	/* tkill: SI_TKILL. */
	expect("tkill self", syscall2(SYS_tkill, pid, L_SIGUSR1), 0);
	check(handled == 2 && last_info.code == L_SI_TKILL, "tkill delivers with SI_TKILL",
	      "ran %d, code %d", handled, last_info.code);
	expect("tgkill self", syscall3(SYS_tgkill, pid, pid, L_SIGUSR1), 0);
	check(handled == 3, "tgkill delivers", "ran %d", handled);

	/* A real-time signal number works the same. */
	sigaction_raw(L_SIGRTMIN, (void *)info_handler, L_SA_SIGINFO, 0);
	raise_raw(L_SIGRTMIN);
	check(handled == 4 && handled_signal == L_SIGRTMIN, "real-time signal delivered",
	      "ran %d, signal %d", handled, handled_signal);
	sigaction_raw(L_SIGRTMIN, 0, 0, 0);
}

static void check_masks(void)
{
	handled = 0;
	sigaction_raw(L_SIGUSR1, (void *)info_handler, L_SA_SIGINFO, 0);
	set_mask(BIT(L_SIGUSR1));
	raise_raw(L_SIGUSR1);
	expect("blocked signal not delivered", handled, 0);
	unsigned long pending = 0;
	expect("rt_sigpending", syscall2(SYS_rt_sigpending, (long)&pending, 8), 0);
	expect("rt_sigpending shows it", (long)pending, (long)BIT(L_SIGUSR1));
	raise_raw(L_SIGUSR1); /* a standard signal is pending once */
	set_mask(0);
	expect("unblocking delivers it once", handled, 1);
	syscall2(SYS_rt_sigpending, (long)&pending, 8);
	expect("nothing pending after", (long)pending, 0);
	expect_error("rt_sigpending set size 16", syscall2(SYS_rt_sigpending, (long)&pending, 16),
	             L_EINVAL);
	/* SIGKILL and SIGSTOP cannot be caught or blocked. */
	expect_error("rt_sigaction SIGKILL", sigaction_raw(L_SIGKILL, (void *)info_handler, 0, 0),
	             L_EINVAL);
	expect_error("rt_sigaction SIGSTOP", sigaction_raw(L_SIGSTOP, (void *)info_handler, 0, 0),
	             L_EINVAL);
	set_mask(BIT(L_SIGKILL) | BIT(L_SIGSTOP) | BIT(L_SIGUSR2));
	expect("SIGKILL and SIGSTOP never blocked", (long)mask_now(), (long)BIT(L_SIGUSR2));
	set_mask(0);
	/* An ignored signal is dropped, even one sent while blocked is discarded when the
	 * action becomes SIG_IGN. */
	sigaction_raw(L_SIGUSR2, (void *)1, 0, 0);
	raise_raw(L_SIGUSR2);
	set_mask(BIT(L_SIGUSR1));
	raise_raw(L_SIGUSR1);
	sigaction_raw(L_SIGUSR1, (void *)1, 0, 0);
	syscall2(SYS_rt_sigpending, (long)&pending, 8);
	expect("SIG_IGN discards a pending signal", (long)pending, 0);
	set_mask(0);
	sigaction_raw(L_SIGUSR1, 0, 0, 0);
	sigaction_raw(L_SIGUSR2, 0, 0, 0);
	/* Default "ignore" (SIGCHLD, SIGWINCH): nothing happens. */
	raise_raw(L_SIGWINCH);
	raise_raw(L_SIGCHLD);
	check(true, "default-ignored signals do not kill", "");
}

static void check_sigsuspend(void)
{
	handled = 0;
	sigaction_raw(L_SIGUSR1, (void *)info_handler, L_SA_SIGINFO, 0);
	set_mask(BIT(L_SIGUSR1));
	raise_raw(L_SIGUSR1);
	unsigned long none = 0;
	expect_error("sigsuspend pending: EINTR", syscall2(SYS_rt_sigsuspend, (long)&none, 8),
	             L_EINTR);
	check(handled == 1 && uc_mask == BIT(L_SIGUSR1), "handler ran, frame holds the old mask",
	      "ran %d, uc mask %#lx", handled, uc_mask);
	expect("sigsuspend puts the mask back", (long)mask_now(), (long)BIT(L_SIGUSR1));
	/* Woken from the park by another process. */
	long child = spawn_sender(L_SIGUSR1, 20);
	expect_error("sigsuspend woken by a child's kill",
	             syscall2(SYS_rt_sigsuspend, (long)&none, 8), L_EINTR);
	check(handled == 2 && last_info.fields.process.pid == child,
	      "the child's signal, si_pid the child", "ran %d, pid %d (child %ld)", handled,
	      last_info.fields.process.pid, child);
	expect("sender exits 0", wait_child(child), 0);
	expect_error("sigsuspend set size", syscall2(SYS_rt_sigsuspend, (long)&none, 4), L_EINVAL);
	set_mask(0);
}

static void check_interrupted_calls(void)
{
	struct timespec request = {5, 0}, left = {0, 0};
	handled = 0;
	/* nanosleep: EINTR with the time left, SA_RESTART or not (Linux never restarts a
	 * nanosleep after a handler). */
	sigaction_raw(L_SIGUSR1, (void *)info_handler, L_SA_SIGINFO, 0);
	long child = spawn_sender(L_SIGUSR1, 20);
	long r = syscall2(SYS_nanosleep, (long)&request, (long)&left);
	expect_error("nanosleep interrupted: EINTR", r, L_EINTR);
	check(handled == 1 && left.tv_sec >= 3 && left.tv_sec <= 4, "nanosleep: the time left",
	      "ran %d, left %lds %ldns", handled, (long)left.tv_sec, left.tv_nsec);
	wait_child(child);
	sigaction_raw(L_SIGUSR1, (void *)info_handler, L_SA_SIGINFO | L_SA_RESTART, 0);
	child = spawn_sender(L_SIGUSR1, 20);
	r = syscall2(SYS_nanosleep, (long)&request, 0);
	expect_error("nanosleep with SA_RESTART: still EINTR", r, L_EINTR);
	wait_child(child);

	/* A blocking console read (nobody types during the test): EINTR. */
	sigaction_raw(L_SIGUSR1, (void *)info_handler, L_SA_SIGINFO, 0);
	handled = 0;
	child = spawn_sender(L_SIGUSR1, 20);
	char byte;
	r = syscall3(SYS_read, 0, (long)&byte, 1);
	check(r == -L_EINTR && handled == 1, "console read interrupted: EINTR",
	      "result %ld, ran %d", r, handled);
	wait_child(child);

	/* wait4: EINTR without SA_RESTART, restarted with it. */
	long sleeper = spawn_self("sleep", "200", 0, 0);
	sigaction_raw(L_SIGUSR1, (void *)info_handler, L_SA_SIGINFO, 0);
	child = spawn_sender(L_SIGUSR1, 20);
	int status = -1;
	r = syscall4(SYS_wait4, sleeper, (long)&status, 0, 0);
	expect_error("wait4 interrupted: EINTR", r, L_EINTR);
	wait_child(child);
	sigaction_raw(L_SIGUSR1, (void *)info_handler, L_SA_SIGINFO | L_SA_RESTART, 0);
	handled = 0;
	child = spawn_sender(L_SIGUSR1, 20);
	r = syscall4(SYS_wait4, sleeper, (long)&status, 0, 0);
	check(r == sleeper && status == 0 && handled == 1, "wait4 with SA_RESTART: restarted",
	      "result %ld (sleeper %ld), status %#x, ran %d", r, sleeper, status, handled);
	wait_child(child);
	sigaction_raw(L_SIGUSR1, 0, 0, 0);
}

static void check_flags(void)
{
	/* SA_RESETHAND: one delivery, then SIG_DFL. */
	handled = 0;
	sigaction_raw(L_SIGUSR1, (void *)info_handler, L_SA_SIGINFO | L_SA_RESETHAND, 0);
	raise_raw(L_SIGUSR1);
	struct kernel_sigaction now;
	syscall4(SYS_rt_sigaction, L_SIGUSR1, 0, (long)&now, 8);
	check(handled == 1 && now.handler == 0, "SA_RESETHAND: handler ran, action now SIG_DFL",
	      "ran %d, handler %#lx", handled, now.handler);

	/* SA_NODEFER: not blocked inside, so a raise there nests. Without it, the second
	 * waits for the first to return. */
	handled = 0, max_nesting = 0;
	sigaction_raw(L_SIGUSR1, (void *)nodefer_handler, L_SA_NODEFER, 0);
	raise_raw(L_SIGUSR1);
	check(handled == 2 && max_nesting == 2 && !(mask_inside & BIT(L_SIGUSR1)),
	      "SA_NODEFER: nested delivery", "ran %d, depth %d, mask %#lx", handled, max_nesting,
	      mask_inside);
	handled = 0, max_nesting = 0;
	sigaction_raw(L_SIGUSR1, (void *)nodefer_handler, 0, 0);
	raise_raw(L_SIGUSR1);
	check(handled == 2 && max_nesting == 1, "without SA_NODEFER: one after the other",
	      "ran %d, depth %d", handled, max_nesting);
	/* sa_mask is blocked inside the handler. */
	sigaction_raw(L_SIGUSR1, (void *)info_handler, L_SA_SIGINFO,
	              BIT(L_SIGUSR2) | BIT(L_SIGKILL));
	raise_raw(L_SIGUSR1);
	expect("sa_mask blocked inside (SIGKILL never)", (long)mask_inside,
	       (long)(BIT(L_SIGUSR1) | BIT(L_SIGUSR2)));
	sigaction_raw(L_SIGUSR1, 0, 0, 0);
}

static char alternate[16384] __attribute__((aligned(16)));
static volatile unsigned long alt_local;
static struct kernel_stack alt_seen;
static volatile long alt_change;

static void alt_handler(int signal)
{
	(void)signal;
	volatile int here = 0;
	alt_local = (unsigned long)&here;
	syscall2(SYS_sigaltstack, 0, (long)&alt_seen);
	struct kernel_stack other = {(unsigned long)alternate, 0, sizeof alternate};
	alt_change = syscall2(SYS_sigaltstack, (long)&other, 0);
	handled++;
}

static void check_sigaltstack(void)
{
	struct kernel_stack stack = {(unsigned long)alternate, 0, sizeof alternate}, old;
	expect("sigaltstack set", syscall2(SYS_sigaltstack, (long)&stack, 0), 0);
	syscall2(SYS_sigaltstack, 0, (long)&old);
	check(old.sp == (unsigned long)alternate && old.size == sizeof alternate && old.flags == 0,
	      "sigaltstack reads it back", "sp %#lx size %lu flags %d", old.sp, old.size,
	      old.flags);
	handled = 0;
	sigaction_raw(L_SIGUSR1, (void *)alt_handler, L_SA_ONSTACK, 0);
	raise_raw(L_SIGUSR1);
	unsigned long low = (unsigned long)alternate, high = low + sizeof alternate;
	check(handled == 1 && alt_local >= low && alt_local < high, "SA_ONSTACK handler runs there",
	      "local at %#lx, stack %#lx-%#lx", alt_local, low, high);
	check(alt_seen.flags == L_SS_ONSTACK, "sigaltstack inside says SS_ONSTACK", "flags %d",
	      alt_seen.flags);
	expect_error("sigaltstack change while on it: EPERM", alt_change, L_EPERM);
	/* Without SA_ONSTACK the handler stays on the normal stack. */
	sigaction_raw(L_SIGUSR1, (void *)alt_handler, 0, 0);
	raise_raw(L_SIGUSR1);
	check(handled == 2 && (alt_local < low || alt_local >= high),
	      "without SA_ONSTACK: the normal stack", "local at %#lx", alt_local);
	struct kernel_stack small = {(unsigned long)alternate, 0, 1024};
	expect_error("sigaltstack too small: ENOMEM", syscall2(SYS_sigaltstack, (long)&small, 0),
	             L_ENOMEM);
	struct kernel_stack bad = {(unsigned long)alternate, 8, sizeof alternate};
	expect_error("sigaltstack bad flags: EINVAL", syscall2(SYS_sigaltstack, (long)&bad, 0),
	             L_EINVAL);
	struct kernel_stack off = {0, L_SS_DISABLE, 0};
	expect("sigaltstack disable", syscall2(SYS_sigaltstack, (long)&off, 0), 0);
	syscall2(SYS_sigaltstack, 0, (long)&old);
	expect("disabled: SS_DISABLE", old.flags, L_SS_DISABLE);
	sigaction_raw(L_SIGUSR1, 0, 0, 0);
}

static volatile int fault_count;
static volatile unsigned long fault_address;
static volatile int fault_code;

/* Skip the faulting 4-byte instruction on the third try (the first two return to it
 * and fault again). */
static void fault_handler(int signal, struct kernel_siginfo *info, void *uc)
{
	(void)signal;
	fault_count++;
	fault_address = info->fields.address;
	fault_code = info->code;
	if (fault_count >= 3)
		uc_regs(uc)[0] += 4;
}

static void check_fault_signals(void)
{
	sigaction_raw(L_SIGSEGV, (void *)fault_handler, L_SA_SIGINFO | L_SA_NODEFER, 0);
	fault_count = 0;
	register long base __asm__("a0") = 0x18;
	__asm__ volatile(".option push\n.option norvc\n ld t0, 0(%0)\n.option pop"
	                 :
	                 : "r"(base)
	                 : "t0", "memory");
	check(fault_count == 3 && fault_address == 0x18 && fault_code == L_SEGV_MAPERR,
	      "SIGSEGV handler: si_addr, SEGV_MAPERR, re-faults until it moves the pc",
	      "count %d, address %#lx, code %d", fault_count, fault_address, fault_code);
	sigaction_raw(L_SIGSEGV, 0, 0, 0);
	sigaction_raw(L_SIGTRAP, (void *)fault_handler, L_SA_SIGINFO, 0);
	fault_count = 2;
	__asm__ volatile(".option push\n.option norvc\n ebreak\n.option pop" ::: "memory");
	check(fault_count == 3 && fault_code == L_TRAP_BRKPT, "SIGTRAP handler for ebreak",
	      "count %d, code %d", fault_count, fault_code);
	sigaction_raw(L_SIGTRAP, 0, 0, 0);

	expect("fault with SIGSEGV blocked kills: SIGSEGV",
	       wait_child(spawn_self("segv-blocked", 0, 0, 0)), L_SIGSEGV);
	expect("corrupt frame: sigreturn kills with SIGSEGV",
	       wait_child(spawn_self("corrupt", 0, 0, 0)), L_SIGSEGV);
	expect("sigreturn with a bad sp: SIGSEGV", wait_child(spawn_self("badsp", 0, 0, 0)),
	       L_SIGSEGV);
}

static void check_kill_rules(void)
{
	long pid = syscall0(SYS_getpid);
	expect("kill signal 0: exists", syscall2(SYS_kill, pid, 0), 0);
	expect_error("kill signal 65: EINVAL", syscall2(SYS_kill, pid, 65), L_EINVAL);
	expect_error("kill signal -1: EINVAL", syscall2(SYS_kill, pid, -1), L_EINVAL);
	expect_error("kill no such pid: ESRCH", syscall2(SYS_kill, 99999, 0), L_ESRCH);
	expect_error("kill no such group: ESRCH", syscall2(SYS_kill, -4242, 0), L_ESRCH);
	expect("kill pid 0 (our group), signal 0", syscall2(SYS_kill, 0, 0), 0);
	expect_error("tkill tid 0: EINVAL", syscall2(SYS_tkill, 0, L_SIGUSR1), L_EINVAL);
	expect_error("tkill bad signal: EINVAL", syscall2(SYS_tkill, pid, 99), L_EINVAL);
	expect_error("tgkill tgid 0: EINVAL", syscall3(SYS_tgkill, 0, pid, 0), L_EINVAL);
	expect_error("tgkill thread of another group: ESRCH",
	             syscall3(SYS_tgkill, pid, pid + 1000, 0), L_ESRCH);
	/* spawn as fork + exec: the mask and ignored signals are inherited, handlers reset. */
	set_mask(BIT(L_SIGUSR1));
	sigaction_raw(L_SIGUSR2, (void *)info_handler, L_SA_SIGINFO, 0);
	sigaction_raw(13, (void *)1, 0, 0);
	expect("spawned child: mask inherited, handler reset, SIG_IGN kept",
	       wait_child(spawn_self("state", 0, 0, 0)), 7 << 8);
	set_mask(0);
	sigaction_raw(L_SIGUSR2, 0, 0, 0);
	sigaction_raw(13, 0, 0, 0);
	/* Init (pid 1, as the tests run this) gets only signals it handles. */
	if (pid == 1) {
		syscall2(SYS_kill, 1, L_SIGTERM);
		syscall2(SYS_kill, 1, L_SIGKILL);
		check(true, "init survives SIGTERM and SIGKILL at SIG_DFL", "");
	} else {
		check(false, "init survives SIGTERM and SIGKILL at SIG_DFL",
		      "run as pid %ld, not 1", pid);
	}
	/* A zombie no longer exists for kill. */
	long child = spawn_self("exit", "0", 0, 0);
	sleep_ms(30);
	expect_error("kill a zombie: ESRCH", syscall2(SYS_kill, child, 0), L_ESRCH);
	wait_child(child);
	/* Default actions on children: terminate, SIGKILL through a sleep. */
	child = spawn_self("sleep", "5000", 0, 0);
	sleep_ms(10);
	expect("kill child SIGTERM", syscall2(SYS_kill, child, L_SIGTERM), 0);
	expect("child killed by SIGTERM", wait_child(child), L_SIGTERM);
	child = spawn_self("sleep", "5000", 0, 0);
	sleep_ms(10);
	syscall2(SYS_kill, child, L_SIGKILL);
	expect("child killed by SIGKILL", wait_child(child), L_SIGKILL);
	child = spawn_self("sleep", "5000", 0, 0);
	sleep_ms(10);
	syscall2(SYS_kill, child, L_SIGUSR1);
	expect("child killed by SIGUSR1 (default terminate)", wait_child(child), L_SIGUSR1);
	/* A child spinning in U-mode (no system calls, on another hart when there are
	 * several: the kill reaches it by IPI) is killed all the same. */
	child = spawn_self("spin", 0, 0, 0);
	sleep_ms(20);
	syscall2(SYS_kill, child, L_SIGTERM);
	expect("child spinning in U-mode killed by SIGTERM", wait_child(child), L_SIGTERM);
	/* Stop and continue: a stopped child does not finish its 50 ms until SIGCONT. */
	child = spawn_self("sleep", "50", 0, 0);
	sleep_ms(10);
	syscall2(SYS_kill, child, L_SIGSTOP);
	sleep_ms(150);
	int status = -1;
	expect("stopped child has not exited",
	       syscall4(SYS_wait4, child, (long)&status, L_WNOHANG, 0), 0);
	syscall2(SYS_kill, child, L_SIGCONT);
	expect("continued child exits 0", wait_child(child), 0);
}

static volatile int chld_count;
static struct kernel_siginfo chld_info;

static void chld_handler(int signal, struct kernel_siginfo *info, void *uc)
{
	(void)signal, (void)uc;
	chld_count++;
	chld_info = *info;
}

static void check_sigchld(void)
{
	chld_count = 0;
	sigaction_raw(L_SIGCHLD, (void *)chld_handler, L_SA_SIGINFO | L_SA_RESTART, 0);
	long child = spawn_self("exit", "3", 0, 0);
	int status = wait_child(child);
	check(status == 3 << 8 && chld_count == 1 && chld_info.signo == L_SIGCHLD &&
	          chld_info.code == L_CLD_EXITED && chld_info.fields.process.pid == child &&
	          chld_info.fields.process.status == 3,
	      "SIGCHLD on child exit: CLD_EXITED, si_pid, si_status",
	      "status %#x, count %d, code %d, pid %d (child %ld), si_status %d", status, chld_count,
	      chld_info.code, chld_info.fields.process.pid, child, chld_info.fields.process.status);
	sigaction_raw(L_SIGCHLD, 0, 0, 0);
}

static void check_sigtimedwait(void)
{
	unsigned long set = BIT(L_SIGUSR1);
	struct kernel_siginfo info;
	struct timespec zero = {0, 0}, short_wait = {0, 10000000}, long_wait = {5, 0};
	set_mask(BIT(L_SIGUSR1));
	raise_raw(L_SIGUSR1);
	long r = syscall4(SYS_rt_sigtimedwait, (long)&set, (long)&info, (long)&zero, 8);
	check(r == L_SIGUSR1 && info.signo == L_SIGUSR1 &&
	          info.fields.process.pid == syscall0(SYS_getpid),
	      "sigtimedwait takes a pending signal", "result %ld, signo %d", r, info.signo);
	expect_error("sigtimedwait none, timeout 0: EAGAIN",
	             syscall4(SYS_rt_sigtimedwait, (long)&set, 0, (long)&zero, 8), L_EAGAIN);
	expect_error("sigtimedwait 10 ms: EAGAIN",
	             syscall4(SYS_rt_sigtimedwait, (long)&set, 0, (long)&short_wait, 8), L_EAGAIN);
	long child = spawn_sender(L_SIGUSR1, 20);
	r = syscall4(SYS_rt_sigtimedwait, (long)&set, (long)&info, (long)&long_wait, 8);
	check(r == L_SIGUSR1 && info.fields.process.pid == child, "sigtimedwait woken by a child",
	      "result %ld, pid %d", r, info.fields.process.pid);
	wait_child(child);
	expect("sigtimedwait leaves the mask", (long)mask_now(), (long)BIT(L_SIGUSR1));
	set_mask(0);
}

/* ------------------------------------------------------------------ the C library's API */

static volatile int libc_handled, libc_signal;

static void libc_handler(int signal)
{
	libc_handled++;
	libc_signal = signal;
}

static void check_libc(void)
{
	libc_handled = 0;
	check(signal(SIGUSR1, libc_handler) != SIG_ERR, "libc signal()", "errno %d", errno);
	expect("libc raise()", raise(SIGUSR1), 0);
	check(libc_handled == 1 && libc_signal == SIGUSR1, "handler got the libc's SIGUSR1",
	      "ran %d, signal %d (want %d)", libc_handled, libc_signal, SIGUSR1);

	struct sigaction action, old;
	memset(&action, 0, sizeof action);
	action.sa_handler = libc_handler;
	sigemptyset(&action.sa_mask);
	expect("libc sigaction()", sigaction(SIGUSR2, &action, &old), 0);
	expect("libc kill()", kill(getpid(), SIGUSR2), 0);
	check(libc_handled == 2 && libc_signal == SIGUSR2, "sigaction handler got SIGUSR2",
	      "ran %d, signal %d", libc_handled, libc_signal);
	sigaction(SIGUSR2, 0, &old);
	check(old.sa_handler == libc_handler, "sigaction reads the handler back", "");

	sigset_t block, previous, pending;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	expect("libc sigprocmask()", sigprocmask(SIG_BLOCK, &block, &previous), 0);
	raise(SIGUSR1);
	sigemptyset(&pending);
	expect("libc sigpending()", sigpending(&pending), 0);
	check(libc_handled == 2 && sigismember(&pending, SIGUSR1) == 1,
	      "blocked: pending says SIGUSR1", "ran %d", libc_handled);
	sigset_t empty;
	sigemptyset(&empty);
	int r = sigsuspend(&empty);
	check(r == -1 && errno == EINTR && libc_handled == 3,
	      "libc sigsuspend(): EINTR after the handler", "result %d, errno %d, ran %d", r, errno,
	      libc_handled);
	raise(SIGUSR1);
	int got = 0;
	expect("libc sigwait()", sigwait(&block, &got), 0);
	expect("sigwait's signal", got, SIGUSR1);
	sigprocmask(SIG_SETMASK, &previous, 0);
	expect("handler not run for the sigwait one", libc_handled, 3);

	stack_t stack = {.ss_sp = alternate, .ss_size = sizeof alternate, .ss_flags = 0}, seen;
	expect("libc sigaltstack()", sigaltstack(&stack, 0), 0);
	sigaltstack(0, &seen);
	check(seen.ss_sp == alternate && seen.ss_size == sizeof alternate, "sigaltstack reads back",
	      "sp %p", seen.ss_sp);
	stack.ss_flags = SS_DISABLE;
	sigaltstack(&stack, 0);
	expect("kill() bad signal: EINVAL", kill(getpid(), 1000) == -1 && errno == EINVAL, 1);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

/* ------------------------------------------------------------------ the benchmark */

#define BENCH_MAX 4096
static unsigned long bench_entry_time, bench_entry_instret;
static unsigned long bench_samples[4][BENCH_MAX];

static inline unsigned long read_time(void)
{
	unsigned long value;
	__asm__ volatile("rdtime %0" : "=r"(value));
	return value;
}

static inline unsigned long read_instret(void)
{
	unsigned long value;
	__asm__ volatile("rdinstret %0" : "=r"(value));
	return value;
}

static void bench_handler(int signal)
{
	(void)signal;
	bench_entry_time = read_time();
	bench_entry_instret = read_instret();
}

static int compare_samples(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
	return x < y ? -1 : x > y;
}

/* Nearest-rank percentiles of `n` samples, scaled by `scale_num / scale_den`. */
static void bench_report(const char *what, const char *unit, unsigned long *values, int n,
                         unsigned long scale_num, unsigned long scale_den)
{
	qsort(values, (size_t)n, sizeof values[0], compare_samples);
	unsigned long p[4];
	const int percent[3] = {50, 90, 99};
	for (int i = 0; i < 3; i++) {
		int rank = (percent[i] * n + 99) / 100;
		p[i] = values[rank > 0 ? rank - 1 : 0] * scale_num / scale_den;
	}
	p[3] = values[n - 1] * scale_num / scale_den;
	printf("SIGNAL-BENCH what=%s unit=%s n=%d p50=%lu p90=%lu p99=%lu max=%lu\n", what, unit, n,
	       p[0], p[1], p[2], p[3]);
}

static int bench(int n)
{
	if (n < 1 || n > BENCH_MAX)
		n = BENCH_MAX;
	struct timespec resolution;
	syscall2(SYS_clock_getres, 1, (long)&resolution); /* CLOCK_MONOTONIC: one tick in ns */
	unsigned long tick_ns = (unsigned long)resolution.tv_nsec;
	sigaction_raw(L_SIGUSR1, (void *)bench_handler, 0, 0);
	long pid = syscall0(SYS_getpid);
	for (int i = -16; i < n; i++) { /* 16 rounds to warm up (the trampoline page) */
		unsigned long time0 = read_time(), instret0 = read_instret();
		syscall2(SYS_kill, pid, L_SIGUSR1);
		unsigned long time1 = read_time(), instret1 = read_instret();
		if (i < 0)
			continue;
		bench_samples[0][i] = bench_entry_time - time0;
		bench_samples[1][i] = time1 - time0;
		bench_samples[2][i] = bench_entry_instret - instret0;
		bench_samples[3][i] = instret1 - instret0;
	}
	bench_report("kill_to_handler", "ns", bench_samples[0], n, tick_ns, 1);
	bench_report("round_trip", "ns", bench_samples[1], n, tick_ns, 1);
	bench_report("kill_to_handler", "instructions", bench_samples[2], n, 1, 1);
	bench_report("round_trip", "instructions", bench_samples[3], n, 1, 1);
	return 0;
}

/* ------------------------------------------------------------------ helper modes */

static void corrupt_handler(int signal, struct kernel_siginfo *info, void *uc)
{
	(void)signal, (void)info;
	*(unsigned *)((char *)uc + UC_RESERVED) = 1;
}

static int helper(int argc, char **argv)
{
	const char *mode = argv[1];
	if (!strcmp(mode, "send") && argc == 5) {
		sleep_ms(atol(argv[4]));
		return syscall2(SYS_kill, atol(argv[2]), atol(argv[3])) == 0 ? 0 : 1;
	}
	if (!strcmp(mode, "sleep") && argc == 3) {
		struct timespec t = {atol(argv[2]) / 1000, (atol(argv[2]) % 1000) * 1000000};
		syscall2(SYS_nanosleep, (long)&t, 0); /* restarted after a stop */
		return 0;
	}
	if (!strcmp(mode, "exit") && argc == 3)
		return atoi(argv[2]);
	if (!strcmp(mode, "state")) { /* what spawn handed us: 7 = mask, reset, ignore kept */
		struct kernel_sigaction usr2, pipe;
		syscall4(SYS_rt_sigaction, L_SIGUSR2, 0, (long)&usr2, 8);
		syscall4(SYS_rt_sigaction, 13, 0, (long)&pipe, 8);
		return ((mask_now() & BIT(L_SIGUSR1)) ? 1 : 0) | (usr2.handler == 0 ? 2 : 0) |
		       (pipe.handler == 1 ? 4 : 0);
	}
	if (!strcmp(mode, "spin"))
		for (;;)
			__asm__ volatile("" ::: "memory");
	if (!strcmp(mode, "bench") && argc == 3)
		return bench(atoi(argv[2]));
	if (!strcmp(mode, "corrupt")) {
		sigaction_raw(L_SIGUSR1, (void *)corrupt_handler, L_SA_SIGINFO, 0);
		raise_raw(L_SIGUSR1);
		printf("test_signal: survived a corrupt frame\n");
		return 1;
	}
	if (!strcmp(mode, "badsp")) {
		__asm__ volatile("li sp, 0x10\n li a7, 139\n ecall" ::: "memory");
		return 1;
	}
	if (!strcmp(mode, "segv-blocked")) {
		sigaction_raw(L_SIGSEGV, (void *)fault_handler, L_SA_SIGINFO, 0);
		set_mask(BIT(L_SIGSEGV));
		__asm__ volatile("sw zero, 32(zero)" ::: "memory"); /* a store to address 0x20 */
		printf("test_signal: survived a blocked fault\n");
		return 1;
	}
	printf("test_signal: unknown mode %s\n", mode);
	return 2;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, 0, _IOLBF, 0); /* each check's line as it happens */
	if (argc > 1)
		return helper(argc, argv);
	check_delivery();
	check_register_roundtrip();
	check_masks();
	check_sigsuspend();
	check_interrupted_calls();
	check_flags();
	check_sigaltstack();
	check_fault_signals();
	check_kill_rules();
	check_sigchld();
	check_sigtimedwait();
	check_libc();
	printf("test_signal: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
