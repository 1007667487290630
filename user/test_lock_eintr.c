/* test_lock_eintr: a console write or read that waits for another process's write or
 * read to finish, for the backend's `writer` lock, the core's `expander` (the OPOST
 * buffer that a write with a newline goes through) or the core's `reader` lock, ends
 * when a signal with a handler arrives, as the wait for the UART does. Linux's
 * tty_write_lock and n_tty_read take theirs with mutex_lock_interruptible.
 * tests/test_tty_eintr.py boots it on both backends at uart.line=115200; for async
 * (the argument "fill", console=async,ring=8192) the ring is filled first, so that the
 * holder's write waits for room. Either way a child's write of LINES numbered lines
 * (3500 bytes on the wire, one piece) holds the locks for about 300 ms of guest time.
 *   write_queued  QUEUE_AFTER_NS into the holder's write, three children write too:
 *                 64 'q' bytes (no newline: they wait for `writer`) and 32 "Q\n" lines
 *                 (they wait for `expander`), both with a handler without SA_RESTART,
 *                 and 64 'r' bytes under SA_RESTART. SIGUSR1 comes SIGNAL_AFTER_NS
 *                 after they start: the first two return -1 EINTR with nothing sent,
 *                 while the holder still writes; the third restarts, and its bytes
 *                 follow the holder's lines.
 *   read_queued   a child reads the console (nothing is typed: it waits, holding
 *                 `reader`); a second child's read waits for that lock; SIGUSR1 ends
 *                 the second's read with -1 EINTR while the first still waits.
 * Children report by exit status (0: as expected). Each case prints "LOCK-BEGIN name",
 * its payload, then "LOCK-CASE name DETAILS ok|WRONG"; the last line is
 * "LOCK-DONE failures=F". Guest time throughout: the test runs under -icount. */
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

#define LINES           500 /* "%05d\n": 6 bytes each, 7 on the wire */
#define QUEUED_BYTES    64
#define QUEUE_AFTER_NS  5000000L  /* 5 ms */
#define SIGNAL_AFTER_NS 20000000L /* 20 ms */
#define GIVE_UP_NS      2000000000L

static volatile int handled;
static char lines[LINES * 6 + 1];
static int failures;

static void on_signal(int signal)
{
	(void)signal;
	handled++;
}

static void pause_ns(long ns)
{
	struct timespec pause = {ns / 1000000000L, ns % 1000000000L};
	nanosleep(&pause, NULL);
}

/* The child's exit status, or -1 if it is still running after `ns` of guest time (on a
 * kernel whose lock wait ignores signals: the case fails instead of hanging). */
static int reap_within(pid_t child, long ns)
{
	for (long waited = 0; waited <= ns; waited += 1000000L) {
		int status;
		if (waitpid(child, &status, WNOHANG) == child)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		pause_ns(1000000L);
	}
	return -1;
}

static int reap(pid_t child)
{
	int status;
	waitpid(child, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A child that, QUEUE_AFTER_NS after it starts, writes `length` bytes of `bytes` and
 * exits 0 if the result is `expected` (-1: with errno EINTR) and the handler ran once. */
static pid_t queued_writer(const char *bytes, size_t length, int flags, long expected)
{
	pid_t child = fork();
	if (child == 0) {
		catch_signal(SIGUSR1, on_signal, flags);
		pause_ns(QUEUE_AFTER_NS);
		errno = 0;
		long result = write(1, bytes, length);
		bool ok = result == expected && (expected != -1 || errno == EINTR) && handled == 1;
		_exit(ok ? 0 : 1);
	}
	return child;
}

/* A child that reads one byte of the console and exits 0 if the read returned -1 EINTR
 * with the handler run once (the first reader is killed instead). */
static pid_t reader(void)
{
	pid_t child = fork();
	if (child == 0) {
		catch_signal(SIGUSR1, on_signal, 0);
		char byte;
		errno = 0;
		long result = read(0, &byte, 1);
		_exit(result == -1 && errno == EINTR && handled == 1 ? 0 : 1);
	}
	return child;
}

/* Queue bytes without blocking until the ring is full (EAGAIN): the async backend's
 * writer then waits for room, holding its locks. At most 1024 writes: a polled console
 * (async's fallback when its options are bad) never says EAGAIN. */
static void fill_ring(void)
{
	static const char dots[64] =
	    "................................................................";
	int fd = open("/dev/console", O_WRONLY | O_NONBLOCK);
	for (int writes = 0; fd >= 0 && writes < 1024; writes++)
		if (write(fd, dots, sizeof dots) != (long)sizeof dots)
			break;
	if (fd >= 0)
		close(fd);
}

static void begin(const char *name)
{
	printf("\nLOCK-BEGIN %s\n", name);
	fflush(stdout);
	tcdrain(1);
}

static void report(const char *name, const char *details, bool ok)
{
	printf("\nLOCK-CASE %s %s %s\n", name, details, ok ? "ok" : "WRONG");
	fflush(stdout);
	tcdrain(1);
	if (!ok)
		failures++;
}

/* The lock holder: a child that writes the lines, then says so on `done` (one byte). */
static pid_t holder(int done)
{
	pid_t child = fork();
	if (child == 0) {
		size_t total = strlen(lines), written = 0;
		while (written < total) {
			long result = write(1, lines + written, total - written);
			if (result <= 0)
				break;
			written += (size_t)result;
		}
		(void)write(done, "d", 1);
		_exit(written == total ? 0 : 1);
	}
	return child;
}

static void write_queued(bool fill)
{
	static char quiet[QUEUED_BYTES], restarted[QUEUED_BYTES], newlines[QUEUED_BYTES];
	memset(quiet, 'q', sizeof quiet);
	memset(restarted, 'r', sizeof restarted);
	for (int i = 0; i < QUEUED_BYTES; i += 2)
		memcpy(newlines + i, "Q\n", 2);

	begin("write_queued");
	if (fill)
		fill_ring();
	int done[2];
	pipe(done);
	pid_t writing = holder(done[1]);
	close(done[1]);
	pid_t queued[3] = {
	    queued_writer(quiet, sizeof quiet, 0, -1),
	    queued_writer(newlines, sizeof newlines, 0, -1),
	    queued_writer(restarted, sizeof restarted, SA_RESTART, QUEUED_BYTES),
	};
	pause_ns(SIGNAL_AFTER_NS);
	for (int i = 0; i < 3; i++)
		kill(queued[i], SIGUSR1);
	int statuses[3];
	statuses[0] = reap_within(queued[0], GIVE_UP_NS);
	statuses[1] = reap_within(queued[1], GIVE_UP_NS);
	/* Ordering, not time: the interrupted writers are back while the holder still
	 * writes (its byte on `done` is not there yet). */
	fcntl(done[0], F_SETFL, O_NONBLOCK);
	char byte;
	bool holder_still_writing = read(done[0], &byte, 1) != 1;
	int holder_status = reap(writing);
	statuses[2] = reap_within(queued[2], GIVE_UP_NS);
	close(done[0]);
	char details[128];
	snprintf(details, sizeof details,
	         "holder=%d holder_still_writing=%d writer=%d expander=%d restarted=%d",
	         holder_status, holder_still_writing, statuses[0], statuses[1], statuses[2]);
	report("write_queued", details,
	       holder_status == 0 && holder_still_writing && statuses[0] == 0 && statuses[1] == 0 &&
	           statuses[2] == 0);
}

static void read_queued(void)
{
	begin("read_queued");
	pid_t first = fork();
	if (first == 0) {
		char byte;
		_exit(read(0, &byte, 1) == 1 ? 2 : 3);
	}
	pause_ns(QUEUE_AFTER_NS); /* the first child waits in its read, holding `reader` */
	pid_t second = reader();
	pause_ns(SIGNAL_AFTER_NS);
	kill(second, SIGUSR1);
	int status = reap_within(second, GIVE_UP_NS);
	int status_of_first;
	bool first_still_reads = waitpid(first, &status_of_first, WNOHANG) == 0;
	kill(first, SIGKILL);
	reap(first);
	if (status < 0)
		status = reap(second) + 1000; /* came only after the first reader ended */
	char details[96];
	snprintf(details, sizeof details, "second=%d first_still_reads=%d", status,
	         first_still_reads);
	report("read_queued", details, status == 0 && first_still_reads);
}

int main(int argc, char **argv)
{
	bool fill = argc > 1 && strcmp(argv[1], "fill") == 0;
	for (int i = 0; i < LINES; i++)
		snprintf(lines + 6 * i, 7, "%05d\n", i);
	write_queued(fill);
	read_queued();
	printf("LOCK-DONE failures=%d\n", failures);
	fflush(stdout);
	tcdrain(1);
	return failures ? 1 : 0;
}
