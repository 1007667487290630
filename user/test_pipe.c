/* test_pipe: pipes (pipe2), descriptors (dup, dup3, fcntl's descriptor commands,
 * close-on-exec) and waiting for descriptors (ppoll, pselect6). Built with picolibc
 * (/bin/test_pipe) and with glibc (/bin/glibc/test_pipe); both must pass the same checks
 * (tests/test_pipe.py, on 1 and 4 harts).
 *
 * Prints "ok NAME" / "FAIL NAME: DETAIL" per check (user/check.h), then
 * "test_pipe: N passed, M failed"; exits 0 only if nothing failed.
 *
 *   test_pipe                          run the checks
 *   test_pipe sink FD BYTES HART       (a child) read FD to its end; exit 0 if exactly
 *                                      BYTES bytes of the test pattern came
 *   test_pipe source FD BYTES HART     (a child) write BYTES bytes of the pattern to FD
 *                                      in pieces of varied sizes, then exit
 *   test_pipe records FD ID COUNT      (a child) write COUNT PIPE_BUF-byte records of
 *                                      the byte ID to FD
 *   test_pipe late FD                  (a child) sleep 20 ms, write one byte to FD
 *   test_pipe counter FD OUT HART      (a child) read FD to its end, then write the byte
 *                                      count (8 bytes) to OUT
 *   test_pipe console-out              fill the console's output queue (O_NONBLOCK
 *                                      writes until EAGAIN), then ppoll for POLLOUT
 *   test_pipe console                  wait for console input with ppoll, then with
 *                                      pselect6, printing what came (tests/test_pipe.py
 *                                      types it)
 * HART >= 0 pins the child to that hart first (sched_setaffinity). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <duplex.h>

#include "check.h"
#include "uapi/stat.h"

#define SELF DUPLEX_BIN_DIR "/test_pipe"

/* Linux values for raw calls. */
#define LINUX_EBADF           9
#define LINUX_EAGAIN          11
#define LINUX_EFAULT          14
#define LINUX_EINVAL          22
#define LINUX_EMFILE          24
#define LINUX_ESPIPE          29
#define LINUX_EPIPE           32
#define LINUX_O_NONBLOCK      04000
#define LINUX_O_CLOEXEC       02000000
#define LINUX_AT_FDCWD        (-100)
#define LINUX_F_DUPFD         0
#define LINUX_F_GETFD         1
#define LINUX_F_SETFD         2
#define LINUX_F_GETFL         3
#define LINUX_F_DUPFD_CLOEXEC 1030
#define LINUX_S_IFMT          0170000
#define LINUX_S_IFIFO         0010000
#define LINUX_FIONREAD        0x541B
#define LINUX_POLLIN          0x001
#define LINUX_POLLOUT         0x004
#define LINUX_POLLERR         0x008
#define LINUX_POLLHUP         0x010
#define LINUX_POLLNVAL        0x020
#define LINUX_POLLRDNORM      0x040
#define LINUX_POLLWRNORM      0x100

#define MAX_FILES     32 /* Duplex's descriptor table (RLIMIT_NOFILE) */
#define PIPE_SIZE     65536
#define PIPE_BUF_SIZE 4096

struct linux_pollfd {
	int32_t fd;
	int16_t events;
	int16_t revents;
};

struct linux_timespec {
	int64_t seconds;
	int64_t nanoseconds;
};

static long raw_ppoll(struct linux_pollfd *fds, long count, long timeout_ns)
{
	struct linux_timespec time = {timeout_ns / 1000000000, timeout_ns % 1000000000};
	return syscall5(SYS_ppoll, (long)fds, count, timeout_ns < 0 ? 0 : (long)&time, 0, 8);
}

static long raw_ppoll_console(struct linux_pollfd *entry)
{
	return raw_ppoll(entry, 1, 0);
}

/* The test pattern: byte i of a stream. */
static unsigned char pattern(uint64_t i)
{
	return (unsigned char)(i * 7 % 251);
}

/* Open descriptors, by asking each one for its descriptor flags. */
static int open_descriptors(void)
{
	int count = 0;
	for (int fd = 0; fd < MAX_FILES; fd++)
		if (syscall2(SYS_fcntl, fd, LINUX_F_GETFD) >= 0)
			count++;
	return count;
}

/* Raw pipe2: 0 or -errno. */
static long raw_pipe(int fds[2], long flags)
{
	return syscall2(SYS_pipe2, (long)fds, flags);
}

static void close_pair(int fds[2])
{
	close(fds[0]);
	close(fds[1]);
}

static int hart_count(void)
{
	uint64_t mask = 0;
	if (syscall3(SYS_sched_getaffinity, 0, sizeof mask, (long)&mask) < 0)
		return 1;
	return __builtin_popcountll(mask);
}

static void pin_to_hart(int hart)
{
	if (hart < 0)
		return;
	uint64_t mask = 1ull << hart;
	syscall3(SYS_sched_setaffinity, 0, sizeof mask, (long)&mask);
}

/* Start this program as a child with `mode` and its arguments. */
static pid_t start_child(const char *mode, long a, long b, long c)
{
	char texts[3][24];
	snprintf(texts[0], sizeof texts[0], "%ld", a);
	snprintf(texts[1], sizeof texts[1], "%ld", b);
	snprintf(texts[2], sizeof texts[2], "%ld", c);
	char *argv[] = {SELF, (char *)mode, texts[0], texts[1], texts[2], NULL};
	char *envp[] = {NULL};
	fflush(stdout);
	return spawn(SELF, argv, envp);
}

/* The child's wait status, or -1. */
static int wait_child(pid_t child)
{
	int status;
	if (child < 0 || waitpid(child, &status, 0) != child)
		return -1;
	return status;
}

/* ------------------------------------------------------------------ children */

/* One write of 1 MiB into `fd`: it fills the pipe and waits there until killed. */
static int child_blocked_writer(int fd)
{
	static char big[1 << 20];
	write(fd, big, sizeof big);
	return 3; /* the parent kills us before the reader ever reads */
}

/* Writes to a pipe whose read end is closed: killed by SIGPIPE (its default action), or,
 * with `ignore`, sees EPIPE and exits 0. */
static int child_sigpipe(int ignore)
{
	if (ignore)
		signal(SIGPIPE, SIG_IGN);
	int fds[2];
	if (pipe(fds) != 0)
		return 3;
	close(fds[0]);
	ssize_t written = write(fds[1], "x", 1);
	return written == -1 && errno == EPIPE ? 0 : 2;
}

static int child_sink(int fd, uint64_t bytes, int hart)
{
	pin_to_hart(hart);
	static unsigned char buffer[8192];
	uint64_t seen = 0;
	bool same = true;
	ssize_t got;
	while ((got = read(fd, buffer, sizeof buffer)) > 0) {
		for (ssize_t i = 0; i < got; i++)
			same = same && buffer[i] == pattern(seen + (uint64_t)i);
		seen += (uint64_t)got;
	}
	return got == 0 && same && seen == bytes ? 0 : 1;
}

static int child_source(int fd, uint64_t bytes, int hart)
{
	pin_to_hart(hart);
	static unsigned char buffer[20000];
	static const size_t sizes[] = {1, 4096, 100, 20000, 7, 65536 % 20000, 4095, 12345};
	uint64_t sent = 0;
	for (int step = 0; sent < bytes; step++) {
		size_t size = sizes[step % (sizeof sizes / sizeof sizes[0])];
		if (size > bytes - sent)
			size = (size_t)(bytes - sent);
		for (size_t i = 0; i < size; i++)
			buffer[i] = pattern(sent + i);
		ssize_t put = write(fd, buffer, size);
		if (put <= 0)
			return 1;
		sent += (uint64_t)put;
	}
	return 0;
}

static int child_records(int fd, int id, int count)
{
	static unsigned char record[PIPE_BUF_SIZE];
	memset(record, id, sizeof record);
	for (int i = 0; i < count; i++)
		if (write(fd, record, sizeof record) != (ssize_t)sizeof record)
			return 1;
	return 0;
}

static int child_late(int fd)
{
	struct timespec pause = {0, 20000000};
	nanosleep(&pause, NULL);
	return write(fd, "!", 1) == 1 ? 0 : 1;
}

/* Read FD to its end; report the byte count through OUT. */
static int child_counter(int fd, int out, int hart)
{
	pin_to_hart(hart);
	static unsigned char buffer[3000]; /* odd sizes: readers take turns mid-record */
	uint64_t seen = 0;
	ssize_t got;
	while ((got = read(fd, buffer, sizeof buffer)) > 0)
		seen += (uint64_t)got;
	return got == 0 && write(out, &seen, sizeof seen) == (ssize_t)sizeof seen ? 0 : 1;
}

/* Console input through ppoll and pselect6: not ready before anything is typed, ready
 * (woken by the backend, or its re-look) once a byte comes. */
static int console_waits(void)
{
	/* Byte by byte, as a program that polls a terminal sets it: in canonical mode (the
	 * console's default, as Linux's) the console is readable only once a line ends. */
	struct termios settings;
	tcgetattr(0, &settings);
	settings.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	tcsetattr(0, TCSANOW, &settings);
	struct linux_pollfd entry = {0, LINUX_POLLIN, -1};
	long r = raw_ppoll_console(&entry);
	printf("console: before input ppoll %ld revents %#x\n", r, entry.revents);
	printf("console: waiting (ppoll)\n");
	fflush(stdout);
	entry.revents = -1;
	r = syscall5(SYS_ppoll, (long)&entry, 1, 0, 0, 8);
	char byte = 0;
	long got = read(0, &byte, 1);
	printf("console: ppoll %ld revents %#x read %ld '%c'\n", r, entry.revents, got, byte);
	printf("console: waiting (pselect6)\n");
	fflush(stdout);
	uint64_t set = 1;
	r = syscall6(SYS_pselect6, 1, (long)&set, 0, 0, 0, 0);
	got = read(0, &byte, 1);
	printf("console: pselect6 %ld set %#lx read %ld '%c'\n", r, (unsigned long)set, got, byte);
	return 0;
}

/* POLLOUT on the console: not while its output queue is full, again once it drained. */
static int console_room(void)
{
	static char dots[1024];
	memset(dots, '.', sizeof dots);
	fcntl(1, F_SETFL, O_NONBLOCK);
	long r, written = 0;
	while (written < (1 << 20) && (r = syscall3(SYS_write, 1, (long)dots, sizeof dots)) > 0)
		written += r; /* bounded: a UART that sends at once (QEMU's) never fills it */
	struct linux_pollfd entry = {1, LINUX_POLLOUT, -1};
	long full = raw_ppoll(&entry, 1, 0);
	int full_revents = entry.revents;
	long later = raw_ppoll(&entry, 1, -1);
	fcntl(1, F_SETFL, 0);
	printf("\nconsole-out: write %ld (%s), full ppoll %ld revents %#x, later ppoll %ld "
	       "revents %#x\n",
	       r, r == -LINUX_EAGAIN ? "EAGAIN" : "?", full, full_revents, later, entry.revents);
	return written > 0 ? 0 : 1;
}

/* ------------------------------------------------------------------ pipes */

/* Data through one pipe in this process; what fstat, lseek and ioctl say of it. */
static void test_basics(void)
{
	int fds[2];
	expect("pipe", pipe(fds), 0);
	check(fds[0] >= 3 && fds[1] == fds[0] + 1, "pipe takes the lowest descriptors", "fds %d %d",
	      fds[0], fds[1]);
	expect("write to a pipe", write(fds[1], "hello", 5), 5);
	int queued = -1;
	expect("FIONREAD", syscall3(SYS_ioctl, fds[0], LINUX_FIONREAD, (long)&queued), 0);
	expect("FIONREAD counts the bytes", queued, 5);
	char text[16] = {0};
	expect("read part", read(fds[0], text, 2), 2);
	expect("read the rest", read(fds[0], text + 2, sizeof text - 2), 3);
	check(memcmp(text, "hello", 5) == 0, "bytes come out in order", "got '%s'", text);
	syscall3(SYS_ioctl, fds[0], LINUX_FIONREAD, (long)&queued);
	expect("FIONREAD after reading", queued, 0);

	struct linux_stat status;
	long r = syscall2(SYS_fstat, fds[0], (long)&status);
	check(r == 0 && (status.mode & LINUX_S_IFMT) == LINUX_S_IFIFO, "fstat read end S_IFIFO",
	      "result %ld, mode %#o", r, status.mode);
	uint64_t inode = status.inode;
	r = syscall2(SYS_fstat, fds[1], (long)&status);
	check(r == 0 && (status.mode & LINUX_S_IFMT) == LINUX_S_IFIFO && status.inode == inode,
	      "fstat write end: the same FIFO", "result %ld, mode %#o", r, status.mode);
	expect_error("lseek on a pipe", syscall3(SYS_lseek, fds[0], 0, 0), LINUX_ESPIPE);
	expect_error("write to the read end", syscall3(SYS_write, fds[0], (long)"x", 1),
	             LINUX_EBADF);
	expect_error("read from the write end", syscall3(SYS_read, fds[1], (long)text, 1),
	             LINUX_EBADF);
	expect("F_GETFL read end", syscall2(SYS_fcntl, fds[0], LINUX_F_GETFL), O_RDONLY);
	expect("F_GETFL write end", syscall2(SYS_fcntl, fds[1], LINUX_F_GETFL), O_WRONLY);
	check(!isatty(fds[0]) && errno == ENOTTY, "a pipe is not a terminal", "errno %d", errno);

	expect_error("pipe2 bad flags", raw_pipe(fds, 1), LINUX_EINVAL);
	expect_error("pipe2 EFAULT", syscall2(SYS_pipe2, 8, 0), LINUX_EFAULT);
	close_pair(fds);
}

/* O_NONBLOCK: EAGAIN on empty and full; PIPE_BUF writes whole; EOF and EPIPE. */
static void test_nonblocking_and_ends(void)
{
	int fds[2];
	expect("pipe2 O_NONBLOCK", raw_pipe(fds, LINUX_O_NONBLOCK), 0);
	check(syscall2(SYS_fcntl, fds[0], LINUX_F_GETFL) & LINUX_O_NONBLOCK,
	      "O_NONBLOCK in F_GETFL", "");
	char byte;
	expect_error("read empty O_NONBLOCK", syscall3(SYS_read, fds[0], (long)&byte, 1),
	             LINUX_EAGAIN);
	static unsigned char block[PIPE_BUF_SIZE];
	memset(block, 'a', sizeof block);
	long total = 0, r;
	while ((r = syscall3(SYS_write, fds[1], (long)block, sizeof block)) > 0)
		total += r;
	expect_error("write to a full pipe: EAGAIN", r, LINUX_EAGAIN);
	expect("the pipe holds 64 KiB", total, PIPE_SIZE);
	char small[100];
	expect("drain 100 bytes", read(fds[0], small, sizeof small), 100);
	expect_error("PIPE_BUF write with 100 bytes free: EAGAIN, nothing written",
	             syscall3(SYS_write, fds[1], (long)block, sizeof block), LINUX_EAGAIN);
	int queued = 0;
	syscall3(SYS_ioctl, fds[0], LINUX_FIONREAD, (long)&queued);
	expect("nothing of it went in", queued, PIPE_SIZE - 100);
	expect("a 100-byte write fits", write(fds[1], block, 100), 100);
	close_pair(fds);

	expect("pipe", pipe(fds), 0);
	write(fds[1], "end", 3);
	close(fds[1]);
	char text[8];
	expect("data before end of file", read(fds[0], text, sizeof text), 3);
	expect("end of file once the writer closed", read(fds[0], text, sizeof text), 0);
	close(fds[0]);

	expect("pipe", pipe(fds), 0);
	close(fds[0]);
	expect_error("write without a reader: EPIPE", syscall3(SYS_write, fds[1], (long)"x", 1),
	             LINUX_EPIPE);
	close(fds[1]);
	/* Not init (which only gets the signals it handles): SIGPIPE's default action. */
	expect("a writer without readers is killed by SIGPIPE (13)",
	       wait_child(start_child("sigpipe", 0, 0, 0)), 13);
	expect("one that ignores SIGPIPE sees EPIPE", wait_child(start_child("sigpipe", 1, 0, 0)),
	       0);
}

/* A writer killed in the middle of a write that waits for room: it dies (SIGKILL), the
 * bytes it got in stay readable, then end of file (its descriptor closed with it); the
 * descriptor count at the end of main shows nothing leaked. */
static void test_writer_killed_mid_write(void)
{
	int fds[2];
	expect("pipe for a writer to kill", pipe(fds), 0);
	syscall3(SYS_fcntl, fds[0], LINUX_F_SETFD, FD_CLOEXEC); /* the child holds the write end */
	pid_t child = start_child("blocked-writer", fds[1], 0, 0);
	close(fds[1]);
	int queued = 0;
	struct timespec pause = {0, 1000000};
	for (int i = 0; i < 5000 && queued < PIPE_SIZE; i++) {
		nanosleep(&pause, NULL);
		syscall3(SYS_ioctl, fds[0], LINUX_FIONREAD, (long)&queued);
	}
	expect("the writer filled the pipe and waits for room", queued, PIPE_SIZE);
	expect("kill it mid-write", kill(child, SIGKILL), 0);
	expect("its status: killed by SIGKILL (9)", wait_child(child), 9);
	static char buffer[16384];
	long total = 0, got;
	while ((got = read(fds[0], buffer, sizeof buffer)) > 0)
		total += got;
	expect("what went in before it died reads back", total, PIPE_SIZE);
	expect("then end of file", got, 0);
	close(fds[0]);
}

/* A reader and a writer in different processes (on different harts with more than
 * one): blocking both ways, everything arrives in order, end of file at the end. */
static void test_between_processes(void)
{
	int harts = hart_count();
	int other = harts > 1 ? 1 : -1;
	if (harts > 1)
		pin_to_hart(0);
	const uint64_t bytes = 1000000;
	int fds[2];
	/* The child must not hold the write end, or its read would never end: FD_CLOEXEC
	 * keeps it out of the spawned child. */
	expect("pipe for a sink", pipe(fds), 0);
	expect("F_SETFD FD_CLOEXEC", syscall3(SYS_fcntl, fds[1], LINUX_F_SETFD, FD_CLOEXEC), 0);
	pid_t child = start_child("sink", fds[0], (long)bytes, other);
	close(fds[0]);
	static unsigned char buffer[30000];
	uint64_t sent = 0;
	bool ok = child > 0;
	while (ok && sent < bytes) {
		size_t size = 1 + (sent * 13) % sizeof buffer;
		if (size > bytes - sent)
			size = (size_t)(bytes - sent);
		for (size_t i = 0; i < size; i++)
			buffer[i] = pattern(sent + i);
		ok = write(fds[1], buffer, size) == (ssize_t)size;
		sent += size;
	}
	close(fds[1]);
	check(ok, "writer to another process: every write whole", "sent %lu", (unsigned long)sent);
	expect("reader in another process got every byte in order", wait_child(child), 0);

	expect("pipe for a source", pipe2(fds, O_CLOEXEC), 0);
	expect("pipe2 O_CLOEXEC sets FD_CLOEXEC", syscall2(SYS_fcntl, fds[0], LINUX_F_GETFD),
	       FD_CLOEXEC);
	int writer = dup(fds[1]); /* dup clears FD_CLOEXEC: the child gets this one */
	expect("dup clears FD_CLOEXEC", syscall2(SYS_fcntl, writer, LINUX_F_GETFD), 0);
	child = start_child("source", writer, (long)bytes, other);
	close(writer);
	close(fds[1]);
	uint64_t seen = 0;
	bool same = true;
	ssize_t got;
	while ((got = read(fds[0], buffer, sizeof buffer)) > 0) {
		for (ssize_t i = 0; i < got; i++)
			same = same && buffer[i] == pattern(seen + (uint64_t)i);
		seen += (uint64_t)got;
	}
	close(fds[0]);
	check(got == 0 && same && seen == bytes,
	      "reading from another process: all, in order, then EOF", "got %ld, seen %lu",
	      (long)got, (unsigned long)seen);
	expect("the writer exited 0", wait_child(child), 0);
}

/* Three writers of PIPE_BUF records at once: every record arrives whole. */
static void test_atomic_writes(void)
{
	int fds[2];
	expect("pipe for records", pipe2(fds, O_CLOEXEC), 0);
	int writer = dup(fds[1]);
	const int writers = 3, count = 40;
	pid_t children[3];
	for (int i = 0; i < writers; i++)
		children[i] = start_child("records", writer, 'A' + i, count);
	close(writer);
	close(fds[1]);
	static unsigned char stream[PIPE_BUF_SIZE];
	size_t filled = 0;
	int records[3] = {0, 0, 0}, torn = 0;
	ssize_t got;
	while ((got = read(fds[0], stream + filled, sizeof stream - filled)) > 0) {
		filled += (size_t)got;
		if (filled < sizeof stream)
			continue;
		int id = stream[0] - 'A';
		bool whole = id >= 0 && id < writers;
		for (size_t i = 1; whole && i < sizeof stream; i++)
			whole = stream[i] == stream[0];
		if (whole)
			records[id]++;
		else
			torn++;
		filled = 0;
	}
	close(fds[0]);
	int statuses = 0;
	for (int i = 0; i < writers; i++)
		statuses |= wait_child(children[i]);
	check(statuses == 0 && torn == 0 && filled == 0 && records[0] == count &&
	          records[1] == count && records[2] == count,
	      "PIPE_BUF writes from 3 processes arrive whole",
	      "records %d %d %d, torn %d, left %zu", records[0], records[1], records[2], torn,
	      filled);
}

/* Two writer and two reader processes on one pipe, each on a hart of its own where
 * there are four: every byte is read exactly once and every process ends (no wake-up
 * lost between them). */
static void test_many_readers_and_writers(void)
{
	int harts = hart_count();
	int fds[2], counts[2];
	expect("pipe shared by four", pipe2(fds, O_CLOEXEC), 0);
	expect("pipe for the counts", pipe2(counts, O_CLOEXEC), 0);
	int reader = dup(fds[0]), writer = dup(fds[1]), out = dup(counts[1]);
	const uint64_t each = 300000;
	pid_t children[4];
	children[0] = start_child("source", writer, (long)each, harts >= 4 ? 1 : -1);
	children[1] = start_child("source", writer, (long)each, harts >= 4 ? 2 : -1);
	close(writer);
	close(fds[1]);
	/* The readers must not hold a write end: it is closed before they start. */
	children[2] = start_child("counter", reader, out, harts >= 4 ? 3 : -1);
	children[3] = start_child("counter", reader, out, harts >= 4 ? 0 : -1);
	close(reader);
	close(out);
	close(fds[0]);
	close(counts[1]);
	int statuses = 0;
	for (int i = 0; i < 4; i++)
		statuses |= wait_child(children[i]);
	uint64_t total = 0, count;
	int reports = 0;
	while (read(counts[0], &count, sizeof count) == (ssize_t)sizeof count) {
		total += count;
		reports++;
	}
	close(counts[0]);
	check(statuses == 0 && reports == 2 && total == 2 * each,
	      "2 writers, 2 readers: every byte read once", "statuses %#x, reports %d, total %lu",
	      statuses, reports, (unsigned long)total);
}

/* ------------------------------------------------------------------ descriptors */

static void test_descriptors(void)
{
	int fds[2];
	pipe(fds);
	expect_error("dup3 same descriptor", syscall3(SYS_dup3, fds[0], fds[0], 0), LINUX_EINVAL);
	expect_error("dup3 bad flags", syscall3(SYS_dup3, fds[0], 20, 1), LINUX_EINVAL);
	expect_error("dup3 closed old", syscall3(SYS_dup3, 25, 20, 0), LINUX_EBADF);
	expect_error("dup3 new out of range", syscall3(SYS_dup3, fds[0], MAX_FILES, 0),
	             LINUX_EBADF);
	expect("dup3", syscall3(SYS_dup3, fds[1], 20, LINUX_O_CLOEXEC), 20);
	expect("dup3 O_CLOEXEC", syscall2(SYS_fcntl, 20, LINUX_F_GETFD), FD_CLOEXEC);
	expect("dup3 onto an open descriptor", dup3(fds[1], 20, 0), 20);
	expect("dup3 without O_CLOEXEC clears it", syscall2(SYS_fcntl, 20, LINUX_F_GETFD), 0);
	expect("write through the copy", write(20, "ab", 2), 2);
	char text[4];
	expect("read what the copy wrote", read(fds[0], text, sizeof text), 2);

	/* dup3 onto the pipe's own write end copy closes that copy: with the last write end
	 * gone the reader sees end of file. */
	close(fds[1]);
	int other[2];
	pipe(other);
	expect("dup3 replaces the last write end", dup3(other[0], 20, 0), 20);
	expect("the replaced pipe reads end of file", read(fds[0], text, sizeof text), 0);
	close(20);
	close_pair(other);

	expect("dup2 same descriptor", dup2(fds[0], fds[0]), fds[0]);
	errno = 0;
	check(dup2(25, 25) == -1 && errno == EBADF, "dup2 same closed descriptor: EBADF",
	      "errno %d", errno);
	expect("dup2", dup2(fds[0], 21), 21);
	close(21);

	long fd = syscall3(SYS_fcntl, fds[0], LINUX_F_DUPFD, 10);
	check(fd >= 10, "F_DUPFD lowest at or above 10", "got %ld", fd);
	expect("F_DUPFD clears FD_CLOEXEC", syscall2(SYS_fcntl, fd, LINUX_F_GETFD), 0);
	close((int)fd);
	fd = syscall3(SYS_fcntl, fds[0], LINUX_F_DUPFD_CLOEXEC, 12);
	check(fd >= 12, "F_DUPFD_CLOEXEC", "got %ld", fd);
	expect("F_DUPFD_CLOEXEC sets FD_CLOEXEC", syscall2(SYS_fcntl, fd, LINUX_F_GETFD),
	       FD_CLOEXEC);
	expect("F_SETFD 0", syscall3(SYS_fcntl, fd, LINUX_F_SETFD, 0), 0);
	expect("F_GETFD after F_SETFD 0", syscall2(SYS_fcntl, fd, LINUX_F_GETFD), 0);
	close((int)fd);
	expect("F_GETFD after close is cleared for the next user", fcntl(fds[0], F_DUPFD, 12), fd);
	expect("a reused descriptor is not close-on-exec", fcntl((int)fd, F_GETFD), 0);
	close((int)fd);
	expect_error("F_DUPFD at the limit", syscall3(SYS_fcntl, fds[0], LINUX_F_DUPFD, MAX_FILES),
	             LINUX_EINVAL);
	expect_error("F_GETFD closed", syscall2(SYS_fcntl, 25, LINUX_F_GETFD), LINUX_EBADF);
	expect_error("F_SETFD closed", syscall3(SYS_fcntl, 25, LINUX_F_SETFD, 1), LINUX_EBADF);
	close(fds[0]);

	long file = syscall4(SYS_openat, LINUX_AT_FDCWD, (long)"/etc/motd", LINUX_O_CLOEXEC, 0);
	expect("openat O_CLOEXEC sets FD_CLOEXEC", syscall2(SYS_fcntl, file, LINUX_F_GETFD),
	       FD_CLOEXEC);
	close((int)file);
	file = syscall4(SYS_openat, LINUX_AT_FDCWD, (long)"/etc/motd", 0, 0);
	expect("openat without it does not", syscall2(SYS_fcntl, file, LINUX_F_GETFD), 0);
	close((int)file);
}

/* EMFILE at the table's end: pipe2 needs two descriptors and leaves none behind. */
static void test_descriptor_limit(void)
{
	int before = open_descriptors();
	int fds[2], opened = 0;
	long r;
	int kept[MAX_FILES];
	while ((r = raw_pipe(fds, 0)) == 0) {
		kept[opened++] = fds[0];
		kept[opened++] = fds[1];
	}
	expect_error("pipe2 with the table full: EMFILE", r, LINUX_EMFILE);
	expect("every descriptor in use", open_descriptors(), MAX_FILES - (before + opened) % 2);
	if (open_descriptors() < MAX_FILES) { /* one left: a pipe still cannot fit */
		expect_error("pipe2 with one free descriptor: EMFILE", raw_pipe(fds, 0),
		             LINUX_EMFILE);
		expect("and it took none", open_descriptors(), MAX_FILES - 1);
		expect("dup takes the last one", dup(0) >= 0, 1);
	}
	expect_error("dup with the table full: EMFILE", syscall1(SYS_dup, 0), LINUX_EMFILE);
	expect_error("F_DUPFD with the table full: EMFILE",
	             syscall3(SYS_fcntl, 0, LINUX_F_DUPFD, 0), LINUX_EMFILE);
	for (int fd = 0; fd < MAX_FILES; fd++) /* close what this test opened */
		if (fd >= before && fd < MAX_FILES)
			close(fd);
	(void)kept;
	expect("descriptors back to where they were", open_descriptors(), before);

	/* Pages: 20 pipes made and closed give back all their memory. */
	unsigned long info[16];
	int warm[2];
	pipe(warm);
	close_pair(warm);
	syscall1(SYS_sysinfo, (long)info);
	unsigned long free_before = info[5]; /* freeram, at byte 40 */
	for (int i = 0; i < 20; i++) {
		pipe(fds);
		write(fds[1], "x", 1);
		close_pair(fds);
	}
	syscall1(SYS_sysinfo, (long)info);
	expect("20 pipes give back every page", (long)info[5], (long)free_before);
}

/* 200 shell pipelines of three programs give back every page and descriptor. */
static void test_pipelines_lose_nothing(void)
{
	char *argv[] = {"/bin/sh", "-c", "echo x | cat | cat > /dev/null", NULL};
	char *envp[] = {NULL};
	unsigned long info[16];
	int failures = 0;
	for (int round = 0; round <= 200; round++) {
		if (round == 1) /* after one warm-up run: heap pages the kernel keeps */
			syscall1(SYS_sysinfo, (long)info);
		pid_t child = spawn("/bin/sh", argv, envp);
		if (wait_child(child) != 0)
			failures++;
	}
	unsigned long free_before = info[5];
	syscall1(SYS_sysinfo, (long)info);
	expect("200 pipelines of 3 all exit 0", failures, 0);
	expect("200 pipelines of 3 lose no page", (long)info[5], (long)free_before);
}

/* ------------------------------------------------------------------ waiting */

static void test_ppoll(void)
{
	int fds[2];
	pipe(fds);
	struct linux_pollfd polls[6] = {
	    {fds[0], LINUX_POLLIN, -1},
	    {fds[1], LINUX_POLLOUT, -1},
	};
	expect("ppoll empty pipe", raw_ppoll(polls, 2, 0), 1);
	expect("read end not ready", polls[0].revents, 0);
	expect("write end POLLOUT", polls[1].revents, LINUX_POLLOUT);
	expect("ppoll timeout on an empty pipe", raw_ppoll(polls, 1, 10000000), 0);
	write(fds[1], "x", 1);
	expect("ppoll with data", raw_ppoll(polls, 1, -1), 1);
	expect("read end POLLIN", polls[0].revents, LINUX_POLLIN);
	polls[0].events = LINUX_POLLIN | LINUX_POLLRDNORM;
	raw_ppoll(polls, 1, 0);
	expect("POLLRDNORM too when asked", polls[0].revents, LINUX_POLLIN | LINUX_POLLRDNORM);
	char byte;
	read(fds[0], &byte, 1);

	/* A full pipe is not writable. */
	static unsigned char block[PIPE_BUF_SIZE];
	fcntl(fds[1], F_SETFL, O_NONBLOCK);
	while (write(fds[1], block, sizeof block) > 0)
		;
	polls[1].events = LINUX_POLLOUT | LINUX_POLLWRNORM;
	expect("full pipe: write end not ready", raw_ppoll(&polls[1], 1, 0), 0);
	read(fds[0], block, sizeof block);
	expect("room for PIPE_BUF again: ready", raw_ppoll(&polls[1], 1, 0), 1);
	expect("POLLOUT | POLLWRNORM", polls[1].revents, LINUX_POLLOUT | LINUX_POLLWRNORM);
	close(fds[0]);
	raw_ppoll(&polls[1], 1, 0);
	expect("write end without a reader: POLLERR", polls[1].revents & LINUX_POLLERR,
	       LINUX_POLLERR);
	close(fds[1]);

	pipe(fds);
	close(fds[1]);
	polls[0] = (struct linux_pollfd){fds[0], LINUX_POLLIN, -1};
	expect("read end without a writer", raw_ppoll(polls, 1, -1), 1);
	expect("POLLHUP, without asking", polls[0].revents, LINUX_POLLHUP);
	close(fds[0]);

	long null = syscall4(SYS_openat, LINUX_AT_FDCWD, (long)"/dev/null", O_RDWR, 0);
	long motd = syscall4(SYS_openat, LINUX_AT_FDCWD, (long)"/etc/motd", 0, 0);
	polls[0] = (struct linux_pollfd){(int)null, LINUX_POLLIN | LINUX_POLLOUT, -1};
	polls[1] = (struct linux_pollfd){(int)motd, LINUX_POLLIN | LINUX_POLLOUT, -1};
	polls[2] = (struct linux_pollfd){1, LINUX_POLLOUT, -1};
	polls[3] = (struct linux_pollfd){-1, LINUX_POLLIN, -1};
	polls[4] = (struct linux_pollfd){27, LINUX_POLLIN, -1};
	polls[5] = (struct linux_pollfd){0, LINUX_POLLIN, -1};
	expect("ppoll over files, console, a skipped and a closed fd", raw_ppoll(polls, 6, 0), 4);
	expect("/dev/null ready both ways", polls[0].revents, LINUX_POLLIN | LINUX_POLLOUT);
	expect("archive file ready both ways", polls[1].revents, LINUX_POLLIN | LINUX_POLLOUT);
	expect("console writable", polls[2].revents, LINUX_POLLOUT);
	expect("negative fd skipped", polls[3].revents, 0);
	expect("closed fd POLLNVAL", polls[4].revents, LINUX_POLLNVAL);
	expect("console without input: not readable", polls[5].revents, 0);
	close((int)null);
	close((int)motd);

	struct linux_pollfd many[MAX_FILES + 1];
	memset(many, 0, sizeof many);
	expect_error("ppoll more entries than RLIMIT_NOFILE", raw_ppoll(many, MAX_FILES + 1, 0),
	             LINUX_EINVAL);
	expect_error("ppoll bad sigset size",
	             syscall5(SYS_ppoll, (long)polls, 1, 0, (long)&null, 4), LINUX_EINVAL);
	struct linux_timespec bad = {0, 1000000000};
	expect_error("ppoll bad timeout", syscall5(SYS_ppoll, (long)polls, 1, (long)&bad, 0, 8),
	             LINUX_EINVAL);
	expect_error("ppoll EFAULT", syscall5(SYS_ppoll, 8, 1, 0, 0, 8), LINUX_EFAULT);

	/* Woken by a write from another process. */
	pipe2(fds, O_CLOEXEC);
	int writer = dup(fds[1]);
	pid_t child = start_child("late", writer, 0, 0);
	close(writer);
	close(fds[1]);
	polls[0] = (struct linux_pollfd){fds[0], LINUX_POLLIN, -1};
	expect("ppoll without timeout woken by another process", raw_ppoll(polls, 1, -1), 1);
	expect("POLLIN from the late writer", polls[0].revents & LINUX_POLLIN, LINUX_POLLIN);
	expect("late writer exited 0", wait_child(child), 0);
	close(fds[0]);

	/* libc poll(). */
	pipe(fds);
	struct pollfd entry = {fds[0], POLLIN, 0};
	expect("poll() timeout", poll(&entry, 1, 5), 0);
	write(fds[1], "y", 1);
	check(poll(&entry, 1, -1) == 1 && entry.revents == POLLIN, "poll() data", "revents %#x",
	      entry.revents);
	close_pair(fds);
}

static void test_pselect(void)
{
	int fds[2];
	pipe(fds);
	fd_set reading, writing;
	FD_ZERO(&reading);
	FD_ZERO(&writing);
	FD_SET(fds[0], &reading);
	FD_SET(fds[1], &writing);
	struct timeval zero = {0, 0};
	int n = select(fds[1] + 1, &reading, &writing, NULL, &zero);
	check(n == 1 && !FD_ISSET(fds[0], &reading) && FD_ISSET(fds[1], &writing),
	      "select: empty pipe writable only", "n %d", n);
	write(fds[1], "z", 1);
	FD_SET(fds[0], &reading);
	n = select(fds[0] + 1, &reading, NULL, NULL, NULL);
	check(n == 1 && FD_ISSET(fds[0], &reading), "select: readable with data", "n %d", n);
	FD_ZERO(&reading);
	FD_SET(fds[0], &reading);
	char byte;
	read(fds[0], &byte, 1);
	struct timespec wait = {0, 5000000};
	n = pselect(fds[0] + 1, &reading, NULL, NULL, &wait, NULL);
	check(n == 0 && !FD_ISSET(fds[0], &reading), "pselect timeout clears the set", "n %d", n);
	close_pair(fds);

	uint64_t set = 1ull << 27;
	struct linux_timespec none = {0, 0};
	expect_error("pselect6 closed fd in a set: EBADF",
	             syscall6(SYS_pselect6, 28, (long)&set, 0, 0, (long)&none, 0), LINUX_EBADF);
	expect_error("pselect6 negative nfds", syscall6(SYS_pselect6, -1, 0, 0, 0, (long)&none, 0),
	             LINUX_EINVAL);
	set = 1ull << 27; /* beyond nfds: not looked at */
	expect("pselect6 ignores bits at and above nfds",
	       syscall6(SYS_pselect6, 3, (long)&set, 0, 0, (long)&none, 0), 0);
	check(set == 0, "and clears them", "set %#lx", (unsigned long)set);
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "sink") == 0)
		return child_sink(atoi(argv[2]), strtoull(argv[3], NULL, 10), atoi(argv[4]));
	if (argc == 5 && strcmp(argv[1], "source") == 0)
		return child_source(atoi(argv[2]), strtoull(argv[3], NULL, 10), atoi(argv[4]));
	if (argc == 5 && strcmp(argv[1], "records") == 0)
		return child_records(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (argc >= 3 && strcmp(argv[1], "late") == 0)
		return child_late(atoi(argv[2]));
	if (argc == 5 && strcmp(argv[1], "counter") == 0)
		return child_counter(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (argc == 5 && strcmp(argv[1], "blocked-writer") == 0)
		return child_blocked_writer(atoi(argv[2]));
	if (argc == 5 && strcmp(argv[1], "sigpipe") == 0)
		return child_sigpipe(atoi(argv[2]));
	if (argc == 2 && strcmp(argv[1], "console-out") == 0)
		return console_room();
	if (argc == 2 && strcmp(argv[1], "console") == 0)
		return console_waits();

	int before = open_descriptors();
	test_basics();
	test_nonblocking_and_ends();
	test_between_processes();
	test_writer_killed_mid_write();
	test_atomic_writes();
	test_many_readers_and_writers();
	test_descriptors();
	test_descriptor_limit();
	test_pipelines_lose_nothing();
	test_ppoll();
	test_pselect();
	expect("no descriptor leaked", open_descriptors(), before);
	printf("test_pipe: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
