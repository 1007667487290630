/* S51: pipe throughput. The parent (pinned to hart 0) writes n pieces of 64 KiB into a
 * pipe; a `bench --worker pipe-reader` child pinned to hart 1 (hart 0 with one hart)
 * reads them in 64 KiB reads until end of file and exits 0 if every byte came. The time
 * runs from the first write until the child has been reaped, so it includes the last
 * reads; the rate is bytes over that time (the issue #24 target: >= 1 GB/s with writer
 * and reader on two harts, under QEMU -icount). */
#include <fcntl.h>
#include <sys/wait.h>

#include "bench.h"

#define S51_PIECE 65536

static unsigned char piece[S51_PIECE];

void s51_run(const struct section *self, unsigned n)
{
	(void)self;
	int harts = cfg.harts > 1 ? 2 : 1;
	bench_progress("S51 pipe 64 KiB x %u, %d hart(s) (%u/%u)", n, harts, ++step, steps);
	settle();
	int ends[2];
	if (pipe2(ends, O_CLOEXEC) != 0) {
		failures++;
		return;
	}
	int reader = dup(ends[0]); /* the one end the child gets */
	uint64_t bytes = (uint64_t)n * S51_PIECE;
	uint64_t args[] = {(uint64_t)reader, bytes, (uint64_t)(harts - 1)};
	pid_t child = spawn_worker("pipe-reader", 3, args);
	close(reader);
	close(ends[0]);
	memset(piece, '.', sizeof piece);
	bool written = child > 0;
	uint64_t start = bench_now_ns();
	for (unsigned i = 0; written && i < n; i++)
		written = write(ends[1], piece, sizeof piece) == (ssize_t)sizeof piece;
	close(ends[1]);
	int status = -1;
	bool reaped = child > 0 && waitpid(child, &status, 0) == child;
	uint64_t elapsed = bench_now_ns() - start;
	bool ok = written && reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (!ok)
		failures++;
	struct bench_json j;
	result_begin(&j, "S51", S51_PIECE, n);
	bench_json_int(&j, "harts", harts);
	bench_json_int(&j, "bytes", (int64_t)bytes);
	bench_json_ratio(&j, "elapsed_ms", elapsed, 1000000, 1, 3);
	bench_json_ratio(&j, "MB_per_s", bytes * 1000, elapsed, 1, 1);
	bench_json_int(&j, "errors", ok ? 0 : 1);
	result_emit(&j);
}

/* `bench --worker pipe-reader FD BYTES HART`: read FD to its end in 64 KiB reads; 0 if
 * exactly BYTES bytes came. */
int worker_pipe_reader(int fd, uint64_t bytes, int hart)
{
	pin_to_hart(hart);
	uint64_t seen = 0;
	ssize_t got;
	while ((got = read(fd, piece, sizeof piece)) > 0)
		seen += (uint64_t)got;
	return got == 0 && seen == bytes ? 0 : 1;
}
