/* test_ppoll: the signal mask of ppoll and pselect6 (kernel/syscall/sys_poll.c), as
 * Linux applies it: it replaces the blocked set for the wait only; a pending signal it
 * unblocks ends the wait with EINTR at once and its handler runs with the call's mask
 * (plus its own signal), the old mask back after the handler returns; a signal the mask
 * keeps blocked does not interrupt, and runs once the call returned; a signal interrupts
 * an unmasked wait too; a bad mask size is EINVAL and changes nothing.
 *
 * Raw system calls with Linux numbers and structures, so the picolibc and glibc builds
 * (user.mk GLIBC_PROGRAMS) check the same ABI. Prints "ok NAME" / "FAIL NAME: DETAIL"
 * per check (user/check.h), then "test_ppoll: N passed, M failed"; exits 0 only if
 * nothing failed. tests/test_ppoll.py runs both builds on 1 and 4 harts. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <duplex.h>

#include "check.h"
#include "uapi/signal_action.h"
#include "uapi/time.h"

/* Linux values (include/uapi/asm-generic/signal.h, signal-defs.h, poll.h, errno.h). */
#define L_SIGUSR1     10
#define L_SIGUSR2     12
#define L_SIG_BLOCK   0
#define L_SIG_SETMASK 2
#define L_POLLIN      1
#define L_EINTR       4
#define L_EINVAL      22
#define BIT(signal)   (1ul << ((signal)-1))

struct linux_pollfd {
	int fd;
	short events;
	short revents;
};

static volatile int handler_runs;
static volatile unsigned long mask_in_handler;

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

static void usr1_handler(int signal)
{
	(void)signal;
	handler_runs++;
	mask_in_handler = mask_now();
}

static void install_handler(void)
{
	struct linux_sigaction action = {.handler = (uint64_t)usr1_handler};
	syscall4(SYS_rt_sigaction, L_SIGUSR1, (long)&action, 0, 8);
}

static long kill_self(int signal)
{
	return syscall2(SYS_kill, syscall0(SYS_getpid), signal);
}

/* A child that sleeps `ms` milliseconds, sends `signal` to the parent, sleeps `ms` more
 * and writes one byte into `fd` (if >= 0). Returns its pid. */
static int start_sender(int ms, int signal, int fd)
{
	long parent = syscall0(SYS_getpid);
	int pid = fork();
	if (pid == 0) {
		struct linux_timespec pause = {0, ms * 1000000l};
		syscall2(SYS_nanosleep, (long)&pause, 0);
		syscall2(SYS_kill, parent, signal);
		syscall2(SYS_nanosleep, (long)&pause, 0);
		if (fd >= 0 && write(fd, "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	return pid;
}

static void reap(int pid)
{
	int status;
	if (pid > 0)
		waitpid(pid, &status, 0);
}

/* SIGUSR1 blocked and pending; ppoll's mask unblocks it (and blocks SIGUSR2): EINTR at
 * once, the handler ran inside with the call's mask, the old mask is back afterwards. */
static void check_ppoll_mask_unblocks_pending(void)
{
	handler_runs = 0;
	set_mask(BIT(L_SIGUSR1));
	kill_self(L_SIGUSR1);
	unsigned long wait_mask = BIT(L_SIGUSR2);
	struct linux_timespec long_time = {10, 0};
	long result = syscall5(SYS_ppoll, 0, 0, (long)&long_time, (long)&wait_mask, 8);
	unsigned long after = mask_now();
	expect_error("ppoll: a pending signal the mask unblocks is EINTR", result, L_EINTR);
	check(handler_runs == 1, "ppoll: its handler ran once", "runs %d", handler_runs);
	check(mask_in_handler == (BIT(L_SIGUSR2) | BIT(L_SIGUSR1)),
	      "ppoll: the handler runs with the call's mask and its own signal", "mask %#lx",
	      mask_in_handler);
	check(after == BIT(L_SIGUSR1), "ppoll: the old mask is back after the handler", "mask %#lx",
	      after);
	set_mask(0);
}

/* SIGUSR1 blocked and pending, ppoll's mask keeps it blocked: the call times out (0),
 * no handler; the old mask is back; unblocking it then runs the handler. */
static void check_ppoll_mask_keeps_blocked(void)
{
	handler_runs = 0;
	set_mask(BIT(L_SIGUSR1));
	kill_self(L_SIGUSR1);
	unsigned long wait_mask = BIT(L_SIGUSR1);
	struct linux_timespec short_time = {0, 20 * 1000000l};
	long result = syscall5(SYS_ppoll, 0, 0, (long)&short_time, (long)&wait_mask, 8);
	int runs_during = handler_runs;
	unsigned long after = mask_now();
	set_mask(0);
	expect("ppoll: a signal its mask blocks does not interrupt (timeout)", result, 0);
	check(runs_during == 0 && after == BIT(L_SIGUSR1),
	      "ppoll: no handler during it, the old mask after", "runs %d mask %#lx", runs_during,
	      after);
	check(handler_runs == 1, "ppoll: the blocked signal runs once unblocked", "runs %d",
	      handler_runs);
}

/* The old mask lets SIGUSR1 through, ppoll's blocks it; a child sends SIGUSR1 while the
 * parent waits for a pipe, then writes into it: the pipe wins (1, POLLIN), and the
 * handler runs once the call has put the old mask back. */
static void check_ppoll_mask_blocks_arrival(void)
{
	int pipe_fds[2];
	if (pipe(pipe_fds) != 0) {
		check(false, "ppoll: pipe", "");
		return;
	}
	handler_runs = 0;
	set_mask(0);
	int pid = start_sender(10, L_SIGUSR1, pipe_fds[1]);
	struct linux_pollfd fd = {pipe_fds[0], L_POLLIN, 0};
	unsigned long wait_mask = BIT(L_SIGUSR1);
	long result = syscall5(SYS_ppoll, (long)&fd, 1, 0, (long)&wait_mask, 8);
	int runs = handler_runs;
	unsigned long after = mask_now();
	reap(pid);
	check(result == 1 && (fd.revents & L_POLLIN), "ppoll: a signal its mask blocks waits",
	      "result %ld revents %#x", result, fd.revents);
	check(runs == 1 && after == 0, "ppoll: then its handler runs, with the old mask back",
	      "runs %d mask %#lx", runs, after);
	close(pipe_fds[0]);
	close(pipe_fds[1]);
}

/* No mask argument: a signal arriving during the wait ends it with EINTR. */
static void check_ppoll_interrupted_without_mask(void)
{
	int pipe_fds[2];
	if (pipe(pipe_fds) != 0) {
		check(false, "ppoll: pipe", "");
		return;
	}
	handler_runs = 0;
	set_mask(0);
	int pid = start_sender(10, L_SIGUSR1, -1);
	struct linux_pollfd fd = {pipe_fds[0], L_POLLIN, 0};
	long result = syscall5(SYS_ppoll, (long)&fd, 1, 0, 0, 8);
	reap(pid);
	expect_error("ppoll: a signal during the wait is EINTR", result, L_EINTR);
	check(handler_runs == 1, "ppoll: the interrupting handler ran", "runs %d", handler_runs);
	close(pipe_fds[0]);
	close(pipe_fds[1]);
}

/* A mask of the wrong size: EINVAL, and the blocked set is untouched. */
static void check_ppoll_bad_mask_size(void)
{
	set_mask(BIT(L_SIGUSR2));
	unsigned long wait_mask = 0;
	struct linux_timespec zero = {0, 0};
	long result = syscall5(SYS_ppoll, 0, 0, (long)&zero, (long)&wait_mask, 4);
	unsigned long after = mask_now();
	set_mask(0);
	expect_error("ppoll: sigsetsize 4 is EINVAL", result, L_EINVAL);
	check(after == BIT(L_SIGUSR2), "ppoll: a bad mask changes nothing", "mask %#lx", after);
}

/* pselect6 with its {sigset pointer, size} pair: the same as the first ppoll case. */
static void check_pselect_mask_unblocks_pending(void)
{
	handler_runs = 0;
	set_mask(BIT(L_SIGUSR1));
	kill_self(L_SIGUSR1);
	unsigned long wait_mask = BIT(L_SIGUSR2);
	unsigned long mask_argument[2] = {(unsigned long)&wait_mask, 8};
	struct linux_timespec long_time = {10, 0};
	long result = syscall6(SYS_pselect6, 0, 0, 0, 0, (long)&long_time, (long)mask_argument);
	unsigned long after = mask_now();
	set_mask(0);
	expect_error("pselect6: a pending signal the mask unblocks is EINTR", result, L_EINTR);
	check(handler_runs == 1 && mask_in_handler == (BIT(L_SIGUSR2) | BIT(L_SIGUSR1)),
	      "pselect6: the handler ran with the call's mask", "runs %d mask %#lx", handler_runs,
	      mask_in_handler);
	check(after == BIT(L_SIGUSR1), "pselect6: the old mask is back after the handler",
	      "mask %#lx", after);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	install_handler();
	check_ppoll_mask_unblocks_pending();
	check_ppoll_mask_keeps_blocked();
	check_ppoll_mask_blocks_arrival();
	check_ppoll_interrupted_without_mask();
	check_ppoll_bad_mask_size();
	check_pselect_mask_unblocks_pending();
	printf("test_ppoll: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
