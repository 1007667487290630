/* test_misc: the calls a Linux userland (busybox, glibc's start-up) asks for beyond
 * files and processes: who am I (getuid .. getgroups, setuid/setgid), the coarse clocks
 * and the wall clock, prctl's process name, sendfile, rseq, riscv_hwprobe, and the
 * kernel's report of calls it lacks (tests/test_misc.py reads those log lines).
 *
 *   test_misc [BUILD_SECONDS]
 *
 * BUILD_SECONDS: a time (seconds since the epoch) the wall clock must not be before, as
 * the kernel image's build time: then the wall clock really was set from the machine's
 * real-time clock. Prints "ok NAME" / "FAIL NAME: DETAIL" per check, then
 * "test_misc: N passed, M failed"; exits 0 only if nothing failed. Built with picolibc
 * and with glibc (GLIBC_PROGRAMS). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define LINUX_EPERM      1
#define LINUX_EBADF      9
#define LINUX_EFAULT     14
#define LINUX_EINVAL     22
#define LINUX_ESPIPE     29
#define LINUX_ENOSYS     38
#define LINUX_EOPNOTSUPP 95

/* Numbers glibc 2.36's headers (Debian 12) may lack; riscv64 Linux's values. */
#ifndef SYS_riscv_hwprobe
#define SYS_riscv_hwprobe 258
#endif
#ifndef SYS_rseq
#define SYS_rseq 293
#endif

#define L_CLOCK_REALTIME         0
#define L_CLOCK_MONOTONIC        1
#define L_CLOCK_REALTIME_COARSE  5
#define L_CLOCK_MONOTONIC_COARSE 6
#define L_TIMER_ABSTIME          1
#define L_PR_SET_NAME            15
#define L_PR_GET_NAME            16
#define L_AT_FDCWD               -100
#define L_SEEK_CUR               1
#define NS                       1000000000ll
#define BAD_POINTER              0x1000l /* never mapped in a Duplex program */

struct l_timespec {
	int64_t seconds, nanoseconds;
};
struct l_timeval {
	int64_t seconds, microseconds;
};

static int64_t ns_of(struct l_timespec t)
{
	return t.seconds * NS + t.nanoseconds;
}

static int64_t read_clock(int clock)
{
	struct l_timespec t = {-1, -1};
	long r = syscall2(SYS_clock_gettime, clock, (long)&t);
	return r == 0 ? ns_of(t) : r;
}

static void test_identity(void)
{
	expect("getuid 0", syscall0(SYS_getuid), 0);
	expect("geteuid 0", syscall0(SYS_geteuid), 0);
	expect("getgid 0", syscall0(SYS_getgid), 0);
	expect("getegid 0", syscall0(SYS_getegid), 0);
	/* glibc's and picolibc's wrappers (picolibc's through Duplex's libc). */
	check(getuid() == 0 && geteuid() == 0 && getgid() == 0 && getegid() == 0,
	      "libc getuid/geteuid/getgid/getegid 0", "%d %d %d %d", (int)getuid(), (int)geteuid(),
	      (int)getgid(), (int)getegid());
	unsigned ids[3] = {7, 7, 7};
	long r = syscall3(SYS_getresuid, (long)&ids[0], (long)&ids[1], (long)&ids[2]);
	check(r == 0 && ids[0] == 0 && ids[1] == 0 && ids[2] == 0, "getresuid 0 0 0",
	      "r %ld ids %u %u %u", r, ids[0], ids[1], ids[2]);
	ids[0] = ids[1] = ids[2] = 7;
	r = syscall3(SYS_getresgid, (long)&ids[0], (long)&ids[1], (long)&ids[2]);
	check(r == 0 && ids[0] == 0 && ids[1] == 0 && ids[2] == 0, "getresgid 0 0 0",
	      "r %ld ids %u %u %u", r, ids[0], ids[1], ids[2]);
	expect_error("getresuid bad pointer", syscall3(SYS_getresuid, BAD_POINTER, 0, 0),
	             LINUX_EFAULT);
	unsigned groups[4] = {7, 7, 7, 7};
	expect("getgroups size 0: no groups", syscall2(SYS_getgroups, 0, 0), 0);
	r = syscall2(SYS_getgroups, 4, (long)groups);
	check(r == 0 && groups[0] == 7, "getgroups 4: none written", "r %ld [0] %u", r, groups[0]);
	expect_error("getgroups negative size", syscall2(SYS_getgroups, -1, (long)groups),
	             LINUX_EINVAL);
	expect("setuid 0", syscall1(SYS_setuid, 0), 0);
	expect("setgid 0", syscall1(SYS_setgid, 0), 0);
	expect_error("setuid 1000 refused", syscall1(SYS_setuid, 1000), LINUX_EPERM);
	expect_error("setgid 1000 refused", syscall1(SYS_setgid, 1000), LINUX_EPERM);
	expect_error("setuid -1", syscall1(SYS_setuid, -1), LINUX_EINVAL);
	expect("getuid still 0", syscall0(SYS_getuid), 0);
}

static void test_clocks(int64_t build_seconds)
{
	struct l_timespec resolution = {-1, -1};
	long r = syscall2(SYS_clock_getres, L_CLOCK_REALTIME_COARSE, (long)&resolution);
	check(r == 0 && resolution.seconds == 0 && resolution.nanoseconds == 4000000,
	      "clock_getres REALTIME_COARSE 4 ms", "r %ld res %lld.%09lld", r,
	      (long long)resolution.seconds, (long long)resolution.nanoseconds);
	r = syscall2(SYS_clock_getres, L_CLOCK_MONOTONIC_COARSE, (long)&resolution);
	check(r == 0 && ns_of(resolution) == 4000000, "clock_getres MONOTONIC_COARSE 4 ms", "r %ld",
	      r);
	r = syscall2(SYS_clock_getres, L_CLOCK_MONOTONIC, (long)&resolution);
	check(r == 0 && ns_of(resolution) > 0 && ns_of(resolution) < 4000000,
	      "clock_getres MONOTONIC finer than coarse", "r %ld res %lld", r,
	      (long long)ns_of(resolution));

	/* A coarse reading lies on its 4 ms grid and never runs ahead of the fine clock. */
	int64_t coarse = read_clock(L_CLOCK_MONOTONIC_COARSE);
	int64_t fine = read_clock(L_CLOCK_MONOTONIC);
	check(coarse >= 0 && coarse % 4000000 == 0 && coarse <= fine &&
	          fine - coarse < 4000000 + NS,
	      "MONOTONIC_COARSE on the 4 ms grid, behind MONOTONIC", "coarse %lld fine %lld",
	      (long long)coarse, (long long)fine);
	int64_t real_coarse = read_clock(L_CLOCK_REALTIME_COARSE);
	int64_t real = read_clock(L_CLOCK_REALTIME);
	check(real_coarse > 0 && real_coarse <= real && real - real_coarse < 4000000 + NS,
	      "REALTIME_COARSE behind REALTIME", "coarse %lld real %lld", (long long)real_coarse,
	      (long long)real);
	/* The wall clock: past the build time, so it came from the real-time clock. */
	check(real / NS >= build_seconds, "REALTIME after the build time", "%lld s, build %lld s",
	      (long long)(real / NS), (long long)build_seconds);
	time_t now = time(NULL); /* glibc's time(): CLOCK_REALTIME_COARSE */
	check((int64_t)now >= build_seconds, "time() after the build time", "%lld, build %lld",
	      (long long)now, (long long)build_seconds);
	/* Wall clock and monotonic clock run together: their difference holds still. */
	int64_t offset_before = read_clock(L_CLOCK_REALTIME) - read_clock(L_CLOCK_MONOTONIC);
	struct l_timespec pause = {0, 5000000};
	syscall2(SYS_nanosleep, (long)&pause, 0);
	int64_t offset_after = read_clock(L_CLOCK_REALTIME) - read_clock(L_CLOCK_MONOTONIC);
	int64_t drift = offset_after - offset_before;
	check(drift > -1000000 && drift < 1000000, "REALTIME runs with MONOTONIC",
	      "offset moved %lld ns over 5 ms", (long long)drift);

	expect_error("clock_nanosleep on a coarse clock",
	             syscall4(SYS_clock_nanosleep, L_CLOCK_REALTIME_COARSE, 0, (long)&pause, 0),
	             LINUX_EOPNOTSUPP);
	/* An absolute wall-clock sleep ends at that wall-clock time. */
	int64_t target = read_clock(L_CLOCK_REALTIME) + 10000000;
	struct l_timespec until = {target / NS, target % NS};
	r = syscall4(SYS_clock_nanosleep, L_CLOCK_REALTIME, L_TIMER_ABSTIME, (long)&until, 0);
	int64_t woke = read_clock(L_CLOCK_REALTIME);
	check(r == 0 && woke >= target && woke - target < NS, "clock_nanosleep REALTIME ABSTIME",
	      "r %ld woke %lld ns after the target", r, (long long)(woke - target));

	/* Setting the wall clock: an hour ahead, read back, put back. */
	int64_t start = read_clock(L_CLOCK_REALTIME);
	struct l_timespec ahead = {(start + 3600 * NS) / NS, (start + 3600 * NS) % NS};
	r = syscall2(SYS_clock_settime, L_CLOCK_REALTIME, (long)&ahead);
	int64_t set = read_clock(L_CLOCK_REALTIME);
	check(r == 0 && set >= ns_of(ahead) && set - ns_of(ahead) < NS, "clock_settime REALTIME",
	      "r %ld read %lld, set %lld", r, (long long)set, (long long)ns_of(ahead));
	struct l_timeval tv = {-1, -1};
	r = syscall2(SYS_gettimeofday, (long)&tv, 0);
	check(r == 0 && tv.seconds >= ahead.seconds && tv.seconds - ahead.seconds < 2 &&
	          tv.microseconds >= 0 && tv.microseconds < 1000000,
	      "gettimeofday sees it", "r %ld %lld.%06lld", r, (long long)tv.seconds,
	      (long long)tv.microseconds);
	struct l_timeval back = {start / NS, start % NS / 1000};
	r = syscall2(SYS_settimeofday, (long)&back, 0);
	int64_t restored = read_clock(L_CLOCK_REALTIME);
	check(r == 0 && restored >= start - 1000 && restored - start < 60 * NS, /* us: truncated */
	      "settimeofday puts it back", "r %ld %lld vs %lld", r, (long long)restored,
	      (long long)start);
	expect_error("clock_settime MONOTONIC",
	             syscall2(SYS_clock_settime, L_CLOCK_MONOTONIC, (long)&ahead), LINUX_EINVAL);
	struct l_timespec bad = {1, NS};
	expect_error("clock_settime nanoseconds 1e9",
	             syscall2(SYS_clock_settime, L_CLOCK_REALTIME, (long)&bad), LINUX_EINVAL);
	struct l_timeval bad_tv = {1, 1000000};
	expect_error("settimeofday microseconds 1e6", syscall2(SYS_settimeofday, (long)&bad_tv, 0),
	             LINUX_EINVAL);
	expect_error("clock_settime bad pointer",
	             syscall2(SYS_clock_settime, L_CLOCK_REALTIME, BAD_POINTER), LINUX_EFAULT);
}

static void test_prctl(void)
{
	char name[32];
	memset(name, 'x', sizeof name);
	long r = syscall2(SYS_prctl, L_PR_GET_NAME, (long)name);
	check(r == 0 && strcmp(name, "test_misc") == 0, "prctl PR_GET_NAME", "r %ld \"%.16s\"", r,
	      name);
	r = syscall2(SYS_prctl, L_PR_SET_NAME, (long)"misc-renamed-long-name");
	memset(name, 'x', sizeof name);
	long r2 = syscall2(SYS_prctl, L_PR_GET_NAME, (long)name);
	/* TASK_COMM_LEN 16: 15 characters and the NUL; nothing past byte 16 written. */
	check(r == 0 && r2 == 0 && strcmp(name, "misc-renamed-lo") == 0 && name[16] == 'x',
	      "prctl PR_SET_NAME cut to 15", "r %ld %ld \"%.16s\"", r, r2, name);
	syscall2(SYS_prctl, L_PR_SET_NAME, (long)"test_misc");
	expect_error("prctl unknown option", syscall2(SYS_prctl, 9999, 0), LINUX_EINVAL);
	expect_error("prctl PR_GET_NAME bad pointer",
	             syscall2(SYS_prctl, L_PR_GET_NAME, BAD_POINTER), LINUX_EFAULT);
	expect_error("prctl PR_SET_NAME bad pointer",
	             syscall2(SYS_prctl, L_PR_SET_NAME, BAD_POINTER), LINUX_EFAULT);
}

static long raw_open(const char *path, long flags)
{
	return syscall4(SYS_openat, L_AT_FDCWD, (long)path, flags, 0);
}

static void test_sendfile(void)
{
	long in = raw_open("/etc/motd", O_RDONLY);
	long out = raw_open("/dev/null", O_WRONLY);
	check(in >= 0 && out >= 0, "sendfile: open /etc/motd and /dev/null", "%ld %ld", in, out);
	if (in < 0 || out < 0)
		return;
	long size = syscall3(SYS_lseek, in, 0, 2 /* SEEK_END */);
	syscall3(SYS_lseek, in, 0, 0);
	/* With an offset: read from it, advance it, leave the file's own position. */
	int64_t offset = 3;
	long r = syscall4(SYS_sendfile, out, in, (long)&offset, 1000);
	long position = syscall3(SYS_lseek, in, 0, L_SEEK_CUR);
	check(size > 3 && r == size - 3 && offset == size && position == 0, "sendfile with offset",
	      "size %ld sent %ld offset %lld position %ld", size, r, (long long)offset, position);
	/* Without: from the position, which advances; 0 at the end. */
	r = syscall4(SYS_sendfile, out, in, 0, 5);
	position = syscall3(SYS_lseek, in, 0, L_SEEK_CUR);
	check(r == 5 && position == 5, "sendfile from the position", "sent %ld position %ld", r,
	      position);
	r = syscall4(SYS_sendfile, out, in, 0, 1 << 20);
	long end = syscall4(SYS_sendfile, out, in, 0, 1 << 20);
	check(r == size - 5 && end == 0, "sendfile to the end, then 0", "sent %ld then %ld", r,
	      end);
	/* The bytes themselves, through the console: tests/test_misc.py finds the line. */
	printf("sendfile to stdout: ");
	fflush(stdout);
	offset = 0;
	r = syscall4(SYS_sendfile, 1, in, (long)&offset, size);
	check(r == size, "sendfile to the console", "sent %ld of %ld", r, size);
	expect_error("sendfile bad in fd", syscall4(SYS_sendfile, out, 99, 0, 1), LINUX_EBADF);
	expect_error("sendfile in not readable", syscall4(SYS_sendfile, out, out, 0, 1),
	             LINUX_EBADF);
	expect_error("sendfile out not writable", syscall4(SYS_sendfile, in, in, 0, 1),
	             LINUX_EBADF);
	offset = -1;
	expect_error("sendfile negative offset", syscall4(SYS_sendfile, out, in, (long)&offset, 1),
	             LINUX_EINVAL);
	expect_error("sendfile bad offset pointer", syscall4(SYS_sendfile, out, in, BAD_POINTER, 1),
	             LINUX_EFAULT);
	long console = raw_open("/dev/console", O_RDONLY);
	offset = 0;
	expect_error("sendfile offset on the console",
	             syscall4(SYS_sendfile, out, console, (long)&offset, 1), LINUX_ESPIPE);
	syscall1(SYS_close, console);
	syscall1(SYS_close, in);
	syscall1(SYS_close, out);
}

struct hwprobe_pair {
	int64_t key;
	uint64_t value;
};

static void test_rseq_and_hwprobe(void)
{
	expect_error("rseq ENOSYS (no restartable sequences)", syscall4(SYS_rseq, 0, 32, 0, 0),
	             LINUX_ENOSYS);
	struct hwprobe_pair pairs[] = {{3, 7}, {4, 7}, {8, 7}, {1000, 7}, {0, 7}};
	long r = syscall5(SYS_riscv_hwprobe, (long)pairs, 5, 0, 0, 0);
	check(r == 0, "riscv_hwprobe all harts", "r %ld", r);
	check(pairs[0].key == 3 && pairs[0].value == 1, "hwprobe BASE_BEHAVIOR IMA",
	      "key %lld value %llu", (long long)pairs[0].key, (unsigned long long)pairs[0].value);
	/* QEMU virt's harts are rv64gc: F and D, and C. */
	check(pairs[1].key == 4 && (pairs[1].value & 3) == 3, "hwprobe IMA_EXT_0 FD and C",
	      "key %lld value %#llx", (long long)pairs[1].key, (unsigned long long)pairs[1].value);
	check(pairs[2].key == 8 && pairs[2].value == 10000000, "hwprobe TIME_CSR_FREQ 10 MHz",
	      "key %lld value %llu", (long long)pairs[2].key, (unsigned long long)pairs[2].value);
	check(pairs[3].key == -1 && pairs[3].value == 0, "hwprobe unknown key -1",
	      "key %lld value %llu", (long long)pairs[3].key, (unsigned long long)pairs[3].value);
	check(pairs[4].key == -1 && pairs[4].value == 0, "hwprobe MVENDORID unanswered",
	      "key %lld value %llu", (long long)pairs[4].key, (unsigned long long)pairs[4].value);
	uint64_t none = 0, first = 1;
	expect_error("hwprobe flags", syscall5(SYS_riscv_hwprobe, (long)pairs, 1, 0, 0, 1),
	             LINUX_EINVAL);
	expect_error("hwprobe empty CPU set",
	             syscall5(SYS_riscv_hwprobe, (long)pairs, 1, 8, (long)&none, 0), LINUX_EINVAL);
	pairs[0].key = 3;
	r = syscall5(SYS_riscv_hwprobe, (long)pairs, 1, 8, (long)&first, 0);
	check(r == 0 && pairs[0].value == 1, "hwprobe hart 0", "r %ld", r);
	expect_error("hwprobe bad pairs", syscall5(SYS_riscv_hwprobe, BAD_POINTER, 1, 0, 0, 0),
	             LINUX_EFAULT);
}

/* Twelve Linux calls Duplex lacks, each tried twice: the kernel must name every one
 * once (test_misc.py counts the log lines). io_setup .. listxattr are 0 .. 11. */
static void test_unknown_calls(void)
{
	bool all = true;
	for (int round = 0; round < 2; round++) {
		for (long number = 0; number < 12; number++)
			all = all && syscall0(number) == -LINUX_ENOSYS;
	}
	check(all, "twelve missing calls ENOSYS", "");
}

int main(int argc, char **argv)
{
	int64_t build_seconds = argc > 1 ? atoll(argv[1]) : 0;
	test_identity();
	test_clocks(build_seconds);
	test_prctl();
	test_sendfile();
	test_rseq_and_hwprobe();
	test_unknown_calls();
	printf("test_misc: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
