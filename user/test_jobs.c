/* test_jobs: job control on the console, as Linux's tty layer does it
 * (drivers/tty/tty_jobctrl.c): the console as the controlling terminal of init's
 * session, TIOCGPGRP/TIOCSPGRP/TIOCGSID/TIOCSCTTY/TIOCNOTTY and their errno rules, SIGTTIN
 * for a background read, SIGTTOU for a background write under TOSTOP and for a
 * background tcsetpgrp, EIO instead when the signal is ignored or blocked or the group is
 * orphaned, wait4 WUNTRACED / WCONTINUED with Linux's status words, a typed ^C and ^Z
 * reaching the foreground group only, SIGHUP to the foreground group when the session
 * leader that holds the console exits, and a session leader taking the console again.
 *
 * Prints "ok NAME" or "FAIL NAME: DETAIL" per check (user/check.h), then "test_jobs: N
 * passed, M failed"; exits 0 only if nothing failed. Built with both C libraries (user.mk
 * GLIBC_PROGRAMS). Run as the first program (pid 1, init): it leads the session the
 * console belongs to. tests/test_jobs.py types the ^C and the ^Z when it prints
 * "JOBS-TYPE ^C" / "JOBS-TYPE ^Z".
 *
 * The checks run in a child, the worker (in init's group, the foreground), because a
 * group whose members' parent is init is orphaned (POSIX; Linux
 * will_become_orphaned_pgrp skips init), and the background checks need groups that are
 * not: the worker's children, each in a group of its own. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* Linux's numbers, for the raw wait4 status words (asm-generic/signal.h) and the
 * ioctls glibc's headers may not name (asm-generic/ioctls.h). */
#define LINUX_SIGTTIN 21
#define LINUX_SIGTTOU 22
#define LINUX_SIGTSTP 20
#ifndef TIOCGSID
#define TIOCGSID 0x5429
#endif
#define WAIT_UNTRACED  2
#define WAIT_CONTINUED 8

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
	nanosleep(&t, 0);
}

/* fork with our output flushed first (the child would print it again). */
static pid_t fork_flushed(void)
{
	fflush(stdout);
	return fork();
}

/* wait4 through the raw call: the status word exactly as the kernel writes it. */
static long raw_wait(pid_t pid, int *status, int options)
{
	long got;
	while ((got = syscall(SYS_wait4, pid, status, options, 0)) < 0 && errno == EINTR)
		; /* SIGCHLD's handler ran (no SA_RESTART) */
	return got;
}

/* Reap `pid`; its ordinary (libc) status. */
static int reap(pid_t pid)
{
	int status = -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* The foreground group of fd 0, or -errno. */
static long foreground(void)
{
	pid_t group;
	return ioctl(0, TIOCGPGRP, &group) < 0 ? -errno : group;
}

static void check_errno(const char *name, int result, int want)
{
	int got = result < 0 ? errno : 0;
	check(result == -1 && got == want, name, "result %d errno %d (%s), want %d (%s)", result,
	      got, strerror(got), want, strerror(want));
}

/* The ioctls and their errno rules, from the worker (foreground, not a leader). */
static void check_ioctls(void)
{
	pid_t session = 0;
	check(foreground() == 1, "TIOCGPGRP: init's group is the foreground", "got %ld",
	      foreground());
	check(ioctl(0, TIOCGSID, &session) == 0 && session == 1,
	      "TIOCGSID: the console is init's session's", "session %d", session);
	check(tcgetpgrp(1) == 1, "tcgetpgrp: init's group", "");

	int pipe_ends[2];
	pipe(pipe_ends);
	pid_t group = getpgrp();
	check_errno("TIOCGPGRP on a pipe: ENOTTY", ioctl(pipe_ends[0], TIOCGPGRP, &group), ENOTTY);
	check_errno("TIOCSPGRP on a pipe: ENOTTY", ioctl(pipe_ends[0], TIOCSPGRP, &group), ENOTTY);
	close(pipe_ends[0]);
	close(pipe_ends[1]);
	group = -1;
	check_errno("TIOCSPGRP negative: EINVAL", ioctl(0, TIOCSPGRP, &group), EINVAL);
	group = 30000;
	check_errno("TIOCSPGRP no such group: ESRCH", ioctl(0, TIOCSPGRP, &group), ESRCH);
	check_errno("TIOCSCTTY not a session leader: EPERM", ioctl(0, TIOCSCTTY, 0), EPERM);

	/* A child in a session of its own: the console is not its terminal, and it cannot
	 * take it from init's session without arg 1; its group is another session's. */
	int ready[2];
	pipe(ready);
	pid_t child = fork_flushed();
	if (child == 0) {
		int bits = 0;
		if (setsid() != getpid())
			bits |= 1;
		pid_t got;
		if (!(ioctl(0, TIOCGPGRP, &got) < 0 && errno == ENOTTY))
			bits |= 2;
		if (!(ioctl(0, TIOCSCTTY, 0) < 0 && errno == EPERM))
			bits |= 4;
		if (!(ioctl(0, TIOCNOTTY) < 0 && errno == ENOTTY))
			bits |= 8;
		write(ready[1], "r", 1);
		sleep_ms(200); /* while the worker tries our group */
		_exit(bits);
	}
	char byte;
	read(ready[0], &byte, 1);
	group = child;
	check_errno("TIOCSPGRP another session's group: EPERM", ioctl(0, TIOCSPGRP, &group), EPERM);
	int status = reap(child);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "new session: no terminal (ENOTTY), TIOCSCTTY 0 EPERM, TIOCNOTTY ENOTTY",
	      "failed bits %#x", WEXITSTATUS(status));
	close(ready[0]);
	close(ready[1]);

	/* TIOCNOTTY by a process that does not lead its session: only it loses the
	 * terminal, its parent keeps it. */
	child = fork_flushed();
	if (child == 0) {
		int bits = 0;
		if (ioctl(0, TIOCNOTTY) != 0)
			bits |= 1;
		pid_t got;
		if (!(ioctl(0, TIOCGPGRP, &got) < 0 && errno == ENOTTY))
			bits |= 2;
		if (!(ioctl(0, TIOCNOTTY) < 0 && errno == ENOTTY))
			bits |= 4;
		_exit(bits);
	}
	status = reap(child);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0 && foreground() == 1,
	      "TIOCNOTTY: the caller alone loses the terminal", "bits %#x, foreground %ld",
	      WEXITSTATUS(status), foreground());
}

static volatile int chld_count;
static void count_chld(int signal)
{
	(void)signal;
	chld_count++;
}

/* A child in a background group of its own that reads the console: SIGTTIN stops it;
 * wait4 WUNTRACED reports 0x7f | SIGTTIN << 8, SIGCONT continues it (WCONTINUED:
 * 0xffff), its read runs again and stops it again. */
static void check_background_read(void)
{
	struct sigaction action = {0};
	action.sa_handler = count_chld;
	sigaction(SIGCHLD, &action, 0);
	chld_count = 0;
	pid_t child = fork_flushed();
	if (child == 0) {
		setpgid(0, 0);
		char byte;
		read(0, &byte, 1);
		_exit(1);
	}
	setpgid(child, child);
	int status = -1;
	long got = raw_wait(child, &status, WAIT_UNTRACED);
	check(got == child && status == (0x7f | LINUX_SIGTTIN << 8),
	      "background read: SIGTTIN stops it, wait4 WUNTRACED 0x157f", "wait4 %ld status %#x",
	      got, status);
	check(chld_count == 1, "SIGCHLD when the child stops", "count %d", chld_count);
	kill(child, SIGCONT);
	status = -1;
	got = waitpid(child, &status, WUNTRACED);
	check(got == child && WIFSTOPPED(status) && WSTOPSIG(status) == SIGTTIN,
	      "continued, the read runs again and SIGTTIN stops it again (WSTOPSIG)",
	      "waitpid %ld status %#x", got, status);
	status = -1;
	check(raw_wait(child, &status, WAIT_UNTRACED | WNOHANG) == 0, "a stop is reported once",
	      "status %#x", status);
	kill(child, SIGKILL);
	status = reap(child);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "SIGKILL ends a stopped child",
	      "status %#x", status);

	/* WCONTINUED: a child that stopped itself and stays running once continued (a
	 * child that stops again first replaces the continue by the stop, as on Linux). */
	child = fork_flushed();
	if (child == 0) {
		raise(SIGSTOP);
		sleep_ms(100);
		_exit(5);
	}
	status = -1;
	got = raw_wait(child, &status, WAIT_UNTRACED);
	check(got == child && status == 0x137f, "SIGSTOP: wait4 WUNTRACED 0x137f",
	      "wait4 %ld status %#x", got, status);
	kill(child, SIGCONT);
	status = -1;
	got = raw_wait(child, &status, WAIT_CONTINUED);
	check(got == child && status == 0xffff, "SIGCONT: wait4 WCONTINUED 0xffff",
	      "wait4 %ld status %#x", got, status);
	status = reap(child);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 5, "the continued child runs to its exit",
	      "status %#x", status);

	/* SA_NOCLDSTOP: no SIGCHLD for the stop (the exit still sends one). */
	action.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &action, 0);
	chld_count = 0;
	child = fork_flushed();
	if (child == 0) {
		setpgid(0, 0);
		char byte;
		read(0, &byte, 1);
		_exit(1);
	}
	setpgid(child, child);
	got = raw_wait(child, &status, WAIT_UNTRACED);
	check(got == child && chld_count == 0, "SA_NOCLDSTOP: no SIGCHLD for a stop",
	      "wait4 %ld count %d", got, chld_count);
	kill(child, SIGKILL);
	reap(child);
	action.sa_handler = SIG_DFL;
	action.sa_flags = 0;
	sigaction(SIGCHLD, &action, 0);
}

/* A background child: `how` says what it does; its exit code is 0 on success. */
enum background_test {
	READ_IGNORED,
	READ_BLOCKED,
	WRITE_NO_TOSTOP,
	WRITE_TOSTOP_IGNORED,
	SETPGRP_IGNORED
};

static int background_child(enum background_test how)
{
	char byte = 'x';
	sigset_t set;
	switch (how) {
	case READ_IGNORED:
		signal(SIGTTIN, SIG_IGN);
		return read(0, &byte, 1) == -1 && errno == EIO ? 0 : 1;
	case READ_BLOCKED:
		sigemptyset(&set);
		sigaddset(&set, SIGTTIN);
		sigprocmask(SIG_BLOCK, &set, 0);
		return read(0, &byte, 1) == -1 && errno == EIO ? 0 : 1;
	case WRITE_NO_TOSTOP:
		return write(1, "\r", 1) == 1 ? 0 : 1;
	case WRITE_TOSTOP_IGNORED:
		signal(SIGTTOU, SIG_IGN);
		return write(1, "\r", 1) == 1 ? 0 : 1;
	case SETPGRP_IGNORED:
		signal(SIGTTOU, SIG_IGN);
		return tcsetpgrp(0, getpgrp()) == 0 && tcgetpgrp(0) == getpgrp() ? 0 : 1;
	}
	return 2;
}

static pid_t start_background(enum background_test how)
{
	pid_t child = fork_flushed();
	if (child == 0) {
		setpgid(0, 0);
		_exit(background_child(how));
	}
	setpgid(child, child);
	return child;
}

static void set_tostop(bool on)
{
	struct termios t;
	tcgetattr(0, &t);
	if (on)
		t.c_lflag |= TOSTOP;
	else
		t.c_lflag &= ~(tcflag_t)TOSTOP;
	tcsetattr(0, TCSANOW, &t);
}

/* A background child whose `what` must stop it with SIGTTOU. */
static void check_stopped_by_ttou(const char *name, int what)
{
	pid_t child = fork_flushed();
	if (child == 0) {
		setpgid(0, 0);
		if (what == 0)
			write(1, "\r", 1);
		else
			tcsetpgrp(0, getpgrp());
		_exit(1);
	}
	setpgid(child, child);
	int status = -1;
	long got = raw_wait(child, &status, WAIT_UNTRACED);
	check(got == child && status == (0x7f | LINUX_SIGTTOU << 8), name, "wait4 %ld status %#x",
	      got, status);
	kill(child, SIGKILL);
	reap(child);
}

static void check_background_rules(void)
{
	static const char *const names[] = {
	    [READ_IGNORED] = "background read with SIGTTIN ignored: EIO",
	    [READ_BLOCKED] = "background read with SIGTTIN blocked: EIO",
	    [WRITE_NO_TOSTOP] = "background write without TOSTOP goes out",
	    [WRITE_TOSTOP_IGNORED] = "background write, TOSTOP, SIGTTOU ignored: goes out",
	    [SETPGRP_IGNORED] = "background tcsetpgrp with SIGTTOU ignored takes the terminal",
	};
	for (int how = READ_IGNORED; how <= WRITE_NO_TOSTOP; how++) {
		int status = reap(start_background(how));
		check(WIFEXITED(status) && WEXITSTATUS(status) == 0, names[how], "status %#x",
		      status);
	}
	set_tostop(true);
	check_stopped_by_ttou("background write under TOSTOP: SIGTTOU stops it", 0);
	int status = reap(start_background(WRITE_TOSTOP_IGNORED));
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, names[WRITE_TOSTOP_IGNORED],
	      "status %#x", status);
	set_tostop(false);
	check_stopped_by_ttou("background tcsetpgrp: SIGTTOU stops it", 1);

	/* The worker ignores SIGTTOU from here on, as a shell does, to take the terminal
	 * back from the background. */
	signal(SIGTTOU, SIG_IGN);
	pid_t child = start_background(SETPGRP_IGNORED);
	status = reap(child);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0 && foreground() == child,
	      names[SETPGRP_IGNORED], "status %#x, foreground %ld", status, foreground());
	check(tcsetpgrp(0, getpgrp()) == 0 && foreground() == 1,
	      "tcsetpgrp back from the background, SIGTTOU ignored", "foreground %ld",
	      foreground());

	/* An orphaned group (its member's parent is init): a read is EIO, no stop, and
	 * SIGTSTP's stop is discarded. */
	int report[2];
	pipe(report);
	pid_t middle = fork_flushed();
	if (middle == 0) {
		if (fork() == 0) {
			setpgid(0, 0);
			while (getppid() != 1)
				sleep_ms(5);
			char byte;
			int bits = read(0, &byte, 1) == -1 && errno == EIO ? 0 : 1;
			kill(getpid(), SIGTSTP); /* discarded: we go on */
			bits |= 0x30;
			write(report[1], &bits, sizeof bits);
			_exit(0);
		}
		_exit(0);
	}
	reap(middle);
	int bits = -1;
	read(report[0], &bits, sizeof bits);
	check(bits == 0x30, "orphaned group: background read EIO, SIGTSTP discarded", "bits %#x",
	      bits);
	close(report[0]);
	close(report[1]);
}

/* A child that waits for SIGINT (exit 42) or SIGUSR1 (exit 7), in a group of its own. */
static void exit_42(int signal)
{
	(void)signal;
	_exit(42);
}
static void exit_7(int signal)
{
	(void)signal;
	_exit(7);
}

static pid_t start_waiter(int ready_fd)
{
	pid_t child = fork_flushed();
	if (child == 0) {
		setpgid(0, 0);
		signal(SIGINT, exit_42);
		signal(SIGUSR1, exit_7);
		write(ready_fd, "r", 1);
		for (;;)
			sleep_ms(1000);
	}
	setpgid(child, child);
	return child;
}

/* A typed ^C reaches the foreground group only; a typed ^Z stops it. */
static void check_typed_signals(void)
{
	int ready[2];
	pipe(ready);
	pid_t front = start_waiter(ready[1]);
	pid_t back = start_waiter(ready[1]);
	char bytes[2];
	read(ready[0], bytes, 1);
	read(ready[0], bytes + 1, 1);
	check(tcsetpgrp(0, front) == 0 && foreground() == front,
	      "tcsetpgrp: a child's group in the foreground", "foreground %ld", foreground());
	printf("JOBS-TYPE ^C\n");
	fflush(stdout);
	int status = reap(front);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 42, "typed ^C: SIGINT to the foreground",
	      "status %#x", status);
	kill(back, SIGUSR1);
	status = reap(back);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 7,
	      "typed ^C: the background group got no SIGINT", "status %#x", status);

	front = start_waiter(ready[1]);
	read(ready[0], bytes, 1);
	tcsetpgrp(0, front);
	printf("JOBS-TYPE ^Z\n");
	fflush(stdout);
	status = -1;
	long got = raw_wait(front, &status, WAIT_UNTRACED);
	check(got == front && status == (0x7f | LINUX_SIGTSTP << 8),
	      "typed ^Z: SIGTSTP stops the foreground", "wait4 %ld status %#x", got, status);
	kill(-front, SIGCONT);
	got = raw_wait(front, &status, WAIT_CONTINUED);
	check(got == front && status == 0xffff, "kill(-group, SIGCONT) continues it",
	      "wait4 %ld status %#x", got, status);
	kill(front, SIGUSR1);
	status = reap(front);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 7, "the continued job runs on",
	      "status %#x", status);
	tcsetpgrp(0, getpgrp());
	close(ready[0]);
	close(ready[1]);
}

static int hangup_fd;
static void report_hangup(int signal)
{
	(void)signal;
	write(hangup_fd, "H", 1);
	_exit(0);
}

/* A new session's leader takes the console (TIOCSCTTY 1: from init's session), its
 * child in the foreground; when the leader exits the child gets SIGHUP. */
static void check_hangup(void)
{
	int pipe_ends[2];
	pipe(pipe_ends);
	hangup_fd = pipe_ends[1];
	pid_t leader = fork_flushed();
	if (leader == 0) {
		setsid();
		int bits = ioctl(0, TIOCSCTTY, 1) == 0 && tcgetpgrp(0) == getpid() ? 0 : 1;
		int ready[2];
		pipe(ready);
		if (fork() == 0) {
			signal(SIGHUP, report_hangup);
			write(ready[1], "r", 1);
			for (;;)
				sleep_ms(1000);
		}
		char byte;
		read(ready[0], &byte, 1);
		_exit(bits);
	}
	int status = reap(leader);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "TIOCSCTTY 1: a new session's leader takes the console", "status %#x", status);
	char byte = 0;
	read(pipe_ends[0], &byte, 1);
	check(byte == 'H', "the leader exits: SIGHUP to the foreground group", "byte %#x", byte);
	pid_t group;
	check_errno("the old session has no terminal now", ioctl(0, TIOCGPGRP, &group), ENOTTY);
	close(pipe_ends[0]);
	close(pipe_ends[1]);
}

int main(void)
{
	if (getpid() != 1) {
		printf("test_jobs: run me as the first program (init=/bin/test_jobs)\n");
		return 2;
	}
	int counts[2] = {0, 0}, counts_pipe[2];
	pipe(counts_pipe);
	pid_t worker = fork_flushed();
	if (worker == 0) {
		check_ioctls();
		check_background_read();
		check_background_rules();
		check_typed_signals();
		check_hangup();
		fflush(stdout);
		counts[0] = passed;
		counts[1] = failed;
		write(counts_pipe[1], counts, sizeof counts);
		_exit(0);
	}
	/* init: the worker's counts come back through the pipe. */
	int status = reap(worker);
	if (read(counts_pipe[0], counts, sizeof counts) != sizeof counts || !WIFEXITED(status))
		counts[1]++;
	passed += counts[0];
	failed += counts[1];
	/* The console has no session now (its leader exited): init's session leader
	 * takes it back, its group in the foreground. */
	pid_t session = 0;
	check(ioctl(0, TIOCSCTTY, 0) == 0 && foreground() == 1 &&
	          ioctl(0, TIOCGSID, &session) == 0 && session == 1,
	      "TIOCSCTTY 0: init's session leader takes the free console back",
	      "foreground %ld session %d", foreground(), session);
	check(ioctl(0, TIOCSCTTY, 0) == 0, "TIOCSCTTY again by its session's leader: 0", "");
	/* Adopted children (the hung-up one, the orphan's) are reaped. */
	while (wait(&status) > 0)
		;
	printf("test_jobs: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
