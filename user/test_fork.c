/* test_fork: processes the POSIX way: fork (clone), vfork, execve (ELF and `#!`
 * scripts, every errno case), wait4 statuses, orphans adopted by init, the process
 * limit, ENOMEM when memory runs out, and no page or descriptor lost over 200 fork + execve + wait
 * rounds.
 *
 * Prints "ok NAME" or "FAIL NAME: DETAIL" per check, then "test_fork: N passed, M
 * failed"; exits 0 only if nothing failed. Built with both C libraries (user.mk
 * GLIBC_PROGRAMS), so glibc's fork(), execve() and waitpid() are exercised too. Run as
 * the first program (pid 1, init): the orphan check expects init to adopt.
 *
 * Children started with execve run this program again in a child mode:
 *   test_fork --child-args A B        exits CHILD_ARGS_OK if argv and FORKTEST=yes arrived
 *   test_fork --script-child PATH X   (from /etc/fork_script) exits SCRIPT_OK if argv is
 *                                     what Linux's binfmt_script makes of it */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#ifdef __GLIBC__
#include <spawn.h>
#endif
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define SELF          "/bin/test_fork"
#define CHILD_ARGS_OK 42
#define SCRIPT_OK     43
#define ROUNDS        200

/* Linux values for raw calls (include/uapi/linux/sched.h, asm-generic/resource.h). */
#define LINUX_SIGCHLD        17
#define CLONE_VM_            0x100
#define CLONE_SIGHAND_       0x800
#define CLONE_VFORK_         0x4000
#define CLONE_THREAD_        0x10000
#define CLONE_PARENT_SETTID_ 0x100000
#define CLONE_CHILD_SETTID_  0x1000000
#define RLIMIT_NPROC_        6

static int shared_value = 1;

static int vfork_run(const char *path, char *const argv[]);

/* The parts of Linux's struct sysinfo this test reads (64-bit longs: freeram at byte
 * 40, procs at 80; include/uapi/linux/sysinfo.h). */
struct system_counts {
	unsigned long free_pages;
	unsigned procs;
};

static struct system_counts system_counts(void)
{
	/* A child that was just reaped may still be on its way out on another hart (its
	 * kernel stack is freed by its last switch, after the parent woke): let it go. */
	struct timespec settle = {0, 5 * 1000 * 1000};
	nanosleep(&settle, NULL);
	unsigned char info[112] = {0};
	syscall(SYS_sysinfo, info);
	unsigned long free_bytes;
	unsigned short procs;
	unsigned mem_unit;
	memcpy(&free_bytes, info + 40, sizeof free_bytes);
	memcpy(&procs, info + 80, sizeof procs);
	memcpy(&mem_unit, info + 104, sizeof mem_unit);
	struct system_counts counts = {free_bytes * (mem_unit ? mem_unit : 1) / 4096, procs};
	return counts;
}

/* How many descriptors are open (fstat succeeds) among 0..63. */
static int open_descriptors(void)
{
	int count = 0;
	for (int fd = 0; fd < 64; fd++) {
		struct stat st;
		if (fstat(fd, &st) == 0)
			count++;
	}
	return count;
}

/* Wait for `pid`; its raw status, or -1 if waitpid did not return it. */
static int wait_for(pid_t pid)
{
	int status = 0;
	pid_t got = waitpid(pid, &status, 0);
	return got == pid ? status : -1;
}

static bool exited_with(int status, int code)
{
	return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == code;
}

static void test_fork_basics(void)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0)
		_exit(getppid() == parent && getpid() != parent ? 7 : 1);
	check(pid > 0, "fork returns the child's pid", "got %d errno %d", (int)pid, errno);
	int status = wait_for(pid);
	check(exited_with(status, 7), "fork: child returns 0, sees its parent, exit status 7",
	      "status %#x", status);

	/* Memory is a copy: a write in the child is not seen by the parent. */
	shared_value = 1;
	char *heap = malloc(64);
	strcpy(heap, "parent");
	char stack_text[16] = "parent";
	pid = fork();
	if (pid == 0) {
		bool saw = shared_value == 1 && strcmp(heap, "parent") == 0 &&
		           strcmp(stack_text, "parent") == 0;
		shared_value = 2;
		strcpy(heap, "child");
		strcpy(stack_text, "child");
		_exit(saw ? 0 : 1);
	}
	status = wait_for(pid);
	check(exited_with(status, 0), "fork: child sees the parent's data, heap and stack", "%#x",
	      status);
	check(shared_value == 1 && strcmp(heap, "parent") == 0 && strcmp(stack_text, "parent") == 0,
	      "fork: the child's writes are its own", "value %d heap %s stack %s", shared_value,
	      heap, stack_text);
	free(heap);

	/* Descriptors are inherited, and share the open file (its offset). */
	int fd = open("/etc/motd", O_RDONLY);
	char first[4] = {0};
	pid = fork();
	if (pid == 0)
		_exit(read(fd, first, 4) == 4 ? 0 : 1);
	status = wait_for(pid);
	check(fd >= 0 && exited_with(status, 0), "fork: the child reads an inherited descriptor",
	      "fd %d status %#x", fd, status);
	check(lseek(fd, 0, SEEK_CUR) == 4, "fork: the open file (offset) is shared", "offset %ld",
	      (long)lseek(fd, 0, SEEK_CUR));
	close(fd);

	/* A child killed by a fault: WIFSIGNALED with SIGSEGV. */
	pid = fork();
	if (pid == 0) {
		volatile int *volatile bad = (volatile int *)16;
		*bad = 1;
		_exit(1);
	}
	status = wait_for(pid);
	check(status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	      "wait4: a child killed by a fault is WIFSIGNALED with SIGSEGV", "status %#x", status);

	/* exit codes above 127 and 0 come through whole. */
	pid = fork();
	if (pid == 0)
		_exit(200);
	check(exited_with(wait_for(pid), 200), "wait4: exit status 200", "");
}

#ifdef __riscv_flen
/* The FPU registers are copied too: fs1 (callee-saved, so fork keeps it) set before
 * fork is still there in the child. */
static void test_fork_fpu(void)
{
	uint64_t bits = 0x400921fb54442d18ull, seen = 0; /* pi */
	__asm__ volatile("fmv.d.x fs1, %0" ::"r"(bits) : "fs1");
	pid_t pid = fork();
	__asm__ volatile("fmv.x.d %0, fs1" : "=r"(seen));
	if (pid == 0)
		_exit(seen == bits ? 0 : 1);
	check(exited_with(wait_for(pid), 0) && seen == bits, "fork: FPU registers are copied", "");
}
#endif

static void test_clone_flags(void)
{
	errno = 0;
	long r = syscall(SYS_clone, CLONE_VM_ | CLONE_SIGHAND_ | CLONE_THREAD_, 0, 0, 0, 0);
	check(r == -1 && errno == EINVAL, "clone: CLONE_THREAD is EINVAL", "r %ld errno %d", r,
	      errno);
	errno = 0;
	r = syscall(SYS_clone, CLONE_VM_ | LINUX_SIGCHLD, 0, 0, 0, 0);
	check(r == -1 && errno == EINVAL, "clone: CLONE_VM without CLONE_VFORK is EINVAL",
	      "r %ld errno %d", r, errno);
	errno = 0;
	r = syscall(SYS_clone3, 0, 0);
	check(r == -1 && errno == ENOSYS, "clone3 is ENOSYS (glibc falls back to clone)",
	      "r %ld errno %d", r, errno);

	/* The tid pointers: the child's pid written in the child's and parent's memory. */
	static int child_tid, parent_tid;
	child_tid = parent_tid = 0;
	r = syscall(SYS_clone, CLONE_CHILD_SETTID_ | CLONE_PARENT_SETTID_ | LINUX_SIGCHLD, 0,
	            &parent_tid, &child_tid, 0);
	if (r == 0)
		_exit(child_tid == getpid() ? 0 : 1);
	check(r > 0 && exited_with(wait_for((pid_t)r), 0),
	      "clone: CLONE_CHILD_SETTID writes the pid in the child", "r %ld", r);
	check(parent_tid == r && child_tid == 0,
	      "clone: CLONE_PARENT_SETTID writes it in the parent",
	      "parent_tid %d child_tid %d r %ld", parent_tid, child_tid, r);
}

static void test_vfork(void)
{
	shared_value = 1;
	pid_t pid = vfork();
	if (pid == 0) {
		shared_value = 5; /* vfork shares memory: the parent sees this */
		_exit(5);
	}
	int status = wait_for(pid);
	check(pid > 0 && exited_with(status, 5), "vfork: child exits 5", "pid %d status %#x",
	      (int)pid, status);
	check(shared_value == 5, "vfork: the child ran on the parent's memory", "value %d",
	      shared_value);
	shared_value = 1;

	char *argv[] = {"true", NULL};
	check(exited_with(vfork_run("/bin/true", argv), 0), "vfork + execve /bin/true", "");
}

/* Run `path` in a forked child; return the child's wait status. */
static int run(const char *path, char *const argv[], char *const envp[])
{
	pid_t pid = fork();
	if (pid == 0) {
		execve(path, argv, envp);
		_exit(99);
	}
	return pid > 0 ? wait_for(pid) : -1;
}

static void test_execve(void)
{
	char *argv[] = {"test_fork", "--child-args", "a b", "c", NULL};
	char *envp[] = {"FORKTEST=yes", NULL};
	check(exited_with(run(SELF, argv, envp), CHILD_ARGS_OK), "execve: argv and envp arrive",
	      "");

	char *script_argv[] = {"fork_script", "x", NULL};
	check(exited_with(run("/etc/fork_script", script_argv, envp), SCRIPT_OK),
	      "execve: a #! script runs by its interpreter with its argument", "");

	char *true_argv[] = {"true", NULL};
	char *false_argv[] = {"false", NULL};
	check(exited_with(run("/bin/true", true_argv, envp), 0), "execve /bin/true: exit 0", "");
	check(exited_with(run("/bin/false", false_argv, envp), 1), "execve /bin/false: exit 1", "");

	/* Failures return to the caller intact, with Linux's errno. */
	static const struct {
		const char *path;
		int error;
		const char *name;
	} failures[] = {
	    {"/bin/no-such-program", ENOENT, "execve: a missing file is ENOENT"},
	    {"", ENOENT, "execve: an empty path is ENOENT"},
	    {"/bin/true/x", ENOTDIR, "execve: a file as a directory is ENOTDIR"},
	    {"/bin", EACCES, "execve: a directory is EACCES"},
	    {"/etc/motd", EACCES, "execve: a file without x permission is EACCES"},
	    {"/etc/fork_garbage", ENOEXEC, "execve: an executable that is no ELF is ENOEXEC"},
	    {"/etc/fork_loop", ELOOP, "execve: scripts nested too deep are ELOOP"},
	};
	shared_value = 77;
	for (size_t i = 0; i < sizeof failures / sizeof failures[0]; i++) {
		errno = 0;
		int r = execve(failures[i].path, true_argv, envp);
		check(r == -1 && errno == failures[i].error, failures[i].name, "r %d errno %d", r,
		      errno);
	}
	errno = 0;
	int r = execve((const char *)8, true_argv, envp);
	check(r == -1 && errno == EFAULT, "execve: a bad path pointer is EFAULT", "errno %d",
	      errno);
	errno = 0;
	char *bad_argv[] = {"true", (char *)8, NULL};
	r = execve("/bin/true", bad_argv, envp);
	check(r == -1 && errno == EFAULT, "execve: a bad argv string is EFAULT", "errno %d", errno);
	static char *many[70];
	for (int i = 0; i < 69; i++)
		many[i] = "x";
	errno = 0;
	r = execve("/bin/true", many, envp);
	check(r == -1 && errno == E2BIG, "execve: too many arguments is E2BIG", "errno %d", errno);
	check(shared_value == 77 && getpid() == 1, "execve: the caller is intact after failures",
	      "value %d pid %d", shared_value, (int)getpid());
	shared_value = 1;

	/* execvp searches PATH. */
	pid_t pid = fork();
	if (pid == 0) {
		setenv("PATH", "/nowhere:/bin", 1);
		execvp("true", true_argv);
		_exit(99);
	}
	check(exited_with(wait_for(pid), 0), "execvp: finds true in PATH", "");
}

static void test_wait(void)
{
	errno = 0;
	check(waitpid(-1, NULL, 0) == -1 && errno == ECHILD, "wait4: no child is ECHILD",
	      "errno %d", errno);
	errno = 0;
	check(waitpid(12345, NULL, 0) == -1 && errno == ECHILD, "wait4: not our child is ECHILD",
	      "errno %d", errno);

	pid_t pid = fork();
	if (pid == 0) {
		struct timespec pause = {0, 20 * 1000 * 1000};
		nanosleep(&pause, NULL);
		_exit(3);
	}
	int status = 0;
	check(waitpid(pid, &status, WNOHANG) == 0, "wait4: WNOHANG with a running child is 0", "");
	check(exited_with(wait_for(pid), 3), "wait4: then the child's status", "");

	/* Two children, reaped by -1 in any order. */
	pid_t a = fork();
	if (a == 0)
		_exit(10);
	pid_t b = fork();
	if (b == 0)
		_exit(11);
	int seen = 0;
	for (int i = 0; i < 2; i++) {
		pid_t got = wait(&status);
		if (got == a && exited_with(status, 10))
			seen |= 1;
		if (got == b && exited_with(status, 11))
			seen |= 2;
	}
	check(seen == 3, "wait4(-1): both children, each with its status", "seen %d", seen);

	/* An orphan goes to init (this program, pid 1), which reaps it. */
	pid_t middle = fork();
	if (middle == 0) {
		pid_t first_parent = getpid(); /* read before: the middle may be gone at once */
		pid_t orphan = fork();
		if (orphan == 0) {
			while (getppid() == first_parent)
				sched_yield();
			_exit(getppid() == 1 ? 21 : 22);
		}
		_exit(orphan > 0 ? 20 : 1);
	}
	check(exited_with(wait_for(middle), 20), "orphan: its parent exits", "");
	pid_t got = wait(&status);
	check(got > 0 && exited_with(status, 21),
	      "orphan: adopted by init (getppid 1), reaped by it", "got %d status %#x", (int)got,
	      status);
}

static void test_process_groups(void)
{
	pid_t me = getpid();
	check(getpgid(0) == me && getpgrp() == me && getsid(0) == me,
	      "init leads its process group and session", "pgid %d sid %d", (int)getpgid(0),
	      (int)getsid(0));
	errno = 0;
	check(setsid() == -1 && errno == EPERM, "setsid: a group leader is EPERM", "errno %d",
	      errno);
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 100000 && getpgid(0) != getpid(); i++)
			sched_yield();
		_exit(getpgid(0) == getpid() && getsid(0) == getppid() ? 30 : 31);
	}
	int r = setpgid(pid, pid);
	check(r == 0 && getpgid(pid) == pid, "setpgid: a child into a group of its own",
	      "r %d errno %d", r, errno);
	int status = 0;
	errno = 0;
	pid_t got = waitpid(0, &status, WNOHANG);
	check(got == -1 && errno == ECHILD, "wait4(0): a child in another group is not waited for",
	      "got %d errno %d", (int)got, errno);
	got = waitpid(-pid, &status, 0);
	check(got == pid && exited_with(status, 30), "wait4(-pgid): the child in that group",
	      "got %d status %#x", (int)got, status);
	errno = 0;
	check(setpgid(12345, 0) == -1 && errno == ESRCH, "setpgid: not a child is ESRCH",
	      "errno %d", errno);
	errno = 0;
	check(setpgid(0, -1) == -1 && errno == EINVAL, "setpgid: a negative group is EINVAL",
	      "errno %d", errno);
	pid = fork();
	if (pid == 0)
		_exit(setsid() == getpid() && getsid(0) == getpid() && getpgid(0) == getpid() ? 32
		                                                                              : 33);
	check(exited_with(wait_for(pid), 32), "setsid: a child leads a new session and group", "");
}

static void test_process_limit(void)
{
	struct system_counts before = system_counts();
	unsigned long limit[2] = {before.procs + 3, ~0ul};
	long r = syscall(SYS_prlimit64, 0, RLIMIT_NPROC_, limit, NULL);
	pid_t children[8];
	int made = 0;
	errno = 0;
	for (; made < 8; made++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(0); /* a zombie until reaped: it still counts */
		if (pid < 0)
			break;
		children[made] = pid;
	}
	int error = errno;
	check(r == 0 && made == 3 && error == EAGAIN, "fork: EAGAIN at RLIMIT_NPROC",
	      "r %ld made %d errno %d", r, made, error);
	for (int i = 0; i < made; i++)
		wait_for(children[i]);
	unsigned long unlimited[2] = {~0ul, ~0ul};
	syscall(SYS_prlimit64, 0, RLIMIT_NPROC_, unlimited, NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	check(pid > 0 && exited_with(wait_for(pid), 0), "fork works again below the limit", "");
}

#ifdef __GLIBC__
/* glibc's posix_spawn: clone3 (ENOSYS here), then clone(CLONE_VM|CLONE_VFORK) on a
 * stack of its own; the child reports a failed exec through the shared memory, so
 * ENOENT comes back from posix_spawn itself only if the memory really is shared. */
static void test_posix_spawn(void)
{
	char *argv[] = {"true", NULL};
	pid_t pid = 0;
	int r = posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ);
	check(r == 0 && pid > 0 && exited_with(wait_for(pid), 0), "glibc posix_spawn /bin/true",
	      "r %d pid %d", r, (int)pid);
	r = posix_spawn(&pid, "/bin/no-such-program", NULL, NULL, argv, environ);
	check(r == ENOENT, "glibc posix_spawn of a missing program is ENOENT", "r %d", r);
	if (r == 0)
		wait_for(pid);
}
#endif

/* Out of memory: fork shares pages copy-on-write, but it still needs new page tables
 * (one leaf table per 2 MiB mapped here), a process and a kernel stack. With all but a
 * few of the free pages mapped here, those do not fit: ENOMEM, and every page the
 * attempt took comes back. */
static void *map_all_but(unsigned long *mapped_pages)
{
	for (unsigned long slack = 8; slack <= 64; slack *= 2) {
		unsigned long free_pages = system_counts().free_pages;
		size_t bytes = (free_pages - slack) * 4096;
		void *hog =
		    mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (hog != MAP_FAILED) {
			*mapped_pages = free_pages - slack;
			return hog;
		}
	}
	return MAP_FAILED;
}

static void test_fork_out_of_memory(void)
{
	unsigned long pages = 0;
	/* munmap keeps the page tables it emptied (until exit): map and unmap once first,
	 * so that the count below sees only what fork does. */
	void *hog = map_all_but(&pages);
	if (hog != MAP_FAILED)
		munmap(hog, pages * 4096);
	struct system_counts before = system_counts();
	hog = map_all_but(&pages);
	size_t bytes = pages * 4096;
	errno = 0;
	pid_t pid = hog == MAP_FAILED ? -2 : fork();
	if (pid == 0)
		_exit(0);
	int error = errno;
	if (pid > 0)
		wait_for(pid);
	if (hog != MAP_FAILED)
		munmap(hog, bytes);
	struct system_counts after = system_counts();
	check(pid == -1 && error == ENOMEM, "fork: ENOMEM when memory runs out", "pid %d errno %d",
	      (int)pid, error);
	check(after.free_pages == before.free_pages && after.procs == before.procs,
	      "fork: the failed fork leaves no page or process behind",
	      "free pages %lu -> %lu, procs %u -> %u", before.free_pages, after.free_pages,
	      before.procs, after.procs);
	pid = fork();
	if (pid == 0)
		_exit(0);
	check(pid > 0 && exited_with(wait_for(pid), 0), "fork works again after ENOMEM", "");
}

/* vfork + execve `path`: the wait status. Its own function, so that nothing of the
 * caller's lives in registers the vfork child could change under it. */
static int __attribute__((noinline)) vfork_run(const char *path, char *const argv[])
{
	pid_t pid = vfork();
	if (pid == 0) {
		execve(path, argv, environ);
		_exit(99);
	}
	return pid > 0 ? wait_for(pid) : -1;
}

/* fork + execve + wait of /bin/true, `rounds` times, each also vfork'ing once. */
static int fork_exec_rounds(int rounds)
{
	char *argv[] = {"true", NULL};
	int good = 0;
	for (int i = 0; i < rounds; i++) {
		good += exited_with(run("/bin/true", argv, environ), 0);
		good += exited_with(vfork_run("/bin/true", argv), 0);
	}
	return good;
}

static void test_nothing_leaks(void)
{
	fork_exec_rounds(3); /* warm the kernel heap's caches */
	struct system_counts before = system_counts();
	int descriptors = open_descriptors();
	int good = fork_exec_rounds(ROUNDS);
	struct system_counts after = system_counts();
	check(good == 2 * ROUNDS, "200 fork+execve+wait and vfork+execve+wait rounds", "good %d",
	      good);
	check(after.free_pages == before.free_pages, "no page lost over 200 rounds",
	      "free pages %lu before, %lu after", before.free_pages, after.free_pages);
	check(after.procs == before.procs && open_descriptors() == descriptors,
	      "no process or descriptor lost over 200 rounds", "procs %u -> %u, fds %d -> %d",
	      before.procs, after.procs, descriptors, open_descriptors());
}

static int child_mode(int argc, char **argv)
{
	if (strcmp(argv[1], "--child-args") == 0) {
		const char *value = getenv("FORKTEST");
		bool ok = argc == 4 && strcmp(argv[0], "test_fork") == 0 &&
		          strcmp(argv[2], "a b") == 0 && strcmp(argv[3], "c") == 0 && value &&
		          strcmp(value, "yes") == 0;
		return ok ? CHILD_ARGS_OK : 1;
	}
	if (strcmp(argv[1], "--script-child") == 0) {
		bool ok = argc == 4 && strcmp(argv[0], "/bin/test_fork") == 0 &&
		          strcmp(argv[2], "/etc/fork_script") == 0 && strcmp(argv[3], "x") == 0;
		return ok ? SCRIPT_OK : 1;
	}
	return 2;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strncmp(argv[1], "--", 2) == 0)
		return child_mode(argc, argv);
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_fork_basics();
#ifdef __riscv_flen
	test_fork_fpu();
#endif
	test_clone_flags();
	test_vfork();
	test_execve();
	test_wait();
	test_process_groups();
	test_process_limit();
#ifdef __GLIBC__
	test_posix_spawn();
#endif
	test_fork_out_of_memory();
	test_nothing_leaks();
	printf("test_fork: %d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
