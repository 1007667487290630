/* test_linux: check the system calls a Linux C library's start-up, stdio, malloc and
 * exit use (memory mappings, file status, limits, signal masks, thread ids, random
 * bytes, the auxiliary vector), and what this libc builds on them (fstat, stat, mmap,
 * syscall()). Built with picolibc (/bin/test_linux) and with glibc
 * (/bin/glibc/test_linux); both must pass the same checks (tests/test_glibc.py).
 *
 * Prints "ok NAME" / "FAIL NAME: DETAIL" per check (user/check.h), then
 * "test_linux: N passed, M failed"; exits 0 only if nothing failed.
 *
 *   test_linux               run the checks
 *   test_linux readonly      map a page, make it read-only, write to it: the kernel must
 *                            kill the program (SIGSEGV); prints "test_linux: survived"
 *                            and exits 1 if it does not
 *   test_linux unknown       call acct (89), which Duplex lacks: -ENOSYS, and the
 *                            kernel logs the call by name */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define PAGE 4096L

/* Linux values for raw calls. */
#define LINUX_ENOENT        2
#define LINUX_ESRCH         3
#define LINUX_EBADF         9
#define LINUX_ENOMEM        12
#define LINUX_EPERM         1
#define LINUX_EFAULT        14
#define LINUX_EEXIST        17
#define LINUX_ENODEV        19
#define LINUX_EINVAL        22
#define LINUX_AT_FDCWD      (-100)
#define LINUX_AT_EMPTY_PATH 0x1000
#define LINUX_PROT_READ     1
#define LINUX_PROT_WRITE    2
#define LINUX_MAP_SHARED    0x01
#define LINUX_MAP_PRIVATE   0x02
#define LINUX_MAP_FIXED     0x10
#define LINUX_MAP_ANONYMOUS 0x20
#define LINUX_MAP_NOREPLACE 0x100000
#define LINUX_S_IFMT        0170000
#define LINUX_S_IFCHR       0020000
#define LINUX_S_IFDIR       0040000
#define LINUX_S_IFREG       0100000
#define LINUX_SIGINT        2
#define LINUX_SIGKILL       9
#define LINUX_SIG_BLOCK     0
#define LINUX_SIG_SETMASK   2
#define RLIMIT_STACK_ID     3
#define RLIMIT_NOFILE_ID    7
#define AT_PHDR_ID          3
#define AT_PHENT_ID         4
#define AT_PHNUM_ID         5
#define AT_ENTRY_ID         9
#define AT_HWCAP_ID         16
#define AT_SECURE_ID        23
#define PT_LOAD_TYPE        1
#define LINUX_ENOSYS        38
#define LINUX_NR_ACCT       89

extern char _start[];

static long anonymous(long address, long length, long prot, long flags)
{
	return syscall6(SYS_mmap, address, length, prot, flags | LINUX_MAP_ANONYMOUS, -1, 0);
}

/* mmap, munmap, mprotect: raw, with Linux's errors. */
static void test_mappings(void)
{
	const long rw = LINUX_PROT_READ | LINUX_PROT_WRITE;
	long area = anonymous(0, 3 * PAGE, rw, LINUX_MAP_PRIVATE);
	check(area > 0 && area % PAGE == 0, "mmap anonymous", "result %#lx", area);
	if (area <= 0)
		return;
	volatile unsigned char *bytes = (unsigned char *)area;
	bool zero = true;
	for (long i = 0; i < 3 * PAGE; i++)
		zero = zero && bytes[i] == 0;
	memset((void *)area, 0x5a, 3 * PAGE);
	check(zero && bytes[3 * PAGE - 1] == 0x5a, "mmap zeroed and writable", "");

	long middle = area + PAGE;
	expect("mprotect read-only", syscall3(SYS_mprotect, middle, PAGE, LINUX_PROT_READ), 0);
	expect("kernel reads a read-only page", syscall3(SYS_write, 1, middle, 0), 0);
	long motd = syscall4(SYS_openat, LINUX_AT_FDCWD, (long)"/etc/motd", 0, 0);
	expect_error("kernel may not write a read-only page", syscall3(SYS_read, motd, middle, 1),
	             LINUX_EFAULT);
	syscall1(SYS_close, motd);
	expect_error("getrandom into a read-only page", syscall3(SYS_getrandom, middle, 8, 0),
	             LINUX_EFAULT);
	expect("PROT_NONE", syscall3(SYS_mprotect, middle, PAGE, 0), 0);
	expect_error("kernel may not read a PROT_NONE page", syscall3(SYS_write, 1, middle, 1),
	             LINUX_EFAULT);
	expect("mprotect back to read-write", syscall3(SYS_mprotect, middle, PAGE, rw), 0);
	check(bytes[PAGE] == 0x5a && bytes[2 * PAGE - 1] == 0x5a, "PROT_NONE keeps the memory", "");
	expect_error("mprotect unaligned", syscall3(SYS_mprotect, middle + 1, PAGE, rw),
	             LINUX_EINVAL);
	expect_error("mprotect bad prot", syscall3(SYS_mprotect, middle, PAGE, 0x100),
	             LINUX_EINVAL);
	expect_error("mprotect past the mapping",
	             syscall3(SYS_mprotect, area, 4 * PAGE, LINUX_PROT_READ), LINUX_ENOMEM);

	expect_error("mmap MAP_FIXED_NOREPLACE over a mapping",
	             anonymous(area, PAGE, rw, LINUX_MAP_PRIVATE | LINUX_MAP_NOREPLACE),
	             LINUX_EEXIST);
	long fixed = anonymous(area, PAGE, rw, LINUX_MAP_PRIVATE | LINUX_MAP_FIXED);
	check(fixed == area && bytes[0] == 0 && bytes[PAGE] == 0x5a, "mmap MAP_FIXED replaces",
	      "result %#lx", fixed);

	expect("munmap", syscall2(SYS_munmap, middle, PAGE), 0);
	expect_error("an unmapped page is gone", syscall3(SYS_write, 1, middle, 1), LINUX_EFAULT);
	expect("munmap the rest", syscall2(SYS_munmap, area, 3 * PAGE), 0);
	expect_error("munmap unaligned", syscall2(SYS_munmap, area + 1, PAGE), LINUX_EINVAL);
	expect_error("munmap length 0", syscall2(SYS_munmap, area, 0), LINUX_EINVAL);

	expect_error("mmap length 0", anonymous(0, 0, rw, LINUX_MAP_PRIVATE), LINUX_EINVAL);
	expect_error("mmap neither shared nor private", anonymous(0, PAGE, rw, 0), LINUX_EINVAL);
	expect_error("mmap more than there is", anonymous(0, 1L << 36, rw, LINUX_MAP_PRIVATE),
	             LINUX_ENOMEM);
	expect_error("mmap of the console",
	             syscall6(SYS_mmap, 0, PAGE, LINUX_PROT_READ, LINUX_MAP_SHARED, 1, 0),
	             LINUX_ENODEV);
	expect_error("mmap of a closed fd",
	             syscall6(SYS_mmap, 0, PAGE, LINUX_PROT_READ, LINUX_MAP_PRIVATE, 30, 0),
	             LINUX_EBADF);

	void *libc_area =
	    mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool libc_ok = libc_area != MAP_FAILED && mprotect(libc_area, PAGE, PROT_READ) == 0 &&
	               munmap(libc_area, 2 * PAGE) == 0;
	errno = 0;
	check(libc_ok && munmap((char *)libc_area + 1, PAGE) == -1 && errno == EINVAL,
	      "mmap, mprotect, munmap libc", "area %p, errno %d", libc_area, errno);
}

/* fstat, newfstatat, readlinkat: raw struct stat, and the libc's fstat and stat. */
static void test_status(void)
{
	struct linux_stat raw;
	long r = syscall2(SYS_fstat, 1, (long)&raw);
	check(r == 0 && (raw.mode & LINUX_S_IFMT) == LINUX_S_IFCHR && raw.special_device == 0x501,
	      "fstat console", "result %ld, mode %#o, rdev %#lx", r, raw.mode,
	      (unsigned long)raw.special_device);
	r = syscall4(SYS_newfstatat, 1, (long)"", (long)&raw, LINUX_AT_EMPTY_PATH);
	check(r == 0 && raw.special_device == 0x501, "newfstatat AT_EMPTY_PATH", "result %ld", r);
	r = syscall4(SYS_newfstatat, LINUX_AT_FDCWD, (long)"/dev/null", (long)&raw, 0);
	check(r == 0 && (raw.mode & LINUX_S_IFMT) == LINUX_S_IFCHR && raw.special_device == 0x103,
	      "newfstatat /dev/null", "result %ld, rdev %#lx", r,
	      (unsigned long)raw.special_device);
	r = syscall4(SYS_newfstatat, LINUX_AT_FDCWD, (long)"/bin/sh", (long)&raw, 0);
	check(r == 0 && (raw.mode & LINUX_S_IFMT) == LINUX_S_IFREG && (raw.mode & 0777) == 0755 &&
	          raw.size > 0 && raw.blocks == (raw.size + 511) / 512,
	      "newfstatat archive file", "result %ld, mode %#o, size %ld", r, raw.mode,
	      (long)raw.size);
	r = syscall4(SYS_newfstatat, LINUX_AT_FDCWD, (long)"bin", (long)&raw, 0);
	check(r == 0 && (raw.mode & LINUX_S_IFMT) == LINUX_S_IFDIR, "newfstatat directory",
	      "result %ld, mode %#o", r, raw.mode);
	expect_error("newfstatat ENOENT",
	             syscall4(SYS_newfstatat, LINUX_AT_FDCWD, (long)"/no/such", (long)&raw, 0),
	             LINUX_ENOENT);
	expect_error("newfstatat empty path",
	             syscall4(SYS_newfstatat, LINUX_AT_FDCWD, (long)"", (long)&raw, 0),
	             LINUX_ENOENT);
	expect_error("newfstatat bad flags",
	             syscall4(SYS_newfstatat, LINUX_AT_FDCWD, (long)"/", (long)&raw, 1),
	             LINUX_EINVAL);
	expect_error("fstat EBADF", syscall2(SYS_fstat, 29, (long)&raw), LINUX_EBADF);
	expect_error("fstat EFAULT", syscall2(SYS_fstat, 1, 0), LINUX_EFAULT);

	char link[64];
	expect_error("readlinkat /proc/self/exe",
	             syscall4(SYS_readlinkat, LINUX_AT_FDCWD, (long)"/proc/self/exe", (long)link,
	                      sizeof link),
	             LINUX_ENOENT);
	expect_error(
	    "readlinkat of a file that is not a link",
	    syscall4(SYS_readlinkat, LINUX_AT_FDCWD, (long)"/bin/sh", (long)link, sizeof link),
	    LINUX_EINVAL);

	struct stat status;
	int motd = open("/etc/motd", O_RDONLY);
	char text[4096];
	ssize_t length = motd >= 0 ? read(motd, text, sizeof text) : -1;
	check(motd >= 0 && fstat(motd, &status) == 0 && S_ISREG(status.st_mode) &&
	          status.st_size == length,
	      "fstat libc", "fd %d, size %ld, read %ld", motd, (long)status.st_size, (long)length);
	close(motd);
	check(fstat(1, &status) == 0 && S_ISCHR(status.st_mode), "fstat libc console", "");
	errno = 0;
	check(stat("/bin", &status) == 0 && S_ISDIR(status.st_mode) &&
	          stat("/no/such", &status) == -1 && errno == ENOENT,
	      "stat libc", "errno %d", errno);
}

/* Thread ids, robust lists, limits, signal state, random bytes, sysinfo. */
static void test_process_state(void)
{
	long pid = syscall0(SYS_getpid);
	int tid_word;
	expect("set_tid_address gives the tid", syscall1(SYS_set_tid_address, (long)&tid_word),
	       pid);
	expect("gettid is the pid", syscall0(SYS_gettid), pid);
	long robust[3] = {0};
	expect("set_robust_list", syscall2(SYS_set_robust_list, (long)robust, sizeof robust), 0);
	expect_error("set_robust_list bad size", syscall2(SYS_set_robust_list, (long)robust, 23),
	             LINUX_EINVAL);

	unsigned long limit[2];
	long r = syscall4(SYS_prlimit64, 0, RLIMIT_STACK_ID, 0, (long)limit);
	check(r == 0 && limit[0] == 65536 && limit[1] == 65536, "prlimit64 RLIMIT_STACK",
	      "result %ld, %lu/%lu", r, limit[0], limit[1]);
	r = syscall2(SYS_getrlimit, RLIMIT_NOFILE_ID, (long)limit);
	check(r == 0 && limit[0] == 32, "getrlimit RLIMIT_NOFILE", "result %ld, %lu", r, limit[0]);
	unsigned long lower[2] = {16, 32}, higher[2] = {32, 64}, read_back[2];
	expect("setrlimit lowers the soft limit",
	       syscall2(SYS_setrlimit, RLIMIT_NOFILE_ID, (long)lower), 0);
	syscall2(SYS_getrlimit, RLIMIT_NOFILE_ID, (long)read_back);
	check(read_back[0] == 16 && read_back[1] == 32, "getrlimit reads it back", "%lu/%lu",
	      read_back[0], read_back[1]);
	expect_error("setrlimit raising the hard limit",
	             syscall2(SYS_setrlimit, RLIMIT_NOFILE_ID, (long)higher), LINUX_EPERM);
	expect_error("prlimit64 bad resource", syscall4(SYS_prlimit64, 0, 99, 0, (long)limit),
	             LINUX_EINVAL);
	expect_error("prlimit64 other process",
	             syscall4(SYS_prlimit64, 0x7fff0000, RLIMIT_STACK_ID, 0, (long)limit),
	             LINUX_ESRCH);

	/* Kernel struct sigaction: handler, flags, mask (riscv64 has no sa_restorer). */
	unsigned long action[3] = {0x1234, 0, 1ul << (LINUX_SIGKILL - 1)}, old[3];
	expect("rt_sigaction set", syscall4(SYS_rt_sigaction, LINUX_SIGINT, (long)action, 0, 8), 0);
	r = syscall4(SYS_rt_sigaction, LINUX_SIGINT, 0, (long)old, 8);
	check(r == 0 && old[0] == 0x1234 && old[2] == 0, "rt_sigaction reads it back",
	      "handler %#lx, mask %#lx", old[0], old[2]);
	expect_error("rt_sigaction SIGKILL",
	             syscall4(SYS_rt_sigaction, LINUX_SIGKILL, (long)action, 0, 8), LINUX_EINVAL);
	expect_error("rt_sigaction set size",
	             syscall4(SYS_rt_sigaction, LINUX_SIGINT, 0, (long)old, 4), LINUX_EINVAL);
	unsigned long mask = (1ul << (LINUX_SIGINT - 1)) | (1ul << (LINUX_SIGKILL - 1)), got = 0;
	expect("rt_sigprocmask block",
	       syscall4(SYS_rt_sigprocmask, LINUX_SIG_BLOCK, (long)&mask, 0, 8), 0);
	syscall4(SYS_rt_sigprocmask, LINUX_SIG_BLOCK, 0, (long)&got, 8);
	check(got & (1ul << (LINUX_SIGINT - 1)) && !(got & (1ul << (LINUX_SIGKILL - 1))),
	      "rt_sigprocmask reads it back (SIGKILL unblockable)", "mask %#lx", got);
	unsigned long none = 0;
	syscall4(SYS_rt_sigprocmask, LINUX_SIG_SETMASK, (long)&none, 0, 8);
	expect_error("rt_sigprocmask bad how", syscall4(SYS_rt_sigprocmask, 7, (long)&mask, 0, 8),
	             LINUX_EINVAL);
	expect_error("rt_sigprocmask bad how and bad set: EFAULT first",
	             syscall4(SYS_rt_sigprocmask, 7, 8, 0, 8), LINUX_EFAULT);

	unsigned char random[16] = {0};
	r = syscall3(SYS_getrandom, (long)random, sizeof random, 0);
	unsigned bits = 0;
	for (int i = 0; i < 16; i++)
		bits |= random[i];
	check(r == 16 && bits != 0, "getrandom", "result %ld", r);
	expect_error("getrandom bad flags", syscall3(SYS_getrandom, (long)random, 16, 8),
	             LINUX_EINVAL);
	expect_error("getrandom EFAULT", syscall3(SYS_getrandom, 0, 16, 0), LINUX_EFAULT);

	/* struct sysinfo (64-bit): totalram at byte 32, freeram 40, procs 80, mem_unit 104. */
	unsigned char info[112];
	r = syscall1(SYS_sysinfo, (long)info);
	unsigned long total, free_ram;
	unsigned short processes;
	unsigned int unit;
	memcpy(&total, info + 32, 8);
	memcpy(&free_ram, info + 40, 8);
	memcpy(&processes, info + 80, 2);
	memcpy(&unit, info + 104, 4);
	check(r == 0 && unit == 4096 && total >= free_ram && free_ram > 0 && processes >= 1,
	      "sysinfo", "result %ld, unit %u, total %lu, free %lu, procs %u", r, unit, total,
	      free_ram, processes);
}

/* The auxiliary vector: the program headers, the entry point, the hardware. */
static void test_auxv(void)
{
	unsigned long phdr = getauxval(AT_PHDR_ID), phent = getauxval(AT_PHENT_ID);
	unsigned long phnum = getauxval(AT_PHNUM_ID);
	bool found_self = false;
	for (unsigned long i = 0; phdr && phent == 56 && i < phnum; i++) {
		const uint32_t *type = (const uint32_t *)(phdr + i * phent);
		const uint64_t *address = (const uint64_t *)(phdr + i * phent + 16);
		const uint64_t *size = (const uint64_t *)(phdr + i * phent + 40);
		if (*type == PT_LOAD_TYPE && phdr >= *address && phdr < *address + *size)
			found_self = true;
	}
	check(found_self, "AT_PHDR, AT_PHENT, AT_PHNUM", "phdr %#lx, phent %lu, phnum %lu", phdr,
	      phent, phnum);
	check(getauxval(AT_ENTRY_ID) == (unsigned long)_start, "AT_ENTRY", "%#lx",
	      getauxval(AT_ENTRY_ID));
	unsigned long hwcap = getauxval(AT_HWCAP_ID);
	check((hwcap & (1ul << ('i' - 'a'))) && (hwcap & (1ul << ('m' - 'a'))) &&
	          (hwcap & (1ul << ('a' - 'a'))),
	      "AT_HWCAP", "%#lx", hwcap);
	errno = 0;
	check(getauxval(AT_SECURE_ID) == 0 && errno == 0, "AT_SECURE", "errno %d", errno);
}

/* syscall() takes this libc's constants (libc/README.md). */
static void test_syscall_function(void)
{
	struct timespec now, past;
	check(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now) == 0 && now.tv_sec >= 0,
	      "syscall clock_gettime CLOCK_MONOTONIC", "errno %d", errno);
	past.tv_sec = now.tv_sec / 2;
	past.tv_nsec = 0;
	errno = 0;
	long r = syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &past, NULL);
	check(r == 0, "syscall clock_nanosleep TIMER_ABSTIME", "result %ld, errno %d", r, errno);
	long fd = syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY | O_NONBLOCK, 0);
	long flags = fd >= 0 ? syscall(SYS_fcntl, fd, F_GETFL, 0) : -1;
	check(fd >= 0 && flags >= 0 && (flags & O_NONBLOCK), "syscall openat and fcntl flags",
	      "fd %ld, flags %#lx", fd, flags);
	if (fd >= 0)
		close((int)fd);
	errno = 0;
	check(syscall(SYS_clock_gettime, 99, &now) == -1 && errno == EINVAL, "syscall errno EINVAL",
	      "errno %d", errno);
}

/* A write to a page made read-only: the kernel must kill us. */
static int write_read_only(void)
{
	char *page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED || mprotect(page, PAGE, PROT_READ) != 0) {
		perror("test_linux: mmap/mprotect");
		return 2;
	}
	printf("test_linux: writing to read-only page %p\n", (void *)page);
	fflush(stdout);
	*(volatile char *)page = 1;
	printf("test_linux: survived\n");
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "readonly") == 0)
		return write_read_only();
	if (argc == 2 && strcmp(argv[1], "unknown") == 0) {
		long r = syscall0(LINUX_NR_ACCT);
		printf("test_linux: acct gave %ld\n", r);
		return r == -LINUX_ENOSYS ? 0 : 1;
	}
	test_mappings();
	test_status();
	test_process_state();
	test_auxv();
	test_syscall_function();
	printf("test_linux: %d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
