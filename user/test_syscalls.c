/* test_syscalls: check every system call Duplex implements, and its error cases.
 *
 * Prints one line per check, "ok NAME" or "FAIL NAME: DETAIL", then
 * "test_syscalls: N passed, M failed", and exits 0 only if nothing failed. Every run
 * makes the same checks, so the count itself shows that none was skipped.
 *
 * Error cases use the raw calls of <sys/syscall.h>, which return the kernel's -errno
 * (Linux numbers, the LINUX_E* below); the "errno" checks go through the libc wrappers
 * and look for picolibc's errno values.
 *
 * Some checks run in a child: this program started again as
 * "/bin/test_syscalls child-WHAT ...", see run_child(). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>
#include <duplex.h>

#include "check.h"
#include "uapi/stat.h"

#define SELF DUPLEX_BIN_DIR "/test_syscalls"

/* Linux errno values: what raw calls return, negated. */
#define LINUX_ENOENT  2
#define LINUX_E2BIG   7
#define LINUX_ENOEXEC 8
#define LINUX_EBADF   9
#define LINUX_ECHILD  10
#define LINUX_EAGAIN  11
#define LINUX_EFAULT  14
#define LINUX_EINVAL  22
#define LINUX_ENOTTY  25
#define LINUX_ENOSYS  38
#define LINUX_ENXIO   6
#define LINUX_EEXIST  17
#define LINUX_ENOTDIR 20
#define LINUX_EISDIR  21
#define LINUX_ESPIPE  29
#define LINUX_EROFS   30

/* Linux values for raw calls. */
#define LINUX_AT_FDCWD (-100)
/* c_cflag speed codes (include/uapi/asm-generic/termbits.h). */
#define LINUX_CBAUD           0010017
#define LINUX_CIBAUD          002003600000
#define LINUX_BOTHER          0010000
#define LINUX_B9600           0000015
#define LINUX_B19200          0000016
#define LINUX_B4000000        0010017
#define LINUX_AT_EMPTY_PATH   0x1000
#define LINUX_S_IFMT          0170000
#define LINUX_S_IFDIR         0040000
#define LINUX_S_IFREG         0100000
#define LINUX_O_RDONLY        0
#define LINUX_O_WRONLY        1
#define LINUX_O_RDWR          2
#define LINUX_O_NONBLOCK      04000
#define LINUX_O_DIRECTORY     0200000
#define LINUX_O_CLOEXEC       02000000
#define LINUX_O_CREAT         0100
#define LINUX_O_EXCL          0200
#define LINUX_O_TRUNC         01000
#define LINUX_O_APPEND        02000
#define LINUX_O_NOFOLLOW      0400000
#define LINUX_O_TMPFILE       (020000000 | LINUX_O_DIRECTORY)
#define LINUX_F_DUPFD_CLOEXEC 1030
#define LINUX_CLOCK_REALTIME  0
#define LINUX_CLOCK_MONOTONIC 1
#define LINUX_CLOCK_PROCESS   2 /* CLOCK_PROCESS_CPUTIME_ID */
#define LINUX_CLOCK_THREAD    3 /* CLOCK_THREAD_CPUTIME_ID */
/* clock_getcpuclockid(0)'s id: MAKE_PROCESS_CPUCLOCK(0, CPUCLOCK_SCHED), Linux
 * include/linux/posix-timers_types.h: (~pid << 3) | 2. */
#define LINUX_CLOCK_PID_SELF (-6)
#define LINUX_TIMER_ABSTIME  1
#define LINUX_F_GETFL        3
#define LINUX_F_SETFL        4
#define LINUX_SIGILL         4
#define LINUX_SIGSEGV        11

#define AT_PAGESZ 6
#define AT_RANDOM 25

#define NS_PER_SECOND 1000000000L
#define NS_PER_MS     1000000L
#define SLEEP_NS      (20 * NS_PER_MS)

/* Addresses no system call may accept as a buffer. */
#define KERNEL_ADDRESS       0xffffffffc0200000UL /* kernel/mm/layout.h KERNEL_VIRT_BASE */
#define UNMAPPED_ADDRESS     0x20000000UL         /* user space nothing maps */
#define NONCANONICAL_ADDRESS 0x0000004000000000UL /* first address past Sv39 user space */

/* A buffer the kernel may read but must not write (in .rodata). */
static const char readonly_buffer[64] = "read-only";

struct bad_address {
	const char *label;
	uintptr_t address;
};

/* For buffers the kernel reads. */
static const struct bad_address bad_inputs[] = {
    {"NULL", 0},
    {"kernel", KERNEL_ADDRESS},
    {"unmapped", UNMAPPED_ADDRESS},
    {"non-canonical", NONCANONICAL_ADDRESS},
};
#define BAD_INPUT_COUNT 4

/* For buffers the kernel writes: also read-only data and code. */
static struct bad_address bad_outputs[] = {
    {"NULL", 0},
    {"kernel", KERNEL_ADDRESS},
    {"unmapped", UNMAPPED_ADDRESS},
    {"non-canonical", NONCANONICAL_ADDRESS},
    {"read-only data", 0}, /* set in main(): readonly_buffer */
    {"code", 0},           /* set in main(): main */
};
#define BAD_OUTPUT_COUNT 6

/* ------------------------------------------------------------------ reporting */

/* A check that results[i] (one per bad address) are all -EFAULT. */
static void expect_all_efault(const char *name, const long *results,
                              const struct bad_address *addresses, int count)
{
	for (int i = 0; i < count; i++) {
		if (results[i] != -LINUX_EFAULT) {
			check(false, name, "%s buffer: got %ld, want -%d", addresses[i].label,
			      results[i], LINUX_EFAULT);
			return;
		}
	}
	check(true, name, "");
}

/* One check: evaluate `call` (which uses `address`) for each of list[0..count) and
 * expect -EFAULT from every one. */
#define EXPECT_EFAULT_FOR(name, list, count, call)                                                 \
	do {                                                                                       \
		long results_[BAD_OUTPUT_COUNT];                                                   \
		for (int i_ = 0; i_ < (count); i_++) {                                             \
			long address = (long)(list)[i_].address;                                   \
			results_[i_] = (call);                                                     \
		}                                                                                  \
		expect_all_efault(name, results_, list, count);                                    \
	} while (0)

/* For buffers the kernel reads, and for buffers it writes. */
#define EXPECT_EFAULT_IN(name, call)  EXPECT_EFAULT_FOR(name, bad_inputs, BAD_INPUT_COUNT, call)
#define EXPECT_EFAULT_OUT(name, call) EXPECT_EFAULT_FOR(name, bad_outputs, BAD_OUTPUT_COUNT, call)

/* ------------------------------------------------------------------ helpers */

/* Raw openat relative to the current directory. */
static long raw_open(const char *path, long linux_flags)
{
	return syscall4(SYS_openat, LINUX_AT_FDCWD, (long)path, linux_flags, 0);
}

/* The monotonic clock in nanoseconds (raw call). */
static long monotonic_ns(void)
{
	struct timespec now;

	syscall2(SYS_clock_gettime, LINUX_CLOCK_MONOTONIC, (long)&now);
	return now.tv_sec * NS_PER_SECOND + now.tv_nsec;
}

/* A duration or time in nanoseconds as a struct timespec. */
static struct timespec timespec_from_ns(long ns)
{
	struct timespec t = {.tv_sec = ns / NS_PER_SECOND, .tv_nsec = ns % NS_PER_SECOND};
	return t;
}

/* Start `path` with raw calls and wait for it; returns the raw (Linux) wait status, or
 * the negative errno of spawn or wait4. */
static long run_raw(const char *path, char *const argv[], char *const envp[])
{
	int status = 0;
	long pid = syscall3(SYS_spawn, (long)path, (long)argv, (long)envp);

	if (pid < 0)
		return pid;
	long waited = syscall4(SYS_wait4, pid, (long)&status, 0, 0);
	if (waited != pid)
		return waited < 0 ? waited : -1;
	return status;
}

/* Reap every child still around, so later ECHILD checks see none. */
static void reap_children(void)
{
	while (syscall4(SYS_wait4, -1, 0, 0, 0) > 0)
		;
}

/* The termios structure of TCGETS/TCSETS (asm-generic/termbits.h): Duplex's libc uses it
 * as struct termios; glibc's struct termios is larger, and its tcgetattr converts. */
#ifdef __GLIBC__
typedef struct {
	unsigned int c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line;
	unsigned char c_cc[19];
} raw_termios;
#else
typedef struct termios raw_termios;
#endif

/* ------------------------------------------------------------------ the checks */

/* getpid, getppid, uname; fds 0-2 are the console. */
static void test_identity(void)
{
	struct utsname names;
	raw_termios t;

	long pid = syscall0(SYS_getpid);
	check(pid > 0 && pid == getpid(), "getpid", "raw %ld, libc %d", pid, getpid());
	long ppid = syscall0(SYS_getppid);
	check(ppid >= 0 && ppid != pid && ppid == getppid(), "getppid", "raw %ld, pid %ld", ppid,
	      pid);

	memset(&names, 0x7f, sizeof names);
	long r = syscall1(SYS_uname, (long)&names);
	bool terminated = true;
	const char *fields[] = {names.sysname, names.nodename, names.release,
	                        names.version, names.machine,  names.domainname};
	for (int i = 0; i < 6; i++)
		terminated = terminated && memchr(fields[i], '\0', sizeof names.sysname) != NULL;
	check(r == 0 && terminated && names.sysname[0] != '\0' &&
	          strncmp(names.machine, "riscv", 5) == 0,
	      "uname", "result %ld, sysname \"%.64s\", machine \"%.64s\"", r,
	      terminated ? names.sysname : "?", terminated ? names.machine : "?");
	EXPECT_EFAULT_OUT("uname EFAULT", syscall1(SYS_uname, address));

	bool consoles = true;
	for (int fd = 0; fd < 3; fd++)
		consoles = consoles && syscall3(SYS_ioctl, fd, TCGETS, (long)&t) == 0;
	check(consoles, "fds 0-2 are the console", "TCGETS failed on one of them");
}

/* write, read, readv, writev, close, dup and their errors. */
static void test_read_write(void)
{
	char buf[64];
	static const char line[] = "write: to the console\n";

	expect("write console", syscall3(SYS_write, 1, (long)line, sizeof line - 1),
	       sizeof line - 1);
	expect("write 0 bytes", syscall3(SYS_write, 1, (long)line, 0), 0);
	expect_error("write EBADF unopened", syscall3(SYS_write, 100, (long)line, 1), LINUX_EBADF);
	expect_error("write EBADF negative", syscall3(SYS_write, -1, (long)line, 1), LINUX_EBADF);
	EXPECT_EFAULT_IN("write EFAULT", syscall3(SYS_write, 1, address, 8));
	expect_error("write EFAULT wrapping length", syscall3(SYS_write, 1, (long)line, -16L),
	             LINUX_EFAULT);
	expect_error("write EFAULT past user space", syscall3(SYS_write, 1, (long)line, 1L << 40),
	             LINUX_EFAULT);

	long fd = raw_open("/etc/motd", LINUX_O_RDONLY);
	long n = syscall3(SYS_read, fd, (long)buf, sizeof buf);
	check(fd >= 3 && n > 6 && memcmp(buf, "Duplex", 6) == 0, "read archive file",
	      "fd %ld, read %ld", fd, n);
	while ((n = syscall3(SYS_read, fd, (long)buf, sizeof buf)) > 0)
		;
	expect("read end of file", n, 0);
	expect_error("write EBADF read-only fd", syscall3(SYS_write, fd, (long)line, 1),
	             LINUX_EBADF);
	syscall1(SYS_close, fd);

	fd = raw_open("/etc/motd", LINUX_O_RDONLY);
	EXPECT_EFAULT_OUT("read EFAULT", syscall3(SYS_read, fd, address, 8));
	expect_error("read EFAULT wrapping length", syscall3(SYS_read, fd, (long)buf, -16L),
	             LINUX_EFAULT);
	syscall1(SYS_close, fd);
	expect_error("read EBADF", syscall3(SYS_read, 100, (long)buf, 1), LINUX_EBADF);
	expect_error("read EBADF closed fd", syscall3(SYS_read, fd, (long)buf, 1), LINUX_EBADF);
	fd = raw_open("/dev/null", LINUX_O_WRONLY);
	expect_error("read EBADF write-only fd", syscall3(SYS_read, fd, (long)buf, 1), LINUX_EBADF);
	syscall1(SYS_close, fd);

	/* readv of the file in three pieces matches one read. */
	char whole[32], a[5], b[7], c[20];
	fd = raw_open("/etc/motd", LINUX_O_RDONLY);
	n = syscall3(SYS_read, fd, (long)whole, sizeof whole);
	syscall1(SYS_close, fd);
	struct iovec pieces[3] = {{a, sizeof a}, {b, sizeof b}, {c, sizeof c}};
	fd = raw_open("/etc/motd", LINUX_O_RDONLY);
	long nv = syscall3(SYS_readv, fd, (long)pieces, 3);
	check(nv == n && memcmp(whole, a, 5) == 0 && memcmp(whole + 5, b, 7) == 0 &&
	          memcmp(whole + 12, c, nv - 12) == 0,
	      "readv", "readv %ld, read %ld", nv, n);
	struct iovec bad_piece = {(void *)KERNEL_ADDRESS, 8};
	expect_error("readv EFAULT buffer", syscall3(SYS_readv, fd, (long)&bad_piece, 1),
	             LINUX_EFAULT);
	EXPECT_EFAULT_IN("readv EFAULT iovec", syscall3(SYS_readv, fd, address, 1));
	syscall1(SYS_close, fd);

	struct iovec parts[3] = {{"writev: ", 8}, {"three ", 6}, {"parts\n", 6}};
	expect("writev", syscall3(SYS_writev, 1, (long)parts, 3), 20);
	expect_error("writev EBADF", syscall3(SYS_writev, 100, (long)parts, 3), LINUX_EBADF);
	EXPECT_EFAULT_IN("writev EFAULT iovec", syscall3(SYS_writev, 1, address, 1));
	struct iovec bad_part = {NULL, 8};
	expect_error("writev EFAULT buffer", syscall3(SYS_writev, 1, (long)&bad_part, 1),
	             LINUX_EFAULT);
	expect_error("writev EINVAL count", syscall3(SYS_writev, 1, (long)parts, -1), LINUX_EINVAL);

	/* dup gives the lowest free fd; close frees it once. */
	long copy = syscall1(SYS_dup, 1);
	static const char dup_line[] = "dup: written through a copy of fd 1\n";
	long written = syscall3(SYS_write, copy, (long)dup_line, sizeof dup_line - 1);
	long closed = syscall1(SYS_close, copy);
	long again = syscall1(SYS_dup, 1);
	check(copy >= 3 && written == sizeof dup_line - 1 && closed == 0 && again == copy,
	      "dup and close", "dup %ld, write %ld, close %ld, second dup %ld", copy, written,
	      closed, again);
	syscall1(SYS_close, again);
	expect_error("close EBADF twice", syscall1(SYS_close, again), LINUX_EBADF);
	expect_error("close EBADF negative", syscall1(SYS_close, -1), LINUX_EBADF);
	expect_error("dup EBADF", syscall1(SYS_dup, 100), LINUX_EBADF);
}

/* openat of devices, archive files and directories, and its errors. */
static void test_open(void)
{
	char buf[16];

	long fd = raw_open("/dev/null", LINUX_O_RDWR);
	long n = syscall3(SYS_read, fd, (long)buf, sizeof buf);
	long w = syscall3(SYS_write, fd, (long)"discarded", 9);
	check(fd >= 3 && n == 0 && w == 9, "/dev/null", "fd %ld, read %ld, write %ld", fd, n, w);
	syscall1(SYS_close, fd);

	fd = raw_open("/dev/console", LINUX_O_RDWR | LINUX_O_CLOEXEC);
	w = syscall3(SYS_write, fd, (long)"openat: /dev/console\n", 21);
	check(fd >= 3 && w == 21, "/dev/console", "fd %ld, write %ld", fd, w);
	syscall1(SYS_close, fd);

	expect_error("openat ENOENT", raw_open("/no/such/file", LINUX_O_RDONLY), LINUX_ENOENT);
	expect_error("openat ENOENT in /bin", raw_open("/bin/no-such-program", LINUX_O_RDONLY),
	             LINUX_ENOENT);
	EXPECT_EFAULT_IN("openat EFAULT path",
	                 syscall4(SYS_openat, LINUX_AT_FDCWD, address, LINUX_O_RDONLY, 0));
	fd = raw_open("/dev/null", 0x40000000);
	check(fd >= 3, "openat ignores unknown flags", "got %ld", fd);
	syscall1(SYS_close, fd);

	fd = raw_open("/bin", LINUX_O_RDONLY | LINUX_O_DIRECTORY);
	long root = raw_open("/", LINUX_O_RDONLY | LINUX_O_DIRECTORY);
	check(fd >= 0 && root >= 0, "openat directories", "/bin %ld, / %ld", fd, root);
	syscall1(SYS_close, fd);
	syscall1(SYS_close, root);
}

/* Open `path` with `flags`; the result: -errno, or 0 for a descriptor (closed again). */
static long open_result(const char *path, long flags)
{
	long fd = raw_open(path, flags);
	if (fd >= 0) {
		syscall1(SYS_close, fd);
		return 0;
	}
	return fd;
}

/* openat flags and path rules, case by case, with Linux's answers (docs/design.md,
 * "Paths and open flags"). */
static void test_open_rules(void)
{
	static const struct {
		const char *name;
		const char *path;
		long flags;
		long want; /* 0: opens; else -errno */
	} cases[] = {
	    {"O_CREAT existing device", "/dev/console", LINUX_O_WRONLY | LINUX_O_CREAT, 0},
	    {"O_CREAT|O_TRUNC|O_APPEND device", "/dev/null",
	     LINUX_O_WRONLY | LINUX_O_CREAT | LINUX_O_TRUNC | LINUX_O_APPEND, 0},
	    {"O_NOFOLLOW (no symlinks)", "/etc/motd", LINUX_O_RDONLY | LINUX_O_NOFOLLOW, 0},
	    {"O_CREAT existing archive file read-only", "/etc/motd", LINUX_O_RDONLY | LINUX_O_CREAT,
	     0},
	    {"O_CREAT|O_EXCL existing EEXIST", "/dev/null",
	     LINUX_O_WRONLY | LINUX_O_CREAT | LINUX_O_EXCL, -LINUX_EEXIST},
	    {"O_CREAT|O_EXCL existing directory EEXIST", "/bin",
	     LINUX_O_RDONLY | LINUX_O_CREAT | LINUX_O_EXCL, -LINUX_EEXIST},
	    {"O_CREAT missing EROFS", "/etc/new-file", LINUX_O_WRONLY | LINUX_O_CREAT,
	     -LINUX_EROFS},
	    {"O_CREAT missing, trailing slash EISDIR", "/etc/new-dir/",
	     LINUX_O_WRONLY | LINUX_O_CREAT, -LINUX_EISDIR},
	    {"O_CREAT in a missing directory ENOENT", "/nodir/file", LINUX_O_WRONLY | LINUX_O_CREAT,
	     -LINUX_ENOENT},
	    {"O_CREAT|O_DIRECTORY EINVAL", "/bin",
	     LINUX_O_RDONLY | LINUX_O_CREAT | LINUX_O_DIRECTORY, -LINUX_EINVAL},
	    {"O_CREAT existing directory EISDIR", "/bin", LINUX_O_RDONLY | LINUX_O_CREAT,
	     -LINUX_EISDIR},
	    {"write archive file EROFS", "/etc/motd", LINUX_O_WRONLY, -LINUX_EROFS},
	    {"O_RDWR archive file EROFS", "/bin/sh", LINUX_O_RDWR, -LINUX_EROFS},
	    {"O_TRUNC archive file EROFS", "/etc/motd", LINUX_O_RDONLY | LINUX_O_TRUNC,
	     -LINUX_EROFS},
	    {"O_APPEND archive file read-only", "/etc/motd", LINUX_O_RDONLY | LINUX_O_APPEND, 0},
	    {"write directory EISDIR", "/bin", LINUX_O_WRONLY, -LINUX_EISDIR},
	    {"O_TRUNC directory EISDIR", "/bin", LINUX_O_RDONLY | LINUX_O_TRUNC, -LINUX_EISDIR},
	    {"O_DIRECTORY file ENOTDIR", "/etc/motd", LINUX_O_RDONLY | LINUX_O_DIRECTORY,
	     -LINUX_ENOTDIR},
	    {"O_DIRECTORY device ENOTDIR", "/dev/null", LINUX_O_RDONLY | LINUX_O_DIRECTORY,
	     -LINUX_ENOTDIR},
	    {"O_TMPFILE EROFS", "/etc", LINUX_O_RDWR | LINUX_O_TMPFILE, -LINUX_EROFS},
	    {"O_TMPFILE read-only EINVAL", "/etc", LINUX_O_RDONLY | LINUX_O_TMPFILE, -LINUX_EINVAL},
	    {"empty path ENOENT", "", LINUX_O_RDONLY, -LINUX_ENOENT},
	    {"trailing slash on a file ENOTDIR", "/etc/motd/", LINUX_O_RDONLY, -LINUX_ENOTDIR},
	    {"trailing slash on a device ENOTDIR", "/dev/null/", LINUX_O_RDONLY, -LINUX_ENOTDIR},
	    {"trailing slash on a directory", "/bin/", LINUX_O_RDONLY, 0},
	    {"file as a directory ENOTDIR", "/etc/motd/x", LINUX_O_RDONLY, -LINUX_ENOTDIR},
	    {"file/.. ENOTDIR", "/etc/motd/..", LINUX_O_RDONLY, -LINUX_ENOTDIR},
	    {"missing/.. ENOENT", "/nodir/../etc/motd", LINUX_O_RDONLY, -LINUX_ENOENT},
	    {"repeated slashes", "//dev///null", LINUX_O_RDWR, 0},
	    {"dot components", "/./etc/./motd", LINUX_O_RDONLY, 0},
	    {"dot-dot components", "/bin/../etc/motd", LINUX_O_RDONLY, 0},
	    {"dot-dot above the root", "/../../dev/null", LINUX_O_RDONLY, 0},
	    {"relative from the root", "etc/motd", LINUX_O_RDONLY, 0},
	    {"trailing dot needs a directory", "/etc/motd/.", LINUX_O_RDONLY, -LINUX_ENOTDIR},
	    {"access mode 3 on a device", "/dev/null", 3, 0},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		long got = open_result(cases[i].path, cases[i].flags);
		check(got == cases[i].want, cases[i].name, "%s: got %ld, want %ld", cases[i].path,
		      got, cases[i].want);
	}

	/* Relative to a directory descriptor; a non-directory one is ENOTDIR. */
	long etc = raw_open("/etc", LINUX_O_RDONLY | LINUX_O_DIRECTORY);
	long motd = syscall4(SYS_openat, etc, (long)"motd", LINUX_O_RDONLY, 0);
	check(etc >= 0 && motd >= 0, "openat relative to a directory fd", "etc %ld, motd %ld", etc,
	      motd);
	long up = syscall4(SYS_openat, etc, (long)"../bin/sh", LINUX_O_RDONLY, 0);
	check(up >= 0, "openat ../ from a directory fd", "got %ld", up);
	expect_error("openat relative to a file fd ENOTDIR",
	             syscall4(SYS_openat, motd, (long)"x", LINUX_O_RDONLY, 0), LINUX_ENOTDIR);
	expect_error("openat relative to a bad fd EBADF",
	             syscall4(SYS_openat, 99, (long)"x", LINUX_O_RDONLY, 0), LINUX_EBADF);

	/* Reading a directory is EISDIR; access mode 3 reads and writes nothing. */
	char byte;
	expect_error("read directory EISDIR", syscall3(SYS_read, etc, (long)&byte, 1),
	             LINUX_EISDIR);
	long neither = raw_open("/dev/null", 3);
	expect_error("access mode 3: read EBADF", syscall3(SYS_read, neither, (long)&byte, 1),
	             LINUX_EBADF);

	/* lseek: archive files as Linux's generic_file_llseek, the console ESPIPE. */
	long size = syscall3(SYS_lseek, motd, 0, 2 /* SEEK_END */);
	check(size > 0, "lseek SEEK_END = size", "got %ld", size);
	expect("lseek SEEK_SET", syscall3(SYS_lseek, motd, 3, 0), 3);
	expect("lseek SEEK_CUR", syscall3(SYS_lseek, motd, 2, 1), 5);
	long past = syscall3(SYS_lseek, motd, size + 10, 0);
	long at_end = syscall3(SYS_read, motd, (long)&byte, 1);
	check(past == size + 10 && at_end == 0, "lseek beyond the end, read 0",
	      "lseek %ld, read %ld", past, at_end);
	expect_error("lseek negative EINVAL", syscall3(SYS_lseek, motd, -1, 0), LINUX_EINVAL);
	expect_error("lseek bad whence EINVAL", syscall3(SYS_lseek, motd, 0, 9), LINUX_EINVAL);
	expect("lseek SEEK_DATA", syscall3(SYS_lseek, motd, 1, 3), 1);
	expect("lseek SEEK_HOLE", syscall3(SYS_lseek, motd, 1, 4), size);
	expect_error("lseek SEEK_DATA at the end ENXIO", syscall3(SYS_lseek, motd, size, 3),
	             LINUX_ENXIO);
	expect_error("lseek console ESPIPE", syscall3(SYS_lseek, 1, 0, 0), LINUX_ESPIPE);
	expect("lseek /dev/null 0", syscall3(SYS_lseek, neither, 100, 0), 0);
	expect("lseek directory rewind", syscall3(SYS_lseek, etc, 0, 0), 0);
	expect_error("lseek directory SEEK_END EINVAL", syscall3(SYS_lseek, etc, 0, 2),
	             LINUX_EINVAL);
	expect_error("lseek EBADF", syscall3(SYS_lseek, 99, 0, 0), LINUX_EBADF);

	/* fcntl: F_DUPFD_CLOEXEC, O_APPEND among the status flags. */
	long copy = syscall3(SYS_fcntl, motd, LINUX_F_DUPFD_CLOEXEC, 10);
	check(copy >= 10, "F_DUPFD_CLOEXEC", "got %ld", copy);
	long appending = raw_open("/dev/null", LINUX_O_WRONLY | LINUX_O_APPEND);
	long flags = syscall2(SYS_fcntl, appending, LINUX_F_GETFL);
	check(flags == (LINUX_O_WRONLY | LINUX_O_APPEND), "F_GETFL O_APPEND", "flags %#lx", flags);
	syscall3(SYS_fcntl, appending, LINUX_F_SETFL, 0);
	expect("F_SETFL clears O_APPEND", syscall2(SYS_fcntl, appending, LINUX_F_GETFL),
	       LINUX_O_WRONLY);
	long fds[] = {etc, motd, up, neither, copy, appending};
	for (unsigned i = 0; i < sizeof fds / sizeof fds[0]; i++)
		syscall1(SYS_close, fds[i]);
}

/* newfstatat's answer for (directory_fd, path, flags): 0 with *mode and *inode set, or
 * -errno. */
static long stat_at(long directory_fd, const char *path, long flags, unsigned *mode,
                    unsigned long *inode)
{
	struct linux_stat status;
	long r = syscall4(SYS_newfstatat, directory_fd, (long)path, (long)&status, flags);
	*mode = r == 0 ? status.mode & LINUX_S_IFMT : 0;
	*inode = r == 0 ? status.inode : 0;
	return r;
}

/* One resolver for every call that takes (directory fd, path): openat, newfstatat and
 * readlinkat give Linux's answer for each kind of descriptor (docs/design.md, "Paths
 * and open flags"), and newfstatat finds the very file openat opens. */
static void test_paths_at(void)
{
	long etc = raw_open("/etc", LINUX_O_RDONLY | LINUX_O_DIRECTORY);
	long motd = raw_open("/etc/motd", LINUX_O_RDONLY);
	struct linux_stat motd_status;
	long r = syscall2(SYS_fstat, motd, (long)&motd_status);
	check(etc >= 0 && motd >= 0 && r == 0, "paths: /etc and /etc/motd open",
	      "etc %ld, motd %ld, fstat %ld", etc, motd, r);
	static const long bad_fd = 99;
	const struct {
		const char *name;
		long directory_fd;
		const char *path;
		long flags;    /* newfstatat's */
		long want;     /* 0 or -errno, for newfstatat and openat */
		unsigned mode; /* newfstatat's file type when it succeeds */
	} cases[] = {
	    {"relative to a directory fd", etc, "motd", 0, 0, LINUX_S_IFREG},
	    {"../ from a directory fd", etc, "../bin/sh", 0, 0, LINUX_S_IFREG},
	    {"dot from a directory fd", etc, ".", 0, 0, LINUX_S_IFDIR},
	    {"missing relative to a directory fd ENOENT", etc, "sh", 0, -LINUX_ENOENT, 0},
	    {"relative to AT_FDCWD is from /", LINUX_AT_FDCWD, "etc/motd", 0, 0, LINUX_S_IFREG},
	    {"relative to a file fd ENOTDIR", motd, "x", 0, -LINUX_ENOTDIR, 0},
	    {"relative to the console ENOTDIR", 1, "x", 0, -LINUX_ENOTDIR, 0},
	    {"relative to a bad fd EBADF", bad_fd, "motd", 0, -LINUX_EBADF, 0},
	    {"absolute ignores a bad fd", bad_fd, "/etc/motd", 0, 0, LINUX_S_IFREG},
	    {"absolute ignores a file fd", motd, "/bin", 0, 0, LINUX_S_IFDIR},
	    {"empty path ENOENT before the fd", bad_fd, "", 0, -LINUX_ENOENT, 0},
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned mode;
		unsigned long inode;
		char name[96];
		long got =
		    stat_at(cases[i].directory_fd, cases[i].path, cases[i].flags, &mode, &inode);
		snprintf(name, sizeof name, "newfstatat %s", cases[i].name);
		check(got == cases[i].want && mode == cases[i].mode, name,
		      "%s: got %ld (type %#o), want %ld (type %#o)", cases[i].path, got, mode,
		      cases[i].want, cases[i].mode);
		long fd = syscall4(SYS_openat, cases[i].directory_fd, (long)cases[i].path,
		                   LINUX_O_RDONLY, 0);
		if (fd >= 0)
			syscall1(SYS_close, fd);
		snprintf(name, sizeof name, "openat %s", cases[i].name);
		check(fd >= 0 ? cases[i].want == 0 : fd == cases[i].want, name,
		      "%s: got %ld, want %ld", cases[i].path, fd, cases[i].want);
	}

	unsigned mode;
	unsigned long inode;
	r = stat_at(etc, "motd", 0, &mode, &inode);
	check(r == 0 && inode == motd_status.inode, "newfstatat from a directory fd: the same file",
	      "result %ld, inode %lu, fstat's %lu", r, inode, (unsigned long)motd_status.inode);
	/* AT_EMPTY_PATH: the descriptor itself, of any kind; AT_FDCWD's is the root. */
	r = stat_at(motd, "", LINUX_AT_EMPTY_PATH, &mode, &inode);
	check(r == 0 && mode == LINUX_S_IFREG && inode == motd_status.inode,
	      "newfstatat AT_EMPTY_PATH on a file fd", "result %ld, type %#o", r, mode);
	r = stat_at(etc, "", LINUX_AT_EMPTY_PATH, &mode, &inode);
	check(r == 0 && mode == LINUX_S_IFDIR, "newfstatat AT_EMPTY_PATH on a directory fd",
	      "result %ld, type %#o", r, mode);
	r = stat_at(LINUX_AT_FDCWD, "", LINUX_AT_EMPTY_PATH, &mode, &inode);
	check(r == 0 && mode == LINUX_S_IFDIR, "newfstatat AT_EMPTY_PATH on AT_FDCWD",
	      "result %ld, type %#o", r, mode);
	expect_error("newfstatat AT_EMPTY_PATH on a bad fd EBADF",
	             stat_at(bad_fd, "", LINUX_AT_EMPTY_PATH, &mode, &inode), LINUX_EBADF);
	/* readlinkat: found (so EINVAL: nothing is a link) or the resolver's error. */
	char link[16];
	expect_error("readlinkat relative to a directory fd EINVAL",
	             syscall4(SYS_readlinkat, etc, (long)"motd", (long)link, sizeof link),
	             LINUX_EINVAL);
	expect_error("readlinkat relative to a file fd ENOTDIR",
	             syscall4(SYS_readlinkat, motd, (long)"x", (long)link, sizeof link),
	             LINUX_ENOTDIR);
	syscall1(SYS_close, etc);
	syscall1(SYS_close, motd);
}

/* ioctl on the console: termios, queue sizes, drain, non-blocking mode. */
static void test_ioctl(void)
{
	raw_termios saved, changed, read_back;
	int count = -1;

	long r = syscall3(SYS_ioctl, 1, TCGETS, (long)&saved);
	check(r == 0 && (saved.c_oflag & (OPOST | ONLCR)) == (OPOST | ONLCR) &&
	          (saved.c_lflag & (ICANON | ECHO | ISIG)) == (ICANON | ECHO | ISIG),
	      "TCGETS", "result %ld, c_oflag %#x, c_lflag %#x", r, saved.c_oflag, saved.c_lflag);

	changed = saved;
	changed.c_iflag ^= ICRNL;
	changed.c_cflag ^= HUPCL;
	changed.c_cc[VMIN] = 7;
	changed.c_cc[VTIME] = 3;
	long set = syscall3(SYS_ioctl, 1, TCSETS, (long)&changed);
	long get = syscall3(SYS_ioctl, 1, TCGETS, (long)&read_back);
	check(set == 0 && get == 0 && read_back.c_iflag == changed.c_iflag &&
	          read_back.c_oflag == changed.c_oflag && read_back.c_cflag == changed.c_cflag &&
	          memcmp(read_back.c_cc, changed.c_cc, sizeof changed.c_cc) == 0,
	      "TCSETS round trip", "TCSETS %ld, TCGETS %ld", set, get);
	/* The UART runs 8N1 whatever is asked: TCGETS says so (Linux keeps a driver's
	 * hardware bits when it cannot change them, tty_termios_copy_hw). */
	changed.c_cflag = (changed.c_cflag & ~(unsigned)CSIZE) | CS7 | CSTOPB | PARENB;
	set = syscall3(SYS_ioctl, 1, TCSETS, (long)&changed);
	syscall3(SYS_ioctl, 1, TCGETS, (long)&read_back);
	check(set == 0 && (read_back.c_cflag & (CSIZE | CSTOPB | PARENB)) == CS8,
	      "TCSETS keeps the 8N1 framing in force", "TCSETS %ld, c_cflag %#o", set,
	      read_back.c_cflag);
	expect("TCSETS restore", syscall3(SYS_ioctl, 1, TCSETS, (long)&saved), 0);

	EXPECT_EFAULT_OUT("TCGETS EFAULT", syscall3(SYS_ioctl, 1, TCGETS, address));
	EXPECT_EFAULT_IN("TCSETS EFAULT", syscall3(SYS_ioctl, 1, TCSETS, address));
	expect_error("ioctl EBADF", syscall3(SYS_ioctl, 100, TCGETS, (long)&read_back),
	             LINUX_EBADF);
	long null_fd = raw_open("/dev/null", LINUX_O_RDWR);
	expect_error("TCGETS ENOTTY /dev/null",
	             syscall3(SYS_ioctl, null_fd, TCGETS, (long)&read_back), LINUX_ENOTTY);
	syscall1(SYS_close, null_fd);
	r = syscall3(SYS_ioctl, 1, 0x1234, 0);
	check(r == -LINUX_ENOTTY || r == -LINUX_EINVAL, "ioctl unknown request",
	      "got %ld, want -%d or -%d", r, LINUX_ENOTTY, LINUX_EINVAL);

	r = syscall3(SYS_ioctl, 0, FIONREAD, (long)&count);
	check(r == 0 && count >= 0, "FIONREAD", "result %ld, count %d", r, count);
	EXPECT_EFAULT_OUT("FIONREAD EFAULT", syscall3(SYS_ioctl, 0, FIONREAD, address));
	count = -1;
	r = syscall3(SYS_ioctl, 1, TIOCOUTQ, (long)&count);
	check(r == 0 && count >= 0, "TIOCOUTQ", "result %ld, count %d", r, count);
	expect("TCSBRK drain", syscall3(SYS_ioctl, 1, TCSBRK, 1), 0);

	/* FIONBIO on a console fd of our own (fd 0 may be shared with a parent shell). */
	long fd = raw_open("/dev/console", LINUX_O_RDONLY);
	int on = 1, off = 0;
	long set_on = syscall3(SYS_ioctl, fd, FIONBIO, (long)&on);
	long flags_on = syscall2(SYS_fcntl, fd, LINUX_F_GETFL);
	long nread = syscall3(SYS_read, fd, (long)&count, 1);
	long set_off = syscall3(SYS_ioctl, fd, FIONBIO, (long)&off);
	long flags_off = syscall2(SYS_fcntl, fd, LINUX_F_GETFL);
	check(set_on == 0 && (flags_on & LINUX_O_NONBLOCK) && nread == -LINUX_EAGAIN &&
	          set_off == 0 && !(flags_off & LINUX_O_NONBLOCK),
	      "FIONBIO", "on %ld (flags %#lx), read %ld, off %ld (flags %#lx)", set_on, flags_on,
	      nread, set_off, flags_off);
	EXPECT_EFAULT_IN("FIONBIO EFAULT", syscall3(SYS_ioctl, fd, FIONBIO, address));
	syscall1(SYS_close, fd);
}

/* The UART's rate now, as the console's INFO ioctl reports it; 0 if that failed. */
static unsigned console_baud(void)
{
	struct console_info info;
	return syscall3(SYS_ioctl, 1, CONSOLE_IOCTL_INFO, (long)&info) == 0 ? info.baud : 0;
}

/* TCSETS with `speed` in c_cflag (the rest as `base`); TCSETS's result. */
static long set_speed(const raw_termios *base, unsigned speed, long request)
{
	raw_termios changed = *base;
	changed.c_cflag = (changed.c_cflag & ~(unsigned)(LINUX_CBAUD | LINUX_CIBAUD)) | speed;
	return syscall3(SYS_ioctl, 1, request, (long)&changed);
}

/* The line speed: TCGETS reports what the UART runs at; TCSETS applies a new speed
 * (after the output drained) or refuses one the UART's clock cannot make, changing
 * nothing; B0, BOTHER and a separate input speed are EINVAL. */
static void test_line_speed(void)
{
	raw_termios saved, now;
	long r = syscall3(SYS_ioctl, 1, TCGETS, (long)&saved);
	unsigned boot_baud = console_baud();
	unsigned boot_code = saved.c_cflag & LINUX_CBAUD;
	check(r == 0 && boot_baud > 0 && (saved.c_cflag & LINUX_CIBAUD) == 0, "TCGETS speed fields",
	      "result %ld, c_cflag %#o, baud %u", r, saved.c_cflag, boot_baud);

	/* 9600 and 19200 are reachable from any usual UART clock (QEMU's 3.6864 MHz gives
	 * them exactly; the D1's 24 MHz within 0.2 %). */
	unsigned target = boot_code == LINUX_B9600 ? LINUX_B19200 : LINUX_B9600;
	unsigned target_baud = target == LINUX_B9600 ? 9600 : 19200;
	long set = set_speed(&saved, target, TCSETS);
	long get = syscall3(SYS_ioctl, 1, TCGETS, (long)&now);
	unsigned applied = console_baud();
	check(set == 0 && get == 0 && (now.c_cflag & LINUX_CBAUD) == target &&
	          applied * 50 >= target_baud * 49 && applied * 49 <= target_baud * 50,
	      "TCSETS applies a new speed", "TCSETS %ld, TCGETS code %#o, UART %u baud", set,
	      now.c_cflag & LINUX_CBAUD, applied);
	printf("test_syscalls: this line went out at %u baud\n", applied);

	/* 4 Mbaud needs a 64 MHz UART clock: QEMU's (3.6864 MHz) and the D1's (24 MHz) are
	 * refused, and nothing changes. A line model with uart.line.clock=0 makes any rate:
	 * then it must be applied, and said, like any other. */
	struct console_info info;
	syscall3(SYS_ioctl, 1, CONSOLE_IOCTL_INFO, (long)&info);
	bool clock_limited = !info.line_model && info.uart_clock_hz != 0;
	long refused = set_speed(&saved, LINUX_B4000000, TCSETS);
	syscall3(SYS_ioctl, 1, TCGETS, (long)&now);
	bool unchanged = refused == -LINUX_EINVAL && (now.c_cflag & LINUX_CBAUD) == target &&
	                 console_baud() == applied;
	bool taken = refused == 0 && (now.c_cflag & LINUX_CBAUD) == LINUX_B4000000 &&
	             console_baud() == 4000000;
	check(clock_limited ? unchanged : unchanged || taken,
	      "TCSETS refuses a speed the clock cannot make", "TCSETS %ld, code now %#o, %u baud",
	      refused, now.c_cflag & LINUX_CBAUD, console_baud());
	expect_error("TCSETS B0 EINVAL", set_speed(&saved, 0, TCSETS), LINUX_EINVAL);
	expect_error("TCSETS BOTHER EINVAL", set_speed(&saved, LINUX_BOTHER, TCSETS), LINUX_EINVAL);
	expect_error("TCSETS other input speed EINVAL",
	             set_speed(&saved, target | (LINUX_B4000000 << 16), TCSETS), LINUX_EINVAL);
	expect("TCSETS same input speed", set_speed(&saved, target | (target << 16), TCSETS), 0);

	set = set_speed(&saved, boot_code, TCSETSW);
	get = syscall3(SYS_ioctl, 1, TCGETS, (long)&now);
	check(set == 0 && (now.c_cflag & LINUX_CBAUD) == boot_code && console_baud() == boot_baud,
	      "TCSETSW restores the boot speed", "TCSETSW %ld, code %#o, %u baud", set,
	      now.c_cflag & LINUX_CBAUD, console_baud());

	/* Through the C library: cfgetospeed reads what TCGETS reported. */
	struct termios libc_settings;
	int libc_result = tcgetattr(1, &libc_settings);
	check(libc_result == 0 && cfgetospeed(&libc_settings) == boot_code,
	      "cfgetospeed after tcgetattr", "result %d, speed %#o", libc_result,
	      (unsigned)cfgetospeed(&libc_settings));
}

/* fcntl F_GETFL / F_SETFL and O_NONBLOCK reads. */
static void test_fcntl(void)
{
	char c;
	long fd = raw_open("/dev/console", LINUX_O_RDWR);

	long flags = syscall2(SYS_fcntl, fd, LINUX_F_GETFL);
	check(flags >= 0 && (flags & 3) == LINUX_O_RDWR && !(flags & LINUX_O_NONBLOCK), "F_GETFL",
	      "flags %#lx", flags);
	long set = syscall3(SYS_fcntl, fd, LINUX_F_SETFL, LINUX_O_NONBLOCK | LINUX_O_WRONLY);
	long after = syscall2(SYS_fcntl, fd, LINUX_F_GETFL);
	check(set == 0 && (after & LINUX_O_NONBLOCK) && (after & 3) == LINUX_O_RDWR,
	      "F_SETFL O_NONBLOCK only", "F_SETFL %ld, flags now %#lx", set, after);
	expect_error("O_NONBLOCK read EAGAIN", syscall3(SYS_read, fd, (long)&c, 1), LINUX_EAGAIN);
	set = syscall3(SYS_fcntl, fd, LINUX_F_SETFL, 0);
	after = syscall2(SYS_fcntl, fd, LINUX_F_GETFL);
	check(set == 0 && !(after & LINUX_O_NONBLOCK), "F_SETFL clear", "flags now %#lx", after);
	expect_error("fcntl EBADF", syscall2(SYS_fcntl, 100, LINUX_F_GETFL), LINUX_EBADF);
	expect_error("fcntl EINVAL command", syscall3(SYS_fcntl, fd, 1000, 0), LINUX_EINVAL);
	syscall1(SYS_close, fd);

	long nonblocking = raw_open("/dev/console", LINUX_O_RDONLY | LINUX_O_NONBLOCK);
	expect_error("openat O_NONBLOCK read EAGAIN", syscall3(SYS_read, nonblocking, (long)&c, 1),
	             LINUX_EAGAIN);
	syscall1(SYS_close, nonblocking);
}

/* clock_gettime and clock_getres, raw and through libc. */
static void test_clocks(void)
{
	struct timespec t1, t2, res;
	bool ordered = true;

	long r = syscall2(SYS_clock_gettime, LINUX_CLOCK_MONOTONIC, (long)&t1);
	for (int i = 0; i < 1000 && ordered; i++) {
		syscall2(SYS_clock_gettime, LINUX_CLOCK_MONOTONIC, (long)&t2);
		ordered =
		    t2.tv_nsec >= 0 && t2.tv_nsec < NS_PER_SECOND &&
		    (t2.tv_sec > t1.tv_sec || (t2.tv_sec == t1.tv_sec && t2.tv_nsec >= t1.tv_nsec));
		t1 = t2;
	}
	check(r == 0 && ordered, "CLOCK_MONOTONIC never goes back", "result %ld", r);
	r = syscall2(SYS_clock_gettime, LINUX_CLOCK_REALTIME, (long)&t1);
	check(r == 0 && t1.tv_sec >= 0 && t1.tv_nsec >= 0 && t1.tv_nsec < NS_PER_SECOND,
	      "CLOCK_REALTIME", "result %ld, %lld.%09ld", r, (long long)t1.tv_sec, t1.tv_nsec);
	for (int clock = 0; clock < 2; clock++) {
		r = syscall2(SYS_clock_getres, clock, (long)&res);
		check(r == 0 && res.tv_sec == 0 && res.tv_nsec > 0,
		      clock == 0 ? "clock_getres REALTIME" : "clock_getres MONOTONIC",
		      "result %ld, %lld.%09ld", r, (long long)res.tv_sec, res.tv_nsec);
	}
	expect_error("clock_gettime EINVAL clock", syscall2(SYS_clock_gettime, 99, (long)&t1),
	             LINUX_EINVAL);
	expect_error("clock_getres EINVAL clock", syscall2(SYS_clock_getres, 99, (long)&res),
	             LINUX_EINVAL);
	EXPECT_EFAULT_OUT("clock_gettime EFAULT",
	                  syscall2(SYS_clock_gettime, LINUX_CLOCK_MONOTONIC, address));

	/* The libc wrapper translates picolibc's CLOCK_MONOTONIC (4) to Linux's (1). */
	long before = monotonic_ns();
	int libc_result = clock_gettime(CLOCK_MONOTONIC, &t1);
	long after = monotonic_ns();
	long libc_ns = t1.tv_sec * NS_PER_SECOND + t1.tv_nsec;
	check(libc_result == 0 && before <= libc_ns && libc_ns <= after,
	      "clock_gettime libc CLOCK_MONOTONIC", "result %d, %ld not in [%ld, %ld]", libc_result,
	      libc_ns, before, after);
}

/* `clock` in nanoseconds (raw call); -1 if the call failed. */
static long clock_ns(long clock)
{
	struct timespec now;

	if (syscall2(SYS_clock_gettime, clock, (long)&now) != 0)
		return -1;
	return now.tv_sec * NS_PER_SECOND + now.tv_nsec;
}

/* The CPU-time clocks: they count only the time this process (one thread) ran, so
 * busy work advances them and sleeping does not, never by more than the monotonic
 * clock moved; both read the same task. */
static void test_cpu_clocks(void)
{
	struct timespec t1, t2, res;
	bool ordered = true;

	long r = syscall2(SYS_clock_gettime, LINUX_CLOCK_THREAD, (long)&t1);
	for (int i = 0; i < 1000 && ordered; i++) {
		syscall2(SYS_clock_gettime, LINUX_CLOCK_THREAD, (long)&t2);
		ordered =
		    t2.tv_nsec >= 0 && t2.tv_nsec < NS_PER_SECOND &&
		    (t2.tv_sec > t1.tv_sec || (t2.tv_sec == t1.tv_sec && t2.tv_nsec >= t1.tv_nsec));
		t1 = t2;
	}
	check(r == 0 && ordered, "CLOCK_THREAD_CPUTIME_ID never goes back", "result %ld", r);
	long process_before = clock_ns(LINUX_CLOCK_PROCESS);
	long thread = clock_ns(LINUX_CLOCK_THREAD);
	long process_after = clock_ns(LINUX_CLOCK_PROCESS);
	check(process_before > 0 && process_before <= thread && thread <= process_after,
	      "CLOCK_PROCESS_CPUTIME_ID is the one thread's",
	      "process %ld, thread %ld, process %ld", process_before, thread, process_after);
	for (long clock = LINUX_CLOCK_PROCESS; clock <= LINUX_CLOCK_THREAD; clock++) {
		r = syscall2(SYS_clock_getres, clock, (long)&res);
		check(r == 0 && res.tv_sec == 0 && res.tv_nsec > 0,
		      clock == LINUX_CLOCK_PROCESS ? "clock_getres PROCESS_CPUTIME"
		                                   : "clock_getres THREAD_CPUTIME",
		      "result %ld, %lld.%09ld", r, (long long)res.tv_sec, res.tv_nsec);
	}

	long mono_start = monotonic_ns();
	long cpu_start = clock_ns(LINUX_CLOCK_PROCESS);
	volatile unsigned long spin = 0;
	for (long i = 0; i < 200000; i++)
		spin += (unsigned long)i;
	long cpu_spun = clock_ns(LINUX_CLOCK_PROCESS) - cpu_start;
	long mono_spun = monotonic_ns() - mono_start;
	check(cpu_spun > 0 && cpu_spun <= mono_spun, "CPU time grows while spinning",
	      "cpu +%ld ns, monotonic +%ld ns", cpu_spun, mono_spun);

	struct timespec request = timespec_from_ns(10 * NS_PER_MS);
	mono_start = monotonic_ns();
	cpu_start = clock_ns(LINUX_CLOCK_THREAD);
	syscall2(SYS_nanosleep, (long)&request, 0);
	long cpu_slept = clock_ns(LINUX_CLOCK_THREAD) - cpu_start;
	long mono_slept = monotonic_ns() - mono_start;
	check(cpu_start > 0 && cpu_slept >= 0 && cpu_slept < mono_slept,
	      "CPU time does not count a sleep", "cpu +%ld ns, monotonic +%ld ns", cpu_slept,
	      mono_slept);

	/* Through the C library's own clock ids. */
	int libc_result = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	check(libc_result == 0 && (t1.tv_sec > 0 || t1.tv_nsec > 0),
	      "clock_gettime libc CLOCK_PROCESS_CPUTIME_ID", "result %d, %lld.%09ld", libc_result,
	      (long long)t1.tv_sec, t1.tv_nsec);
	expect_error("clock_gettime per-pid CPU clock EINVAL",
	             syscall2(SYS_clock_gettime, LINUX_CLOCK_PID_SELF, (long)&t1), LINUX_EINVAL);
	expect_error("clock_nanosleep CPU clock EINVAL",
	             syscall4(SYS_clock_nanosleep, LINUX_CLOCK_THREAD, 0, (long)&request, 0),
	             LINUX_EINVAL);
}

/* nanosleep and clock_nanosleep, relative and absolute. */
static void test_sleeping(void)
{
	struct timespec request = timespec_from_ns(SLEEP_NS);

	long start = monotonic_ns();
	long r = syscall2(SYS_nanosleep, (long)&request, 0);
	long slept = monotonic_ns() - start;
	check(r == 0 && slept >= SLEEP_NS, "nanosleep 20 ms", "result %ld after %ld ns", r, slept);

	start = monotonic_ns();
	r = syscall4(SYS_clock_nanosleep, LINUX_CLOCK_MONOTONIC, 0, (long)&request, 0);
	slept = monotonic_ns() - start;
	check(r == 0 && slept >= SLEEP_NS, "clock_nanosleep relative", "result %ld after %ld ns", r,
	      slept);

	long deadline = monotonic_ns() + SLEEP_NS;
	struct timespec absolute = timespec_from_ns(deadline);
	r = syscall4(SYS_clock_nanosleep, LINUX_CLOCK_MONOTONIC, LINUX_TIMER_ABSTIME,
	             (long)&absolute, 0);
	long now = monotonic_ns();
	check(r == 0 && now >= deadline, "clock_nanosleep TIMER_ABSTIME",
	      "result %ld, woke %ld ns before the deadline", r, deadline - now);

	absolute = timespec_from_ns(monotonic_ns() / 2); /* in the past however early */
	start = monotonic_ns();
	r = syscall4(SYS_clock_nanosleep, LINUX_CLOCK_MONOTONIC, LINUX_TIMER_ABSTIME,
	             (long)&absolute, 0);
	slept = monotonic_ns() - start;
	check(r == 0 && slept < NS_PER_SECOND / 10, "clock_nanosleep past deadline",
	      "result %ld after %ld ns", r, slept);

	r = syscall4(SYS_clock_nanosleep, LINUX_CLOCK_REALTIME, 0, (long)&request, 0);
	expect("clock_nanosleep REALTIME", r, 0);

	struct timespec zero = {0, 0};
	expect("nanosleep 0", syscall2(SYS_nanosleep, (long)&zero, 0), 0);
	struct timespec bad_ns = {0, NS_PER_SECOND};
	struct timespec negative = {-1, 0};
	expect_error("nanosleep EINVAL nsec", syscall2(SYS_nanosleep, (long)&bad_ns, 0),
	             LINUX_EINVAL);
	expect_error("nanosleep EINVAL negative", syscall2(SYS_nanosleep, (long)&negative, 0),
	             LINUX_EINVAL);
	EXPECT_EFAULT_IN("nanosleep EFAULT", syscall2(SYS_nanosleep, address, 0));
	expect_error("clock_nanosleep EINVAL clock",
	             syscall4(SYS_clock_nanosleep, 99, 0, (long)&request, 0), LINUX_EINVAL);
	EXPECT_EFAULT_IN("clock_nanosleep EFAULT",
	                 syscall4(SYS_clock_nanosleep, LINUX_CLOCK_MONOTONIC, 0, address, 0));

	/* libc: picolibc's TIMER_ABSTIME (4) and CLOCK_MONOTONIC (4) are translated. */
	deadline = monotonic_ns() + SLEEP_NS;
	absolute = timespec_from_ns(deadline);
	int error = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &absolute, NULL);
	now = monotonic_ns();
	check(error == 0 && now >= deadline, "clock_nanosleep libc TIMER_ABSTIME",
	      "error %d, woke %ld ns early", error, deadline - now);
}

/* trace_control (502): bad operations and masks, short and bad status buffers; once
 * turned off and emptied (a program before this one, such as the fuzzer, may have left
 * it on), the status says so and a read copies nothing. */
static void test_trace_control(void)
{
	struct trace_status status;
	struct trace_record records[4];
	syscall4(SYS_trace_control, TRACE_OP_SET_MASK, 0, 0, 0);
	syscall4(SYS_trace_control, TRACE_OP_RESET, 0, 0, 0);
	expect_error("trace_control bad op", syscall4(SYS_trace_control, 99, 0, 0, 0),
	             LINUX_EINVAL);
	expect_error("trace_control bad mask",
	             syscall4(SYS_trace_control, TRACE_OP_SET_MASK, 0x100, 0, 0), LINUX_EINVAL);
	expect_error("trace_control short status",
	             syscall4(SYS_trace_control, TRACE_OP_STATUS, 0, (long)&status, 8),
	             LINUX_EINVAL);
	EXPECT_EFAULT_OUT("trace_control status EFAULT",
	                  syscall4(SYS_trace_control, TRACE_OP_STATUS, 0, address, sizeof status));
	long got = syscall4(SYS_trace_control, TRACE_OP_STATUS, 0, (long)&status, sizeof status);
	check(got == 0 && status.mask == 0 && status.harts >= 1 && status.records[0] == 0,
	      "trace_control status", "got %ld, mask %u, harts %u", got, (unsigned)status.mask,
	      (unsigned)status.harts);
	expect("trace_control read nothing",
	       syscall4(SYS_trace_control, TRACE_OP_READ, 0, (long)records, sizeof records), 0);
}

/* sched_yield, affinity, cpu_times. */
static void test_sched(void)
{
	struct duplex_cpu_times first[64], second[64];
	unsigned long all = 0, mask = 0;

	expect("sched_yield", syscall0(SYS_sched_yield), 0);

	long harts = syscall2(SYS_cpu_times, (long)first, 64);
	syscall0(SYS_sched_yield);
	long again = syscall2(SYS_cpu_times, (long)second, 64);
	bool growing = harts >= 1 && again == harts;
	for (long i = 0; growing && i < harts; i++)
		growing = second[i].busy_ns >= first[i].busy_ns &&
		          second[i].idle_ns >= first[i].idle_ns &&
		          second[i].busy_ns + second[i].idle_ns > 0;
	check(growing, "cpu_times", "%ld harts, then %ld", harts, again);
	EXPECT_EFAULT_OUT("cpu_times EFAULT", syscall2(SYS_cpu_times, address, 64));
	if (harts < 1 || harts > 63)
		harts = 1;
	unsigned long every_hart = (1UL << harts) - 1;

	long size = syscall3(SYS_sched_getaffinity, 0, sizeof all, (long)&all);
	check(size == 8 && (all & every_hart) == every_hart, "sched_getaffinity",
	      "result %ld, mask %#lx, %ld harts", size, all, harts);

	/* Pin to each hart in turn, yield there, read the mask back. */
	int bad_hart = -1;
	long set = 0;
	for (int hart = 0; hart < harts && bad_hart < 0; hart++) {
		unsigned long one = 1UL << hart;
		set = syscall3(SYS_sched_setaffinity, 0, sizeof one, (long)&one);
		syscall0(SYS_sched_yield);
		long get = syscall3(SYS_sched_getaffinity, 0, sizeof mask, (long)&mask);
		if (set != 0 || get != 8 || mask != one)
			bad_hart = hart;
	}
	long restore =
	    syscall3(SYS_sched_setaffinity, syscall0(SYS_getpid), sizeof all, (long)&all);
	check(bad_hart < 0 && restore == 0, "sched_setaffinity each hart",
	      "hart %d: set %ld, mask %#lx; restore %ld", bad_hart, set, mask, restore);

	unsigned long none = 0, missing = 1UL << 63;
	expect_error("sched_setaffinity EINVAL empty",
	             syscall3(SYS_sched_setaffinity, 0, sizeof none, (long)&none), LINUX_EINVAL);
	expect_error("sched_setaffinity EINVAL no such hart",
	             syscall3(SYS_sched_setaffinity, 0, sizeof missing, (long)&missing),
	             LINUX_EINVAL);
	/* Linux's sizes: a short mask for setaffinity is zero-filled, a long one read to 8
	 * bytes; getaffinity wants whole longs and returns 8 however long the buffer. */
	unsigned char hart0_only = 1;
	long short_set = syscall3(SYS_sched_setaffinity, 0, 1, (long)&hart0_only);
	unsigned long long_buffer[2] = {~0ul, ~0ul}, hart0_mask = 0;
	long long_get = syscall3(SYS_sched_getaffinity, 0, sizeof long_buffer, (long)long_buffer);
	syscall3(SYS_sched_getaffinity, 0, sizeof hart0_mask, (long)&hart0_mask);
	unsigned long all_and_more[2] = {all, ~0ul};
	long long_set = syscall3(SYS_sched_setaffinity, 0, sizeof all_and_more, (long)all_and_more);
	check(short_set == 0 && hart0_mask == 1 && long_get == 8 && long_buffer[1] == ~0ul &&
	          long_set == 0,
	      "sched_{set,get}affinity sizes",
	      "short set %ld -> mask %#lx; long get %ld; long set %ld", short_set, hart0_mask,
	      long_get, long_set);
	unsigned long spare = 0;
	expect_error("sched_getaffinity EINVAL not whole longs",
	             syscall3(SYS_sched_getaffinity, 0, 4, (long)&spare), LINUX_EINVAL);
	expect_error("sched_setaffinity EINVAL size 0",
	             syscall3(SYS_sched_setaffinity, 0, 0, (long)&all), LINUX_EINVAL);
	syscall3(SYS_sched_setaffinity, 0, sizeof all, (long)&all);
	EXPECT_EFAULT_IN("sched_setaffinity EFAULT",
	                 syscall3(SYS_sched_setaffinity, 0, 8, address));
	EXPECT_EFAULT_OUT("sched_getaffinity EFAULT",
	                  syscall3(SYS_sched_getaffinity, 0, 8, address));

	cpu_set_t cpus;
	CPU_ZERO(&cpus);
	int libc_get = sched_getaffinity(0, sizeof cpus, &cpus);
	unsigned long libc_mask; /* the set's first 8 bytes, in either libc's cpu_set_t */
	memcpy(&libc_mask, &cpus, sizeof libc_mask);
	check(libc_get == 0 && libc_mask == all && CPU_ISSET(0, &cpus), "sched_getaffinity libc",
	      "result %d, mask %#lx", libc_get, libc_mask);
}

/* brk: query, grow, use, shrink, refuse. */
static void test_brk(void)
{
	extern char _end[];
	const long grow = 64 * 1024;

	long start = syscall1(SYS_brk, 0);
	check(start >= (long)_end && start % 4096 == 0, "brk query", "break %#lx, _end %p", start,
	      (void *)_end);

	long grown = syscall1(SYS_brk, start + grow);
	bool usable = grown == start + grow;
	for (long i = 0; usable && i < grow; i += 512)
		usable = ((volatile char *)start)[i] == 0;
	if (usable) {
		memset((void *)start, 0x5a, grow);
		usable = ((volatile char *)start)[grow - 1] == 0x5a;
	}
	check(usable, "brk grow, zeroed and writable", "brk returned %#lx, wanted %#lx", grown,
	      start + grow);

	/* Writes reaching past the break must fail, not write or crash the kernel. */
	expect_error("write EFAULT across the break", syscall3(SYS_write, 1, start + grow - 16, 32),
	             LINUX_EFAULT);

	expect("brk shrink", syscall1(SYS_brk, start), start);
	long regrown = syscall1(SYS_brk, start + grow);
	bool zeroed = regrown == start + grow;
	for (long i = 0; zeroed && i < grow; i += 512)
		zeroed = ((volatile char *)start)[i] == 0;
	check(zeroed, "brk regrow is zeroed", "brk returned %#lx", regrown);
	syscall1(SYS_brk, start);

	expect("brk refuses kernel address", syscall1(SYS_brk, KERNEL_ADDRESS), start);
	/* Below the heap, into the program's own data (glibc's start-up has already moved
	 * the break, so `start` need not be the heap's first byte). */
	expect("brk refuses below start", syscall1(SYS_brk, (long)readonly_buffer), start);

	char *block = malloc(100000);
	if (block != NULL)
		memset(block, 1, 100000);
	check(block != NULL, "malloc", "malloc(100000) failed: %s", strerror(errno));
	free(block);
}

/* A getdents64 record as the kernel writes it: Duplex's libc calls it struct
 * linux_dirent64, glibc struct dirent64 (same layout). */
#ifdef __GLIBC__
typedef struct dirent64 raw_dirent64;
#else
typedef struct linux_dirent64 raw_dirent64;
#endif

/* List directory `path` with getdents64, checking every record's shape. Returns whether
 * `wanted` was listed with `type`; *error gets a failed call's result, or -1000 - offset
 * of a malformed record. */
static bool directory_lists(const char *path, const char *wanted, int type, long *error)
{
	char buffer[512];
	long n;
	bool found = false;
	long fd = raw_open(path, LINUX_O_RDONLY | LINUX_O_DIRECTORY);

	*error = fd < 0 ? fd : 0;
	while (fd >= 0 && (n = syscall3(SYS_getdents64, fd, (long)buffer, sizeof buffer)) > 0) {
		for (long at = 0; at < n;) {
			raw_dirent64 *entry = (raw_dirent64 *)(buffer + at);
			if (entry->d_reclen < offsetof(raw_dirent64, d_name) + 2 ||
			    entry->d_reclen % 8 != 0 || at + entry->d_reclen > n) {
				*error = -1000 - at; /* malformed record */
				break;
			}
			if (strcmp(entry->d_name, wanted) == 0 && entry->d_type == type)
				found = true;
			at += entry->d_reclen;
		}
	}
	if (fd >= 0 && n < 0)
		*error = n;
	syscall1(SYS_close, fd);
	return found;
}

/* getdents64 of "/" and "/bin", and its errors. */
static void test_directories(void)
{
	char buffer[256];
	long error;

	bool sh = directory_lists("/bin", "sh", DT_REG, &error);
	check(sh && error == 0, "getdents64 /bin lists sh", "found %d, error %ld", sh, error);
	bool self = directory_lists("/bin", "test_syscalls", DT_REG, &error);
	check(self && error == 0, "getdents64 /bin lists test_syscalls", "found %d, error %ld",
	      self, error);
	bool bin = directory_lists("/", "bin", DT_DIR, &error);
	check(bin && error == 0, "getdents64 / lists bin", "found %d, error %ld", bin, error);

	long fd = raw_open("/bin", LINUX_O_RDONLY | LINUX_O_DIRECTORY);
	expect_error("getdents64 EINVAL small buffer",
	             syscall3(SYS_getdents64, fd, (long)buffer, 8), LINUX_EINVAL);
	EXPECT_EFAULT_OUT("getdents64 EFAULT",
	                  syscall3(SYS_getdents64, fd, address, sizeof buffer));
	syscall1(SYS_close, fd);
	expect_error("getdents64 EBADF", syscall3(SYS_getdents64, 100, (long)buffer, sizeof buffer),
	             LINUX_EBADF);
}

/* spawn, wait4, exit, exit_group, and what children inherit. */
static void test_processes(void)
{
	char *true_argv[] = {"true", NULL};
	char *false_argv[] = {"false", NULL};
	char *env[] = {NULL};
	char fd_text[16], pid_text[16];

	reap_children();
	expect("spawn true, wait4 status 0", run_raw("/bin/true", true_argv, env), 0);
	expect("spawn false, wait4 status 1<<8", run_raw("/bin/false", false_argv, env), 1 << 8);
	expect_error("spawn ENOENT",
	             syscall3(SYS_spawn, (long)"/bin/no-such-program", (long)true_argv, (long)env),
	             LINUX_ENOENT);
	expect_error("spawn ENOEXEC",
	             syscall3(SYS_spawn, (long)"/etc/fork_garbage", (long)true_argv, (long)env),
	             LINUX_ENOEXEC);
	EXPECT_EFAULT_IN("spawn EFAULT path",
	                 syscall3(SYS_spawn, address, (long)true_argv, (long)env));
	/* A NULL argv or envp means an empty one (as in Linux); other bad arrays fault. */
	expect("spawn NULL argv and envp", run_raw("/bin/true", NULL, NULL), 0);
	EXPECT_EFAULT_FOR("spawn EFAULT argv", bad_inputs + 1, BAD_INPUT_COUNT - 1,
	                  syscall3(SYS_spawn, (long)"/bin/true", address, (long)env));
	char *bad_argv[] = {"true", (char *)KERNEL_ADDRESS, NULL};
	expect_error("spawn EFAULT argument string",
	             syscall3(SYS_spawn, (long)"/bin/true", (long)bad_argv, (long)env),
	             LINUX_EFAULT);

	/* 128 arguments of 1000 bytes: more than the whole 64 KiB stack. */
	char *big = malloc(1001);
	char *big_argv[130];
	memset(big, 'x', 1000);
	big[1000] = '\0';
	big_argv[0] = "true";
	for (int i = 1; i < 129; i++)
		big_argv[i] = big;
	big_argv[129] = NULL;
	expect_error("spawn E2BIG",
	             syscall3(SYS_spawn, (long)"/bin/true", (long)big_argv, (long)env),
	             LINUX_E2BIG);
	free(big);
	reap_children();

	expect_error("wait4 ECHILD", syscall4(SYS_wait4, -1, 0, 0, 0), LINUX_ECHILD);
	expect_error("wait4 ECHILD not a child", syscall4(SYS_wait4, 99999, 0, 0, 0), LINUX_ECHILD);

	/* WNOHANG while the child still sleeps, then a blocking wait. */
	char *sleep_argv[] = {"sleep", "0.2", NULL};
	int status = -1;
	long pid = syscall3(SYS_spawn, (long)"/bin/sleep", (long)sleep_argv, (long)env);
	long early = syscall4(SYS_wait4, pid, (long)&status, WNOHANG, 0);
	long later = syscall4(SYS_wait4, pid, (long)&status, 0, 0);
	check(pid > 0 && early == 0 && later == pid && status == 0, "wait4 WNOHANG",
	      "spawn %ld, WNOHANG %ld, wait %ld, status %#x", pid, early, later, status);

	/* pid -1 collects both children, in either order. */
	long first = syscall3(SYS_spawn, (long)"/bin/true", (long)true_argv, (long)env);
	long second = syscall3(SYS_spawn, (long)"/bin/false", (long)false_argv, (long)env);
	long got1 = syscall4(SYS_wait4, -1, (long)&status, 0, 0);
	int status1 = status;
	long got2 = syscall4(SYS_wait4, -1, (long)&status, 0, 0);
	bool both = (got1 == first && got2 == second && status1 == 0 && status == 1 << 8) ||
	            (got1 == second && got2 == first && status1 == 1 << 8 && status == 0);
	check(first > 0 && second > 0 && both, "wait4 any child", "spawned %ld %ld, got %ld %ld",
	      first, second, got1, got2);

	/* Duplex keeps no resource usage: a struct rusage (144 bytes in Linux) comes back
	 * zeroed. */
	unsigned char usage[144];
	memset(usage, 0xff, sizeof usage);
	pid = syscall3(SYS_spawn, (long)"/bin/true", (long)true_argv, (long)env);
	long waited = syscall4(SYS_wait4, pid, 0, 0, (long)usage);
	bool zeroed = true;
	for (unsigned i = 0; i < sizeof usage; i++)
		zeroed = zeroed && usage[i] == 0;
	check(pid > 0 && waited == pid && zeroed, "wait4 rusage zeroed",
	      "spawn %ld, wait4 %ld, zeroed %d", pid, waited, zeroed);

	pid = syscall3(SYS_spawn, (long)"/bin/true", (long)true_argv, (long)env);
	expect_error("wait4 EFAULT rusage", syscall4(SYS_wait4, pid, 0, 0, KERNEL_ADDRESS),
	             LINUX_EFAULT);
	expect_error("wait4 EINVAL options", syscall4(SYS_wait4, pid, 0, 0x1000, 0), LINUX_EINVAL);
	/* WUNTRACED | WCONTINUED (2 | 8): accepted, and the exit is reported as usual
	 * (user/test_jobs.c checks stops and continues). */
	int untraced_status = -1;
	long untraced = syscall4(SYS_wait4, pid, (long)&untraced_status, 2 | 8, 0);
	check(untraced == pid && untraced_status == 0, "wait4 WUNTRACED|WCONTINUED",
	      "wait4 %ld, status %#x", untraced, untraced_status);
	reap_children();
	/* NULL is a valid status pointer (no status wanted): skip bad_outputs[0]. */
	long bad_status = -LINUX_EFAULT;
	for (int i = 1; i < BAD_OUTPUT_COUNT && bad_status == -LINUX_EFAULT; i++) {
		pid = syscall3(SYS_spawn, (long)"/bin/true", (long)true_argv, (long)env);
		bad_status = syscall4(SYS_wait4, pid, (long)bad_outputs[i].address, 0, 0);
		reap_children();
	}
	expect_error("wait4 EFAULT status", bad_status, LINUX_EFAULT);

	/* Children run this program again; see run_child(). */
	char *exit_argv[] = {"test_syscalls", "child-exit", "42", NULL};
	expect("exit", run_raw(SELF, exit_argv, env), 42 << 8);
	char *group_argv[] = {"test_syscalls", "child-exit-group", "300", NULL};
	expect("exit_group keeps the low 8 bits", run_raw(SELF, group_argv, env),
	       (300 & 0xff) << 8);

	char *args_argv[] = {"test_syscalls", "child-args", "one", "two words", "", NULL};
	char *args_env[] = {"DUPLEX_TEST=yes", "EMPTY=", NULL};
	expect("argv, envp and auxv reach the child", run_raw(SELF, args_argv, args_env), 0);

	snprintf(pid_text, sizeof pid_text, "%ld", syscall0(SYS_getpid));
	char *ppid_argv[] = {"test_syscalls", "child-ppid", pid_text, NULL};
	expect("getppid in a child", run_raw(SELF, ppid_argv, env), 0);

	long fd = raw_open("/etc/motd", LINUX_O_RDONLY);
	snprintf(fd_text, sizeof fd_text, "%ld", fd);
	char *fd_argv[] = {"test_syscalls", "child-fd", fd_text, NULL};
	expect("child inherits open fds", run_raw(SELF, fd_argv, env), 0);
	syscall1(SYS_close, fd);

	char *counters_argv[] = {"test_syscalls", "child-counters", NULL};
	expect("U-mode reads time, cycle, instret", run_raw(SELF, counters_argv, env), 0);

	char *null_argv[] = {"crash", "null", NULL};
	expect("child killed by SIGSEGV", run_raw("/bin/crash", null_argv, env), LINUX_SIGSEGV);
	char *illegal_argv[] = {"crash", "illegal", NULL};
	expect("child killed by SIGILL", run_raw("/bin/crash", illegal_argv, env), LINUX_SIGILL);
	expect("parent survives its children", run_raw("/bin/true", true_argv, env), 0);
}

/* Numbers the kernel does not know. */
/* syslog(2), Linux's semantics: SIZE_BUFFER, READ_ALL whole records only, CLEAR, bad
 * arguments. */
static void test_syslog(void)
{
	static char log[512 * 256];
	long size = syscall3(SYS_syslog, 10 /* SIZE_BUFFER */, 0, 0);
	check(size > 0 && size <= (long)sizeof log, "syslog SIZE_BUFFER", "got %ld", size);
	long got = syscall3(SYS_syslog, 3 /* READ_ALL */, (long)log, sizeof log);
	check(got > 0 && log[got - 1] == '\n' && memchr(log, '[', 1) == log, "syslog READ_ALL",
	      "got %ld", got);
	/* A short buffer gets the newest whole records that fit: the same tail. */
	long whole = got;
	got = syscall3(SYS_syslog, 3, (long)log + whole, 100);
	check(got >= 0 && got <= 100 && (got == 0 || log[whole + got - 1] == '\n'),
	      "syslog READ_ALL short buffer: whole records", "got %ld", got);
	expect("syslog READ_ALL 0 bytes", syscall3(SYS_syslog, 3, (long)log, 0), 0);
	expect("syslog OPEN", syscall3(SYS_syslog, 1, 0, 0), 0);
	expect("syslog CLOSE", syscall3(SYS_syslog, 0, 0, 0), 0);
	expect_error("syslog READ_ALL NULL", syscall3(SYS_syslog, 3, 0, 64), LINUX_EINVAL);
	expect_error("syslog READ_ALL negative length", syscall3(SYS_syslog, 3, (long)log, -1),
	             LINUX_EINVAL);
	expect_error("syslog READ (not provided)", syscall3(SYS_syslog, 2, (long)log, 64),
	             LINUX_EINVAL);
	expect_error("syslog unknown action", syscall3(SYS_syslog, 99, 0, 0), LINUX_EINVAL);
	EXPECT_EFAULT_FOR("syslog READ_ALL bad buffers", bad_outputs + 1, BAD_OUTPUT_COUNT - 1,
	                  syscall3(SYS_syslog, 3, address, 4096));
}

static void test_unknown_calls(void)
{
	const long numbers[] = {300, 499, 503, 1000, 4096, -1};
	for (unsigned i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
		long r = syscall0(numbers[i]);
		if (r != -LINUX_ENOSYS) {
			check(false, "unknown numbers ENOSYS", "number %ld gave %ld", numbers[i],
			      r);
			return;
		}
	}
	check(true, "unknown numbers ENOSYS", "");
}

/* The libc layer: errno translation (Linux -> picolibc), flags, wait statuses. */
static void test_libc(void)
{
	char c;

	errno = 0;
	check(read(100, &c, 1) == -1 && errno == EBADF, "errno EBADF", "errno %d", errno);
	errno = 0;
	check(syscall(1000) == -1 && errno == ENOSYS, "errno ENOSYS",
	      "errno %d, picolibc ENOSYS is %d", errno, ENOSYS);
	/* picolibc's text for ENOSYS is "Function not implemented"; match its last word. */
	check(strstr(strerror(ENOSYS), "implemented") != NULL, "strerror ENOSYS", "\"%s\"",
	      strerror(ENOSYS));
	errno = 0;
	check(open("/no/such/file", O_RDONLY) == -1 && errno == ENOENT, "errno ENOENT", "errno %d",
	      errno);
	errno = 0;
	check(wait(NULL) == -1 && errno == ECHILD, "errno ECHILD", "errno %d", errno);
	int motd = open("/etc/motd", O_RDONLY);
	errno = 0;
	void *volatile no_buffer = NULL; /* volatile: glibc's read() is declared nonnull */
	check(read(motd, no_buffer, 1) == -1 && errno == EFAULT, "errno EFAULT", "errno %d", errno);
	close(motd);

	/* picolibc's O_NONBLOCK (0x4000) must reach the kernel as Linux's (0x800). */
	int fd = open("/dev/console", O_RDONLY | O_NONBLOCK);
	long raw_flags = syscall2(SYS_fcntl, fd, LINUX_F_GETFL);
	errno = 0;
	ssize_t n = read(fd, &c, 1);
	check(fd >= 0 && (raw_flags & LINUX_O_NONBLOCK) && n == -1 && errno == EAGAIN,
	      "errno EAGAIN and O_NONBLOCK", "fd %d, raw flags %#lx, read %ld, errno %d", fd,
	      raw_flags, (long)n, errno);
	int flags = fcntl(fd, F_GETFL);
	int cleared = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	raw_flags = syscall2(SYS_fcntl, fd, LINUX_F_GETFL);
	check((flags & O_NONBLOCK) && (flags & O_ACCMODE) == O_RDONLY && cleared == 0 &&
	          !(raw_flags & LINUX_O_NONBLOCK),
	      "fcntl libc flags", "F_GETFL %#x, F_SETFL %d, raw now %#lx", flags, cleared,
	      raw_flags);
	close(fd);

	struct termios t, raw;
	int got = tcgetattr(1, &t);
	raw = t;
	cfmakeraw(&raw);
	check(got == 0 && tcsetattr(1, TCSANOW, &t) == 0 && tcsetattr(1, TCSADRAIN, &t) == 0 &&
	          tcdrain(1) == 0 && !(raw.c_oflag & OPOST) && (raw.c_cflag & CSIZE) == CS8,
	      "termios libc", "tcgetattr %d", got);
	int null_fd = open("/dev/null", O_RDWR);
	errno = 0;
	check(isatty(1) == 1 && isatty(null_fd) == 0 && errno == ENOTTY, "isatty", "errno %d",
	      errno);
	close(null_fd);

	struct iovec parts[2] = {{"writev: libc ", 13}, {"wrapper\n", 8}};
	check(writev(1, parts, 2) == 21, "writev libc", "errno %d", errno);

	/* Kill statuses use picolibc's signal numbers after the libc wait. */
	char *argv[] = {"crash", "null", NULL};
	int status = 0;
	pid_t pid = spawn("/bin/crash", argv, environ);
	pid_t waited = waitpid(pid, &status, 0);
	check(pid > 0 && waited == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	      "waitpid libc SIGSEGV", "pid %d, waited %d, status %#x", pid, waited, status);

	void *start = sbrk(0);
	void *old = sbrk(4096);
	check(old == start && sbrk(0) == (char *)start + 4096 && sbrk(-4096) != (void *)-1 &&
	          sbrk(0) == start,
	      "sbrk", "start %p, old %p", start, old);
}

/* ------------------------------------------------------------------ children */

/* Read a U-mode counter CSR. -march has no Zicsr (picolibc's multilib selection needs
 * that), so each asm enables it for its one instruction. */
#define DEFINE_COUNTER_READER(name)                                                                \
	static unsigned long read_counter_##name(void)                                             \
	{                                                                                          \
		unsigned long value;                                                               \
		__asm__ volatile(".option push\n.option arch, +zicsr\nrd" #name " %0\n.option pop" \
		                 : "=r"(value));                                                   \
		return value;                                                                      \
	}
DEFINE_COUNTER_READER(time)
DEFINE_COUNTER_READER(cycle)
DEFINE_COUNTER_READER(instret)

/* The child side of test_processes(): exit 0 if everything looks right, else the
 * number of the first thing that was wrong. */
static int run_child(int argc, char **argv)
{
	const char *what = argv[1];

	if (strcmp(what, "child-exit") == 0)
		syscall1(SYS_exit, atoi(argv[2]));
	if (strcmp(what, "child-exit-group") == 0)
		syscall1(SYS_exit_group, atoi(argv[2]));
	if (strcmp(what, "child-args") == 0) {
		if (argc != 5 || strcmp(argv[2], "one") || strcmp(argv[3], "two words") ||
		    argv[4][0] != '\0' || argv[5] != NULL)
			return 1;
		if (environ[0] == NULL || strcmp(environ[0], "DUPLEX_TEST=yes") ||
		    environ[1] == NULL || strcmp(environ[1], "EMPTY=") || environ[2] != NULL)
			return 2;
		if (getauxval(AT_PAGESZ) != 4096)
			return 3;
		const volatile unsigned char *random = (const void *)getauxval(AT_RANDOM);
		if (random == NULL)
			return 4;
		unsigned bits = 0;
		for (int i = 0; i < 16; i++)
			bits |= random[i];
		return bits == 0 ? 5 : 0;
	}
	if (strcmp(what, "child-ppid") == 0)
		return getppid() == atoi(argv[2]) ? 0 : 1;
	if (strcmp(what, "child-fd") == 0) {
		char buf[6];
		return read(atoi(argv[2]), buf, 6) == 6 && memcmp(buf, "Duplex", 6) == 0 ? 0 : 1;
	}
	if (strcmp(what, "child-counters") == 0) {
		unsigned long time1 = read_counter_time(), cycle = read_counter_cycle();
		unsigned long instret = read_counter_instret();
		for (volatile int i = 0; i < 100000; i++)
			;
		if (read_counter_time() <= time1)
			return 1;
		if (read_counter_cycle() <= cycle)
			return 2;
		return read_counter_instret() > instret ? 0 : 3;
	}
	return 100;
}

/* ------------------------------------------------------------------ main */

/* Run as the first program or from the shell; with a child-* argument, as a child of
 * itself (run_child). */
int main(int argc, char **argv)
{
	if (argc >= 2 && strncmp(argv[1], "child-", 6) == 0)
		return run_child(argc, argv);

	bad_outputs[4].address = (uintptr_t)readonly_buffer;
	bad_outputs[5].address = (uintptr_t)main;

	test_identity();
	test_read_write();
	test_open();
	test_open_rules();
	test_ioctl();
	test_line_speed();
	test_fcntl();
	test_paths_at();
	test_clocks();
	test_cpu_clocks();
	test_sleeping();
	test_sched();
	test_trace_control();
	test_brk();
	test_directories();
	test_processes();
	test_syslog();
	test_unknown_calls();
	test_libc();

	printf("test_syscalls: %d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
