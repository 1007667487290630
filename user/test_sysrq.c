/* test_sysrq: a guest with known blocked tasks for Magic SysRq's task dump
 * (tests/test_sysrq.py sends a BREAK and `t` or `w` while this waits).
 *
 * Forks three children, each blocked in a different way, then prints
 *   SYSRQ-READY parent=P reader=A sleeper=B suspender=C
 * and waits for them (wait4: the parent blocks on its "child exited" queue):
 *   reader     reads a pipe nobody writes to        (the pipe's "pipe readable" queue)
 *   sleeper    nanosleep for 1000 s                  ("sleep", with a deadline)
 *   suspender  blocks SIGUSR1, sends it to itself, then sigsuspend with SIGUSR1 still
 *              blocked                               ("sigsuspend", SIGUSR1 pending)
 * Everyone is in the shell's foreground group, so a ^C ends them all. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Fork a child that runs `body`; the parent gets its pid. */
static pid_t start_child(void (*body)(int), int argument)
{
	pid_t pid = fork();
	if (pid < 0) {
		perror("test_sysrq: fork");
		exit(1);
	}
	if (pid == 0) {
		body(argument);
		_exit(0);
	}
	return pid;
}

static void read_pipe(int read_end)
{
	char byte;
	(void)read(read_end, &byte, 1);
}

static void sleep_long(int unused)
{
	(void)unused;
	struct timespec duration = {1000, 0};
	nanosleep(&duration, 0);
}

static void suspend_with_pending(int unused)
{
	(void)unused;
	sigset_t blocked;
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGUSR1);
	sigprocmask(SIG_BLOCK, &blocked, 0);
	kill(getpid(), SIGUSR1);
	sigsuspend(&blocked);
}

int main(void)
{
	int ends[2];
	if (pipe(ends) != 0) {
		perror("test_sysrq: pipe");
		return 1;
	}
	pid_t reader = start_child(read_pipe, ends[0]);
	pid_t sleeper = start_child(sleep_long, 0);
	pid_t suspender = start_child(suspend_with_pending, 0);
	/* The write end stays open here, so the reader waits for data, not for its end. */
	printf("SYSRQ-READY parent=%d reader=%d sleeper=%d suspender=%d\n", (int)getpid(),
	       (int)reader, (int)sleeper, (int)suspender);
	fflush(stdout);
	int status;
	while (wait(&status) > 0)
		;
	return 0;
}
