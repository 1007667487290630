/* linetest: measure what the console's wire takes, for the line-model tests
 * (tests/test_line_model.py; run with uart.line=BAUD under -icount).
 *   linetest SEND_BYTES DRAIN_EACH_ITERS ONE_BYTE_ITERS
 *
 * Each measurement starts from an idle line (tcdrain first) and is timed with
 * CLOCK_MONOTONIC; output processing is off while it runs, so exactly the bytes written
 * go on the wire. Results are printed once everything is measured, one line each:
 *   LINETEST info backend=B options=O line_model=0|1 baud=N fifo=N byte_ps=N
 *   LINETEST send bytes=N ns=T                  one write of N bytes, then tcdrain
 *   LINETEST drain_each size=1024 iters=K bytes=N ns=T   K x (write 1024 B, tcdrain)
 *   LINETEST one_byte n=K min_ns=T max_ns=T     K x (write 1 B, tcdrain), each timed
 *   LINETEST done overruns=N tx_events=N        the line model's counters afterwards
 * The host turns these into line rates; the program itself judges nothing. */
#include <duplex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define DRAIN_EACH_SIZE 1024
#define MAX_ONE_BYTE    1000

static uint64_t now_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

/* Printable filler, so that the serial log stays readable. */
static void fill(unsigned char *buffer, size_t length)
{
	for (size_t i = 0; i < length; i++)
		buffer[i] = (unsigned char)('a' + i % 26);
}

static int write_all(const unsigned char *data, size_t length)
{
	while (length > 0) {
		ssize_t done = write(1, data, length);
		if (done <= 0)
			return -1;
		data += done;
		length -= (size_t)done;
	}
	return 0;
}

/* Write `length` bytes and wait until the last one has left the UART: returns the ns
 * that took, or 0 if the write failed. */
static uint64_t timed_send(const unsigned char *data, size_t length)
{
	uint64_t start = now_ns();
	if (write_all(data, length) != 0)
		return 0;
	tcdrain(1);
	return now_ns() - start;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: linetest SEND_BYTES DRAIN_EACH_ITERS ONE_BYTE_ITERS\n");
		return 2;
	}
	unsigned long send_bytes = strtoul(argv[1], NULL, 0);
	unsigned long drain_iters = strtoul(argv[2], NULL, 0);
	unsigned long one_byte_iters = strtoul(argv[3], NULL, 0);
	if (one_byte_iters > MAX_ONE_BYTE)
		one_byte_iters = MAX_ONE_BYTE;

	struct console_info info;
	if (ioctl(1, CONSOLE_IOCTL_INFO, &info) != 0) {
		perror("linetest: CONSOLE_IOCTL_INFO");
		return 1;
	}
	size_t buffer_size = send_bytes > DRAIN_EACH_SIZE ? send_bytes : DRAIN_EACH_SIZE;
	unsigned char *buffer = malloc(buffer_size);
	if (!buffer) {
		fprintf(stderr, "linetest: no memory for %lu bytes\n", (unsigned long)buffer_size);
		return 1;
	}
	fill(buffer, buffer_size);

	struct termios saved, raw;
	tcgetattr(1, &saved);
	raw = saved;
	cfmakeraw(&raw);
	fflush(stdout);
	tcsetattr(1, TCSADRAIN, &raw);

	/* Settle before each group: anything still on the wire would be charged to it. */
	tcdrain(1);
	uint64_t send_ns = send_bytes ? timed_send(buffer, send_bytes) : 0;

	tcdrain(1);
	uint64_t drain_each_ns = 0;
	uint64_t drain_start = now_ns();
	for (unsigned long i = 0; i < drain_iters; i++) {
		write_all(buffer, DRAIN_EACH_SIZE);
		tcdrain(1);
	}
	drain_each_ns = now_ns() - drain_start;

	tcdrain(1);
	uint64_t one_min = UINT64_MAX, one_max = 0;
	for (unsigned long i = 0; i < one_byte_iters; i++) {
		uint64_t took = timed_send(buffer + i % 26, 1);
		one_min = took < one_min ? took : one_min;
		one_max = took > one_max ? took : one_max;
	}

	tcsetattr(1, TCSADRAIN, &saved);
	struct console_info after;
	ioctl(1, CONSOLE_IOCTL_INFO, &after);
	printf("\nLINETEST info backend=%s options=%s line_model=%u baud=%u fifo=%u byte_ps=%llu\n",
	       info.backend, info.options[0] ? info.options : "-", info.line_model, info.baud,
	       info.fifo_depth, (unsigned long long)info.byte_ps);
	if (send_bytes)
		printf("LINETEST send bytes=%lu ns=%llu\n", send_bytes,
		       (unsigned long long)send_ns);
	if (drain_iters)
		printf("LINETEST drain_each size=%d iters=%lu bytes=%lu ns=%llu\n", DRAIN_EACH_SIZE,
		       drain_iters, drain_iters * DRAIN_EACH_SIZE,
		       (unsigned long long)drain_each_ns);
	if (one_byte_iters)
		printf("LINETEST one_byte n=%lu min_ns=%llu max_ns=%llu\n", one_byte_iters,
		       (unsigned long long)one_min, (unsigned long long)one_max);
	printf("LINETEST done overruns=%llu tx_events=%llu\n",
	       (unsigned long long)after.line_overruns, (unsigned long long)after.line_tx_events);
	free(buffer);
	return 0;
}
