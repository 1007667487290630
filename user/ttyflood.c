/* ttyflood: typed bytes under RX and TX floods at once (tests/test_tty_flood.py).
 *
 *   ttyflood MODE BYTES WRITERS PAUSE_MS IXOFF
 *
 * MODE canonical (ICANON, ECHO: the defaults) or raw (ICANON off, ECHO on, VMIN 1);
 * IXOFF 1 turns input flow control on. WRITERS children, pinned to harts 1.. in turn,
 * write 1 KiB lines ("TXFLOOD W S" and dots: no lowercase letters, no ^Q/^S), one every
 * WRITER_GAP_NS, until killed. The parent, on hart 0, prints "TTYFLOOD-READY", does not read until
 * the host's bytes piling up in the line discipline have made it send STOP (IXOFF) or drop and
 * count bytes (or PAUSE_MS have passed), then reads until every one of the BYTES the host sends
 * (flood_byte(i): letters, '\n' every 64th) is accounted for: read, or counted lost in the
 * console's rx_overruns. It checks what it read against the pattern, kills and reaps the writers,
 * and prints "TTYFLOOD-DONE received=R mismatches=M in_order=P rx_overruns=O input_dropped=D
 *    throttles=T echo_dropped=E writers_killed=K flow_chars=F"
 * (in_order: the bytes read before the first mismatch). Exit status 0 when the
 * accounting closed (R + O == BYTES) and every writer was killed as planned. */
#include <duplex.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MAX_WRITERS 8
#define LINE        1024
#define LOOK_MS     100 /* how often the reader re-reads the counters while nothing comes */
/* Between a writer's lines: 3 writers still offer ~6 MB/s, hundreds of times any serial
 * line. Without a gap, polling writers' UART register accesses, each under QEMU's big
 * lock, kept QEMU's I/O thread from handing over received bytes: a few per second. */
#define WRITER_GAP_NS 500000

/* The host's bytes (tests/test_tty_flood.py flood_byte): letters, a newline every 64th. */
static char flood_byte(long i)
{
	if (i % 64 == 63)
		return '\n';
	return (char)('a' + (i * 7 + (i >> 6)) % 26);
}

static void pin(int hart)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(hart, &set);
	sched_setaffinity(0, sizeof set, &set);
}

static void writer(int id, int hart)
{
	pin(hart);
	static char line[LINE];
	const struct timespec gap = {0, WRITER_GAP_NS};
	memset(line, '.', sizeof line);
	line[LINE - 1] = '\n';
	for (long seq = 0;; seq++) {
		int head = snprintf(line, 32, "TXFLOOD %d %ld ", id, seq);
		line[head] = '.';
		if (write(1, line, LINE) < 0)
			_exit(1);
		nanosleep(&gap, NULL);
	}
}

static int telemetry(struct console_telemetry *counters)
{
	return ioctl(1, CONSOLE_IOCTL_TELEMETRY, counters);
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: ttyflood canonical|raw BYTES WRITERS PAUSE_MS IXOFF\n");
		return 2;
	}
	int canonical = strcmp(argv[1], "canonical") == 0;
	long bytes = atol(argv[2]);
	int writers = atoi(argv[3]);
	long pause_ms = atol(argv[4]);
	int ixoff = atoi(argv[5]);
	if (writers > MAX_WRITERS)
		writers = MAX_WRITERS;
	int harts = (int)sysconf(_SC_NPROCESSORS_ONLN);
	pin(0);

	struct termios t;
	tcgetattr(0, &t);
	t.c_lflag |= ECHO;
	if (canonical) {
		t.c_lflag |= ICANON;
	} else {
		t.c_lflag &= ~(tcflag_t)ICANON;
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
	}
	if (ixoff)
		t.c_iflag |= IXOFF;
	else
		t.c_iflag &= ~(tcflag_t)IXOFF;
	tcsetattr(0, TCSANOW, &t);
	tcflush(0, TCIFLUSH);
	ioctl(1, CONSOLE_IOCTL_RESET_TELEMETRY, 0);

	pid_t children[MAX_WRITERS];
	for (int i = 0; i < writers; i++) {
		children[i] = fork();
		if (children[i] == 0)
			writer(i, harts > 1 ? 1 + i % (harts - 1) : 0);
	}
	printf("TTYFLOOD-READY mode=%s bytes=%ld writers=%d ixoff=%d\n", argv[1], bytes, writers,
	       ixoff);
	fflush(stdout);
	/* Not reading, in 10 ms steps, until the pile-up has done what the run is about (the
	 * line discipline sent STOP under IXOFF, or dropped and counted bytes without it),
	 * or PAUSE_MS at most: the polling backend takes no byte while nobody reads. */
	struct console_telemetry counters;
	const struct timespec step = {0, 10 * 1000000L};
	for (long waited = 0; waited < pause_ms; waited += 10) {
		telemetry(&counters);
		if (ixoff ? counters.throttles > 0 : counters.rx_overruns > 0)
			break;
		nanosleep(&step, NULL);
	}

	static char buffer[4096];
	long received = 0, mismatches = 0, in_order = 0, quiet = 0;
	memset(&counters, 0, sizeof counters);
	for (;;) {
		telemetry(&counters);
		if (received + (long)counters.rx_overruns >= bytes)
			break;
		struct pollfd wanted = {.fd = 0, .events = POLLIN};
		if (poll(&wanted, 1, LOOK_MS) <= 0) {
			/* nothing yet: look at the counters again; say so now and then, so that
			 * a run that never ends shows where it stands */
			if (++quiet % 50 == 0) {
				int readable = 0;
				ioctl(0, FIONREAD, &readable);
				printf("\nTTYFLOOD-WAITING received=%ld rx_bytes=%llu "
				       "rx_overruns=%llu "
				       "readable=%d\n",
				       received, (unsigned long long)counters.rx_bytes,
				       (unsigned long long)counters.rx_overruns, readable);
				fflush(stdout);
			}
			continue;
		}
		ssize_t got = read(0, buffer, sizeof buffer);
		if (got <= 0)
			break;
		for (ssize_t i = 0; i < got; i++) {
			if (buffer[i] != flood_byte(received + i))
				mismatches++;
			else if (mismatches == 0)
				in_order++;
		}
		received += got;
	}
	int killed = 0, status;
	for (int i = 0; i < writers; i++)
		kill(children[i], SIGKILL);
	for (int i = 0; i < writers; i++)
		if (waitpid(children[i], &status, 0) == children[i] && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGKILL)
			killed++;
	telemetry(&counters);
	tcflush(1, TCOFLUSH); /* the writers' lines still queued go: the result comes next */
	printf("\nTTYFLOOD-DONE received=%ld mismatches=%ld in_order=%ld rx_overruns=%llu "
	       "input_dropped=%llu throttles=%llu echo_dropped=%llu writers_killed=%d "
	       "flow_chars=%llu\n",
	       received, mismatches, in_order, (unsigned long long)counters.rx_overruns,
	       (unsigned long long)counters.input_dropped, (unsigned long long)counters.throttles,
	       (unsigned long long)counters.echo_dropped, killed,
	       (unsigned long long)counters.flow_chars);
	fflush(stdout);
	tcdrain(1);
	return received + (long)counters.rx_overruns == bytes && killed == writers ? 0 : 1;
}
