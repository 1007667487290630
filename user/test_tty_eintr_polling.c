/* test_tty_eintr_polling: write() and tcdrain() on the polling console backend, which
 * spins on the UART, end when a signal with a handler arrives, as the async backend's do
 * (user/test_tty_eintr.c). tests/test_tty_eintr.py boots it with console=polling,
 * uart.line=9600 and uart.line.fifo=256, so one FIFO's drain takes 267 ms of guest
 * time, long after the signal's SIGNAL_AFTER_NS:
 *   write_eintr     output stopped (TCOOFF), nothing of the write sent: -1 EINTR
 *   write_restart   output stopped, SA_RESTART: the call restarts, and completes once a
 *                   child starts output again (TCOON)
 *   write_partial   a write of 4 FIFOs: the first FIFO's worth went, then the wait for
 *                   room: its count is the result (POSIX write: interrupted after some data)
 *   write_resume    SA_RESTART, numbered lines with OPOST|ONLCR: the first write stops
 *                   short, the loop writes the rest; the host checks the wire holds every
 *                   line exactly once
 *   drain_eintr     a FIFO in flight, tcdrain: -1 EINTR
 *   drain_restart   a FIFO in flight, SA_RESTART: tcdrain restarts and returns 0
 * With the argument "writes" (console=polling,byte, whose FIFO never holds more than the
 * byte in flight, so a drain is over within two byte times) the drain cases are left out.
 * Each case prints "EINTR-BEGIN name" before its payload and "EINTR-CASE name result=R
 * errno=E handled=H ok|WRONG" after it; the host counts the payload bytes in between
 * (each case its own letter, and write_resume's lines). The last line is "EINTR-DONE
 * failures=F". */
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

#define FIFO            256
#define SIGNAL_AFTER_NS 20000000L /* 20 ms */
#define RESUME_LINES    200       /* "%05d\n": 6 bytes each, 7 on the wire */

static volatile int handled;
static char payload[4 * FIFO];
static char lines[RESUME_LINES * 6 + 1];
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

static void pause_ns(long ns)
{
	struct timespec pause = {0, ns};
	nanosleep(&pause, NULL);
}

/* A child that sends SIGUSR1 to us after SIGNAL_AFTER_NS and, with `restart_output`,
 * starts stopped output again (TCOON) SIGNAL_AFTER_NS later. */
static pid_t signal_later(bool restart_output)
{
	pid_t parent = getpid();
	pid_t child = fork();
	if (child == 0) {
		pause_ns(SIGNAL_AFTER_NS);
		kill(parent, SIGUSR1);
		if (restart_output) {
			pause_ns(SIGNAL_AFTER_NS);
			tcflow(1, TCOON);
		}
		_exit(0);
	}
	return child;
}

static void reap(pid_t child)
{
	int status;
	waitpid(child, &status, 0);
}

static void begin(const char *name, char letter)
{
	printf("\nEINTR-BEGIN %s\n", name);
	fflush(stdout);
	tcdrain(1);
	memset(payload, letter, sizeof payload);
	handled = 0;
	errno = 0;
}

static void report(const char *name, long result, int error, bool ok)
{
	printf("\nEINTR-CASE %s result=%ld errno=%d handled=%d %s\n", name, result, error, handled,
	       ok ? "ok" : "WRONG");
	fflush(stdout);
	tcdrain(1);
	if (!ok)
		failures++;
}

int main(int argc, char **argv)
{
	bool drains = !(argc > 1 && strcmp(argv[1], "writes") == 0);
	for (int i = 0; i < RESUME_LINES; i++)
		snprintf(lines + 6 * i, 7, "%05d\n", i);

	/* write, output stopped, no SA_RESTART: EINTR, nothing sent */
	install(0);
	begin("write_eintr", 'e');
	tcflow(1, TCOOFF);
	pid_t child = signal_later(false);
	long result = write(1, payload, 64);
	int error = errno;
	reap(child);
	tcflow(1, TCOON);
	report("write_eintr", result, error, result == -1 && error == EINTR && handled == 1);

	/* write, output stopped, SA_RESTART: restarted, completes after TCOON */
	install(SA_RESTART);
	begin("write_restart", 'r');
	tcflow(1, TCOOFF);
	child = signal_later(true);
	result = write(1, payload, 64);
	error = errno;
	reap(child);
	report("write_restart", result, error, result == 64 && handled == 1);

	/* a write of 4 FIFOs: the first goes at once, the signal comes in the wait for room */
	install(0);
	begin("write_partial", 'p');
	child = signal_later(false);
	result = write(1, payload, sizeof payload);
	error = errno;
	reap(child);
	report("write_partial", result, error,
	       result > 0 && result < (long)sizeof payload && handled == 1);

	/* SA_RESTART, lines through ONLCR: short first write, the rest by the loop */
	install(SA_RESTART);
	begin("write_resume", 'l');
	child = signal_later(false);
	size_t total = strlen(lines), done = 0;
	long first = 0;
	int calls = 0;
	while (done < total) {
		result = write(1, lines + done, total - done);
		if (result <= 0)
			break;
		if (calls++ == 0)
			first = result;
		done += (size_t)result;
	}
	error = errno;
	reap(child);
	report("write_resume", first, error,
	       done == total && first > 0 && (size_t)first < total && calls >= 2 && handled == 1);

	if (!drains)
		goto done;

	/* tcdrain with a FIFO in flight, no SA_RESTART: EINTR */
	install(0);
	begin("drain_eintr", 'd');
	result = write(1, payload, FIFO);
	child = signal_later(false);
	result = tcdrain(1);
	error = errno;
	reap(child);
	report("drain_eintr", result, error, result == -1 && error == EINTR && handled == 1);

	/* tcdrain with a FIFO in flight, SA_RESTART: restarted, 0 once all has left */
	install(SA_RESTART);
	begin("drain_restart", 'D');
	result = write(1, payload, FIFO);
	child = signal_later(false);
	result = tcdrain(1);
	error = errno;
	reap(child);
	report("drain_restart", result, error, result == 0 && handled == 1);

done:
	printf("EINTR-DONE failures=%d\n", failures);
	fflush(stdout);
	tcdrain(1);
	return failures ? 1 : 0;
}
