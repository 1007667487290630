/* Signals for picolibc programs: signal, sigaction, sigprocmask, sigpending,
 * sigsuspend, sigwait, sigwaitinfo, sigtimedwait, sigaltstack, kill, raise, over the
 * kernel's rt_sig* calls and kill.
 *
 * picolibc numbers signals the BSD way (SIGBUS = 10, SIGUSR1 = 30) and its sigset_t
 * sets bit `1 << sig`; the kernel uses Linux's numbers and bit `sig - 1`. Everything
 * is translated here: the tables below for numbers, picolibc's own sigset macros for
 * sets. A handler must get picolibc's number, so the kernel is given one dispatcher
 * (libc_signal_dispatch) that looks the program's handler up and calls it with the
 * translated number; riscv64 Linux needs no restorer (the kernel supplies the return
 * trampoline). Kill statuses from wait4 go through libc_signal_from_linux too. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

/* The kernel's sigaction, sigset size and siginfo_t (the user ABI). Its signal numbers
 * and `how` values (uapi/signal.h) share picolibc's names with other values, so the
 * ones needed are spelled here as LINUX_ and the table below. */
#include <uapi/signal_action.h>
#include <uapi/signal_frame.h>

#define LINUX_NSIG        64
#define LINUX_SIG_BLOCK   0
#define LINUX_SIG_UNBLOCK 1
#define LINUX_SIG_SETMASK 2

static const unsigned char signal_from_linux[] = {
    [1] = SIGHUP,   [2] = SIGINT,    [3] = SIGQUIT,  [4] = SIGILL,   [5] = SIGTRAP,
    [6] = SIGABRT,  [7] = SIGBUS,    [8] = SIGFPE,   [9] = SIGKILL,  [10] = SIGUSR1,
    [11] = SIGSEGV, [12] = SIGUSR2,  [13] = SIGPIPE, [14] = SIGALRM, [15] = SIGTERM,
    [17] = SIGCHLD, [18] = SIGCONT,  [19] = SIGSTOP, [20] = SIGTSTP, [21] = SIGTTIN,
    [22] = SIGTTOU, [23] = SIGURG,   [24] = SIGXCPU, [25] = SIGXFSZ, [26] = SIGVTALRM,
    [27] = SIGPROF, [28] = SIGWINCH, [29] = SIGIO,   [31] = SIGSYS,
};

/* Called by wait4() for a killed child, and by the dispatcher. Signals picolibc cannot
 * name keep their number. */
int libc_signal_from_linux(int linux_signal)
{
	if (linux_signal > 0 && linux_signal < (int)sizeof(signal_from_linux) &&
	    signal_from_linux[linux_signal] != 0)
		return signal_from_linux[linux_signal];
	return linux_signal;
}

/* picolibc number -> Linux number, or -1 for one Linux lacks (SIGEMT, SIGLOST); 0 stays 0
 * (kill's existence check) and numbers above picolibc's range are passed on as they are,
 * so the kernel judges them. */
static int signal_to_linux(int signal)
{
	if (signal <= 0 || signal >= NSIG)
		return signal;
	for (int linux_signal = 1; linux_signal < (int)sizeof(signal_from_linux); linux_signal++) {
		if (signal_from_linux[linux_signal] == signal)
			return linux_signal;
	}
	return -1;
}

/* Duplex's own call (see <duplex.h>): the Linux number of a picolibc signal. */
int linux_signal_number(int signal)
{
	return signal_to_linux(signal);
}

static unsigned long set_to_linux(const sigset_t *set)
{
	unsigned long mask = 0;
	for (int signal = 1; signal < NSIG; signal++) {
		int linux_signal = signal_to_linux(signal);
		if (linux_signal > 0 && sigismember(set, signal))
			mask |= 1ul << (linux_signal - 1);
	}
	return mask;
}

static void set_from_linux(unsigned long mask, sigset_t *set)
{
	sigemptyset(set);
	for (int linux_signal = 1; linux_signal <= 32; linux_signal++) {
		int signal = libc_signal_from_linux(linux_signal);
		if ((mask & (1ul << (linux_signal - 1))) && signal > 0 && signal < NSIG)
			sigaddset(set, signal);
	}
}

/* The program's handler per Linux signal number (SIG_DFL and SIG_IGN go to the kernel
 * as they are and are not kept here). */
static _sig_func_ptr handlers[LINUX_NSIG + 1];

/* What the kernel calls (a0 = Linux signal; siginfo and ucontext unused here). */
static void libc_signal_dispatch(int linux_signal)
{
	_sig_func_ptr handler = handlers[linux_signal];
	if (handler != SIG_DFL && handler != SIG_IGN)
		handler(libc_signal_from_linux(linux_signal));
}

int sigaction(int signal, const struct sigaction *action, struct sigaction *old)
{
	int linux_signal = signal_to_linux(signal);
	if (linux_signal <= 0 || linux_signal > LINUX_NSIG)
		return (int)libc_fail(EINVAL);
	struct linux_sigaction wanted, previous;
	_sig_func_ptr previous_handler = handlers[linux_signal];
	if (action) {
		_sig_func_ptr handler = action->sa_handler;
		wanted.handler = handler == SIG_DFL || handler == SIG_IGN
		                     ? (unsigned long)handler
		                     : (unsigned long)libc_signal_dispatch;
		wanted.flags = (unsigned long)(unsigned)action->sa_flags;
		wanted.mask = set_to_linux(&action->sa_mask);
	}
	long result =
	    libc_result(syscall4(SYS_rt_sigaction, linux_signal, (long)(action ? &wanted : 0),
	                         (long)&previous, SIGSET_SIZE));
	if (result < 0)
		return -1;
	if (action)
		handlers[linux_signal] = action->sa_handler;
	if (old) {
		old->sa_handler = previous.handler == (unsigned long)libc_signal_dispatch
		                      ? previous_handler
		                      : (_sig_func_ptr)previous.handler;
		old->sa_flags = (int)previous.flags;
		set_from_linux(previous.mask, &old->sa_mask);
	}
	return 0;
}

/* BSD and glibc semantics: the handler stays, interrupted calls restart. */
_sig_func_ptr signal(int signal, _sig_func_ptr handler)
{
	struct sigaction action = {.sa_handler = handler, .sa_flags = SA_RESTART}, old;
	sigemptyset(&action.sa_mask);
	if (sigaction(signal, &action, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}

int kill(pid_t pid, int signal)
{
	return (int)libc_result(syscall2(SYS_kill, pid, signal_to_linux(signal)));
}

int raise(int signal)
{
	return kill(getpid(), signal);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	int linux_how = how == SIG_BLOCK     ? LINUX_SIG_BLOCK
	                : how == SIG_UNBLOCK ? LINUX_SIG_UNBLOCK
	                : how == SIG_SETMASK ? LINUX_SIG_SETMASK
	                                     : -1;
	unsigned long mask = set ? set_to_linux(set) : 0, previous = 0;
	long result = libc_result(syscall4(SYS_rt_sigprocmask, linux_how, (long)(set ? &mask : 0),
	                                   (long)&previous, SIGSET_SIZE));
	if (result < 0)
		return -1;
	if (old)
		set_from_linux(previous, old);
	return 0;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	return sigprocmask(how, set, old) == 0 ? 0 : errno;
}

int sigpending(sigset_t *set)
{
	unsigned long mask = 0;
	if (libc_result(syscall2(SYS_rt_sigpending, (long)&mask, SIGSET_SIZE)) < 0)
		return -1;
	set_from_linux(mask, set);
	return 0;
}

int sigsuspend(const sigset_t *set)
{
	unsigned long mask = set_to_linux(set);
	return (int)libc_result(syscall2(SYS_rt_sigsuspend, (long)&mask, SIGSET_SIZE));
}

int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	unsigned long mask = set_to_linux(set);
	struct linux_siginfo kernel_info;
	long result = libc_result(syscall4(SYS_rt_sigtimedwait, (long)&mask, (long)&kernel_info,
	                                   (long)timeout, SIGSET_SIZE));
	if (result < 0)
		return -1;
	int signal = libc_signal_from_linux((int)result);
	if (info) {
		info->si_signo = signal;
		info->si_code = kernel_info.code;
		info->si_value.sival_int = 0;
	}
	return signal;
}

int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	return sigtimedwait(set, info, 0);
}

int sigwait(const sigset_t *set, int *signal)
{
	int got = sigtimedwait(set, 0, 0);
	if (got < 0)
		return errno;
	*signal = got;
	return 0;
}

/* picolibc's stack_t is Linux's (ss_sp, ss_flags, ss_size; SS_ONSTACK 1, SS_DISABLE 2). */
int sigaltstack(const stack_t *restrict stack, stack_t *restrict old)
{
	return (int)libc_result(syscall2(SYS_sigaltstack, (long)stack, (long)old));
}
