/* rxcheck: the guest side of the RX flood tests (tests/test_reliability.py).
 *
 *   rxcheck read BYTES   a reader that keeps up: prints "RXCHECK-READY bytes=N", then
 *                        reads fd 0 until BYTES bytes have arrived, checking each against
 *                        rx_flood_byte(i); prints "RXCHECK-DONE bytes=N errors=E
 *                        first-error=I reads=R" (first-error -1: none) and exits 0 only
 *                        if every byte arrived in order
 *   rxcheck idle MIN MAX OVERRUNS
 *                        nobody reads while the host floods: prints "RXIDLE-READY", then
 *                        ticks: sleeps 10 ms and prints "RXIDLE-TICK k" (the system must
 *                        stay responsive), at least MIN times and until the console has
 *                        counted OVERRUNS dropped bytes, or MAX times; then
 *                        "RXIDLE-TICKS-DONE ticks=K rx_overruns=O"; then reads
 *                        everything that was kept (letters, rx_idle_byte(i)), printing
 *                        "RXIDLE-DRAINING" after the first read, until the first '!'
 *                        (which the host sends once it has stopped and seen that line),
 *                        and prints
 *                        "RXIDLE-DONE drained=D in-order-prefix=P rx_bytes=B
 *                        rx_overruns=O" (the console's telemetry at that moment)
 *
 * The host computes the same patterns (tests/test_reliability.py). */
#include <duplex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TERMINATOR '!'

/* The read test's bytes: every value 0..255 appears, with no short period. */
static uint8_t rx_flood_byte(unsigned long i)
{
	return (uint8_t)((i * 131 + (i >> 8) * 7 + (i >> 16)) & 0xff);
}

/* The idle test's bytes: lowercase letters only, so that TERMINATOR never appears. */
static char rx_idle_byte(unsigned long i)
{
	return (char)('a' + (i * 7 + (i >> 5)) % 26);
}

static int read_test(long bytes)
{
	static uint8_t buffer[4096];
	long received = 0, errors = 0, first_error = -1, reads = 0;
	printf("RXCHECK-READY bytes=%ld\n", bytes);
	fflush(stdout);
	while (received < bytes) {
		size_t want = (size_t)(bytes - received) < sizeof buffer
		                  ? (size_t)(bytes - received)
		                  : sizeof buffer;
		ssize_t got = read(0, buffer, want);
		if (got <= 0) {
			perror("rxcheck: read");
			break;
		}
		reads++;
		for (ssize_t i = 0; i < got; i++) {
			if (buffer[i] != rx_flood_byte((unsigned long)(received + i))) {
				if (first_error < 0)
					first_error = received + i;
				errors++;
			}
		}
		received += got;
	}
	printf("RXCHECK-DONE bytes=%ld errors=%ld first-error=%ld reads=%ld\n", received, errors,
	       first_error, reads);
	return received == bytes && errors == 0 ? 0 : 1;
}

/* The console's RX counters (what /bin/consolestat prints). */
static int rx_counters(struct console_telemetry *counters)
{
	if (ioctl(1, CONSOLE_IOCTL_TELEMETRY, counters) != 0) {
		perror("rxcheck: telemetry");
		return -1;
	}
	return 0;
}

static int idle_test(int min_ticks, int max_ticks, unsigned long long overruns)
{
	struct console_telemetry counters;
	printf("RXIDLE-READY\n");
	fflush(stdout);
	const struct timespec tick = {0, 10 * 1000 * 1000};
	int ticks = 0;
	for (;;) {
		nanosleep(&tick, NULL);
		printf("RXIDLE-TICK %d pid %d\n", ticks++, getpid());
		fflush(stdout);
		if (rx_counters(&counters) != 0)
			return 1;
		if (ticks >= max_ticks || (ticks >= min_ticks && counters.rx_overruns >= overruns))
			break;
	}
	printf("RXIDLE-TICKS-DONE ticks=%d rx_overruns=%llu\n", ticks,
	       (unsigned long long)counters.rx_overruns);
	fflush(stdout);
	/* Drain what was kept, until the host's terminator. */
	static char buffer[4096];
	long drained = 0, prefix = 0, reads = 0;
	int in_order = 1, done = 0;
	while (!done) {
		ssize_t got = read(0, buffer, sizeof buffer);
		if (got <= 0) {
			perror("rxcheck: read");
			return 1;
		}
		if (reads++ == 0) { /* the ring has room again: the terminator cannot be dropped */
			printf("RXIDLE-DRAINING\n");
			fflush(stdout);
		}
		for (ssize_t i = 0; i < got && !done; i++) {
			if (buffer[i] == TERMINATOR) {
				done = 1;
				break;
			}
			if (in_order && buffer[i] == rx_idle_byte((unsigned long)drained))
				prefix++;
			else
				in_order = 0;
			drained++;
		}
	}
	if (rx_counters(&counters) != 0)
		return 1;
	printf("RXIDLE-DONE drained=%ld in-order-prefix=%ld rx_bytes=%llu rx_overruns=%llu\n",
	       drained, prefix, (unsigned long long)counters.rx_bytes,
	       (unsigned long long)counters.rx_overruns);
	return 0;
}

int main(int argc, char **argv)
{
	/* Every byte value as it is: no line discipline between the host and us. */
	struct termios raw;
	if (tcgetattr(0, &raw) == 0) {
		tcflag_t output = raw.c_oflag; /* our lines still end in "\r\n" */
		cfmakeraw(&raw);
		raw.c_oflag = output;
		tcsetattr(0, TCSANOW, &raw);
	}
	if (argc == 3 && strcmp(argv[1], "read") == 0)
		return read_test(atol(argv[2]));
	if (argc == 5 && strcmp(argv[1], "idle") == 0)
		return idle_test(atoi(argv[2]), atoi(argv[3]), strtoull(argv[4], NULL, 0));
	fprintf(stderr, "usage: rxcheck read BYTES | rxcheck idle MIN MAX OVERRUNS\n");
	return 2;
}
