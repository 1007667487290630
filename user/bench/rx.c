/* Receiving, S30: a non-blocking read on an empty console must return -1/EAGAIN at once,
 * through O_NONBLOCK and through FIONBIO, and return bytes already waiting; the section
 * passes or fails and times the reads. Its own descriptors, so fd 1 stays blocking. */
#include <fcntl.h>

#include "bench.h"

/* S30: non-blocking reads on an empty console: -1/EAGAIN, through O_NONBLOCK and through
 * FIONBIO; bytes already waiting (if any) are returned. Own descriptors, so fd 1 stays
 * blocking.
 * Called by main() through sections[] (main.c). */
void s30_run(const struct section *self, unsigned n)
{
	(void)self;
	bench_progress("S30 n=%u (%u/%u)", n, ++step, steps);
	settle();
	unsigned eagain = 0, data_reads = 0, other = 0;
	uint64_t rx_bytes = 0;
	int waiting = -1;
	int fd = open("/dev/console", O_RDONLY | O_NONBLOCK);
	bool opened = fd >= 0;
	if (opened)
		ioctl(fd, FIONREAD, &waiting);
	char buffer[64];
	for (unsigned i = 0; i < n && opened; i++) {
		uint64_t a = bench_ticks();
		ssize_t got = read(fd, buffer, sizeof buffer);
		samples[i] = bench_ticks() - a;
		if (got < 0 && errno == EAGAIN)
			eagain++;
		else if (got > 0)
			data_reads++, rx_bytes += (uint64_t)got;
		else
			other++;
	}
	if (opened)
		close(fd);
	/* FIONBIO on a blocking descriptor */
	bool fionbio_eagain = false;
	int fd2 = open("/dev/console", O_RDONLY);
	if (fd2 >= 0) {
		int on = 1;
		if (ioctl(fd2, FIONBIO, &on) == 0) {
			ssize_t got = read(fd2, buffer, sizeof buffer);
			fionbio_eagain = (got < 0 && errno == EAGAIN) || got > 0;
			if (got > 0)
				rx_bytes += (uint64_t)got;
		}
		close(fd2);
	}
	unsigned measured = opened ? n : 0;
	struct bench_stats s = bench_summarise(samples, measured);
	bool pass = opened && other == 0 && eagain + data_reads == n && fionbio_eagain;
	struct bench_json j;
	result_begin(&j, "S30", 0, measured);
	bench_json_str(&j, "result", pass ? "PASS" : "FAIL");
	bench_json_int(&j, "eagain", eagain);
	bench_json_int(&j, "data_reads", data_reads);
	bench_json_int(&j, "rx_bytes", (int64_t)rx_bytes);
	bench_json_int(&j, "waiting_at_start", waiting);
	bench_json_bool(&j, "fionbio_eagain", fionbio_eagain);
	bench_json_int(&j, "errors", (int64_t)other + (opened ? 0 : 1));
	bench_json_stats(&j, "read_", &s);
	result_emit(&j);
	if (!pass)
		failures++;
}
