/* test_tty_eintr: write() and tcdrain() on the console, blocked because the async
 * backend's TX ring is full and the (modelled) line slow, end when a signal with a
 * handler arrives (tests/test_tty_eintr.py boots it with console=async,ring=8192 and
 * uart.line=115200):
 *   write_eintr        ring full, nothing of the write sent: -1 EINTR
 *   write_partial      ring nearly empty, a write of 4 ring sizes: the bytes already
 *                      queued are its result (POSIX write: interrupted after some data),
 *                      SA_RESTART or not
 *   write_restart      ring full, SA_RESTART: the call restarts and completes
 *   drain_eintr        ring full, tcdrain: -1 EINTR
 *   drain_restart      ring full, SA_RESTART: tcdrain restarts and returns 0
 * A child sends SIGUSR1 SIGNAL_AFTER_NS after it starts, long before the wire could have
 * made room (one 4 KiB piece is 355 ms at 115200). Each case prints one line
 * "EINTR-CASE name result=R errno=E handled=H"; the last is "EINTR-DONE failures=F".
 * The payload is '.' bytes, flushed from the ring (TCOFLUSH) after each case. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "catch_signal.h"

#define RING            8192
#define PIECE           4096
#define SIGNAL_AFTER_NS 20000000L /* 20 ms */

static volatile int handled;
static char payload[4 * RING];
static int failures;

static void on_signal(int signal)
{
	(void)signal;
	handled++;
}

static void install(int flags)
{
	catch_signal(SIGUSR1, on_signal, flags);
}

/* A child that sends SIGUSR1 to us after SIGNAL_AFTER_NS. */
static pid_t signal_later(void)
{
	pid_t parent = getpid();
	pid_t child = fork();
	if (child == 0) {
		struct timespec pause = {0, SIGNAL_AFTER_NS};
		nanosleep(&pause, NULL);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	return child;
}

/* Queue bytes without blocking until the ring is full (EAGAIN). */
static void fill_ring(void)
{
	int fd = open("/dev/console", O_WRONLY | O_NONBLOCK);
	while (fd >= 0 && write(fd, payload, 64) == 64) {
	}
	if (fd >= 0)
		close(fd);
}

static void report(const char *name, long result, int error, bool ok)
{
	tcflush(1, TCOFLUSH); /* the ring's dots go; the line below is sent whole */
	printf("\nEINTR-CASE %s result=%ld errno=%d handled=%d %s\n", name, result, error, handled,
	       ok ? "ok" : "WRONG");
	fflush(stdout);
	tcdrain(1);
	if (!ok)
		failures++;
}

static void reap(pid_t child)
{
	int status;
	waitpid(child, &status, 0);
}

int main(void)
{
	memset(payload, '.', sizeof payload);
	struct termios t;
	tcgetattr(1, &t);
	t.c_oflag &= ~(tcflag_t)OPOST; /* the dots go as they are */
	tcsetattr(1, TCSADRAIN, &t);

	/* write, ring full, no SA_RESTART: EINTR */
	install(0);
	handled = 0;
	fill_ring();
	pid_t child = signal_later();
	errno = 0;
	long result = write(1, payload, PIECE);
	int error = errno;
	reap(child);
	report("write_eintr", result, error, result == -1 && error == EINTR && handled == 1);

	/* write of 4 ring sizes, ring empty: the first pieces go in, then the wait */
	install(SA_RESTART);
	handled = 0;
	child = signal_later();
	errno = 0;
	result = write(1, payload, sizeof payload);
	error = errno;
	reap(child);
	report("write_partial", result, error,
	       result > 0 && result < (long)sizeof payload && result % PIECE == 0 && handled == 1);

	/* write, ring full, SA_RESTART: restarted, and completes */
	handled = 0;
	fill_ring();
	child = signal_later();
	errno = 0;
	result = write(1, payload, 64);
	error = errno;
	reap(child);
	report("write_restart", result, error, result == 64 && handled == 1);

	/* tcdrain, ring full, no SA_RESTART: EINTR */
	install(0);
	handled = 0;
	fill_ring();
	child = signal_later();
	errno = 0;
	result = tcdrain(1);
	error = errno;
	reap(child);
	report("drain_eintr", result, error, result == -1 && error == EINTR && handled == 1);

	/* tcdrain, ring full, SA_RESTART: restarted, returns 0 once all has left */
	install(SA_RESTART);
	handled = 0;
	fill_ring();
	child = signal_later();
	errno = 0;
	result = tcdrain(1);
	error = errno;
	reap(child);
	report("drain_restart", result, error, result == 0 && handled == 1);

	printf("EINTR-DONE failures=%d\n", failures);
	fflush(stdout);
	tcdrain(1);
	return failures ? 1 : 0;
}
