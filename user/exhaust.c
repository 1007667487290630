/* exhaust: run the machine out of memory on purpose, and show that it fails cleanly and
 * recovers (tests/test_reliability.py).
 *
 *   exhaust procs ROUNDS   ROUNDS times: a chain of processes, each starting the next and
 *                          waiting for it, until spawn fails; every round must get as
 *                          deep as the one before and fail with ENOMEM or EAGAIN
 *   exhaust hogs ROUNDS    ROUNDS times: a chain of heap hogs, each growing its heap with
 *                          brk until that fails (or reaches the 64 MiB limit), then
 *                          starting the next, until spawn fails
 *   exhaust faults ROUNDS  ROUNDS times the same fault injection: user/frame_faults.h's
 *                          broken signal frames; clone onto an unmapped stack, with
 *                          flags Duplex cannot do, vfork + execve; execve with bad
 *                          pointers, E2BIG, no ELF, a `#!` whose interpreter is
 *                          missing; pipe2, dup3, fcntl and ppoll/pselect6 with bad
 *                          pointers, flags and masks, and a full descriptor table; tmpfs
 *                          written full (ENOSPC), by bytes and by names, then emptied.
 *                          Each round prints its counts afterwards: from the second
 *                          round on, the free pages, descriptors and processes must be
 *                          the same every round (the first warms the kernel heap)
 *
 * A chain is sequential (each link is started only once the one before is done
 * growing), so with no leak every round ends up in the same state: the same depth,
 * the same pages. A page the kernel lost in one round would show up as a shallower
 * chain or fewer pages in the next.
 *
 * Output (the deepest link frees its reserve or its heap before printing, so the line
 * does not depend on memory that is gone):
 *   EXHAUST-PROCS round=R depth=D error=ENOMEM|EAGAIN|...
 *   EXHAUST-HOG round=R depth=D pages=P [error=...]      one line per hog, deepest first
 *   EXHAUST-FAULTS round=R checks=C failed=F kills=K tmpfs_bytes=B tmpfs_files=N
 *                  free_pages=P descriptors=D processes=Q     (faults: after each round;
 *                                                              FAIL lines before it)
 *   EXHAUST-DONE mode=M rounds=R failures=F
 * Links run as `exhaust -p ROUND DEPTH` and `exhaust -h ROUND DEPTH`. */
#include <duplex.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frame_faults.h"

#define RESERVE_BYTES (16 * 1024) /* each link's heap, freed by the deepest before it prints */
#define HOG_STEP_BIG  (1u << 20)
#define PAGE_BYTES    4096u

/* Exit codes a link passes up the chain. */
#define LINK_REPORTED 1  /* the report is printed; the chain just unwinds */
#define LINK_ENOMEM   10 /* the next spawn failed with ENOMEM ... */
#define LINK_EAGAIN   11 /* ... EAGAIN ... */
#define LINK_OTHER    12 /* ... something else */
#define LINK_BROKEN   20 /* a link failed in a way it could not report */

static const char *error_name(int code)
{
	return code == LINK_ENOMEM ? "ENOMEM" : code == LINK_EAGAIN ? "EAGAIN" : "other";
}

static int link_code(int error)
{
	return error == ENOMEM ? LINK_ENOMEM : error == EAGAIN ? LINK_EAGAIN : LINK_OTHER;
}

/* Start the next link: `exhaust FLAG ROUND DEPTH`. Returns its pid or -1 (errno set). */
static pid_t start_link(const char *flag, int round, int depth)
{
	char round_text[16], depth_text[16];
	snprintf(round_text, sizeof round_text, "%d", round);
	snprintf(depth_text, sizeof depth_text, "%d", depth);
	char *argv[] = {"exhaust", (char *)flag, round_text, depth_text, NULL};
	char *envp[] = {NULL};
	fflush(stdout);
	return spawn("/bin/exhaust", argv, envp);
}

/* Wait for `pid`; its exit code, or LINK_BROKEN if it was killed. */
static int wait_link(pid_t pid)
{
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return LINK_BROKEN;
	return WEXITSTATUS(status);
}

/* One link of the process chain at `depth`. */
static int process_link(int round, int depth)
{
	void *start = sbrk(0);
	if (sbrk(RESERVE_BYTES) == (void *)-1)
		return link_code(errno);
	pid_t child = start_link("-p", round, depth + 1);
	if (child < 0) {
		int code = link_code(errno);
		brk(start); /* give the memory back so this line can be printed */
		printf("EXHAUST-PROCS round=%d depth=%d error=%s\n", round, depth,
		       error_name(code));
		return LINK_REPORTED;
	}
	int code = wait_link(child);
	if (code == LINK_ENOMEM || code == LINK_EAGAIN || code == LINK_OTHER) {
		/* The child could not even reserve its heap: report for it. */
		printf("EXHAUST-PROCS round=%d depth=%d error=%s\n", round, depth + 1,
		       error_name(code));
		return LINK_REPORTED;
	}
	return code;
}

/* Grow the heap until brk refuses: big steps, then single pages. Returns the pages. */
static long grow_heap(void)
{
	long pages = 0;
	for (unsigned step = HOG_STEP_BIG; step >= PAGE_BYTES; step /= 16) {
		while (sbrk((intptr_t)step) != (void *)-1)
			pages += step / PAGE_BYTES;
	}
	return pages;
}

/* One hog of the hog chain at `depth`. */
static int hog_link(int round, int depth)
{
	void *start = sbrk(0);
	long pages = grow_heap();
	pid_t child = start_link("-h", round, depth + 1);
	if (child < 0) {
		int code = link_code(errno);
		brk(start);
		printf("EXHAUST-HOG round=%d depth=%d pages=%ld error=%s\n", round, depth, pages,
		       error_name(code));
		return LINK_REPORTED;
	}
	int code = wait_link(child);
	brk(start);
	printf("EXHAUST-HOG round=%d depth=%d pages=%ld\n", round, depth, pages);
	return code == LINK_REPORTED ? LINK_REPORTED : LINK_BROKEN;
}

/* ------------------------------------------------------------------ exhaust faults */

/* Linux values (uapi/asm-generic/errno*.h, fcntl.h, sched.h). */
#define L_SIGCHLD        17
#define L_CLONE_VM       0x100l
#define L_CLONE_VFORK    0x4000l
#define L_CLONE_THREAD   0x10000l
#define L_CHILD_SETTID   0x1000000l
#define L_CHILD_CLEARTID 0x200000l
#define L_F_DUPFD        0
#define MAX_FILES        32 /* kernel/proc/process.h PROCESS_MAX_FILES */
#define FILL_CHUNK       65536
#define TMPFS_FILL       "/tmp/exhaust-fill"
#define NO_INTERPRETER   "/tmp/exhaust-no-interpreter"

static int fault_checks, fault_failures, fault_kills, total_failures;

/* unlink(2) as unlinkat(AT_FDCWD, path, 0); 0 or -1 with errno. */
static int remove_file(const char *path)
{
	long result = syscall3(SYS_unlinkat, -100 /* AT_FDCWD */, (long)(uintptr_t)path, 0);
	if (result < 0)
		errno = (int)-result;
	return result < 0 ? -1 : 0;
}

/* How many descriptors are open (fstat succeeds) among 0..MAX_FILES - 1. */
static int open_descriptors(void)
{
	struct stat status;
	int open = 0;
	for (int fd = 0; fd < MAX_FILES; fd++)
		open += fstat(fd, &status) == 0;
	return open;
}

static void fault_check(bool ok, const char *name, long got)
{
	fault_checks++;
	if (ok)
		return;
	fault_failures++;
	printf("FAIL %s: got %ld\n", name, got);
}

/* The wait status of `pid`, or -1. */
static int reap(long pid)
{
	int status;
	return pid > 0 && waitpid((pid_t)pid, &status, 0) == pid ? status : -1;
}

static void expect_kill(const char *name, long pid, int signal)
{
	int status = pid > 0 ? reap(pid) : -1;
	bool killed = status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == signal;
	fault_kills += killed;
	fault_check(killed, name, status);
}

static void expect_exit(const char *name, long pid, int code)
{
	int status = pid > 0 ? reap(pid) : -1;
	fault_check(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == code, name, status);
}

static long raw_fork(long flags, long stack, long child_tid)
{
	return syscall5(SYS_clone, flags, stack, 0, child_tid, 0);
}

/* The broken frames, each in a child: killed with SIGSEGV (all but one), or back. */
static void frame_cases(uint8_t *scratch)
{
	static const char *const names[FRAME_FAULT_COUNT] = {
	    "frame: scrambled registers are killed",
	    "frame: a set reserved word is killed",
	    "frame: sp unmapped at sigreturn is killed",
	    "frame: a kernel pc is killed",
	    "frame: an unmapped saved sp is killed",
	    "frame: a full saved mask returns",
	    "sigreturn with no frame (garbage) is killed",
	    "sigreturn with no frame (sp unmapped) is killed",
	    "a signal with no room for its frame is killed",
	    "a frame on an unmapped alternate stack is killed",
	};
	for (int fault = 0; fault < FRAME_FAULT_COUNT; fault++) {
		fflush(stdout);
		long pid = raw_fork(L_SIGCHLD, 0, 0);
		if (pid == 0)
			frame_fault_run((enum frame_fault)fault, scratch,
			                0x9e3779b97f4a7c15ull * (fault + 1));
		if (frame_fault_kills((enum frame_fault)fault)) {
			/* A random pc may land on anything: any fault signal; the rest SIGSEGV. */
			int status = reap(pid);
			bool killed = status != -1 && WIFSIGNALED(status) &&
			              (fault == FRAME_SCRAMBLED_REGISTERS ||
			               fault == FRAME_NONE_GARBAGE || WTERMSIG(status) == SIGSEGV);
			fault_kills += killed;
			fault_check(killed, names[fault], status);
		} else {
			expect_exit(names[fault], pid, FRAME_RETURNED_OK);
		}
	}
}

/* vfork, execve(path) in the child with registers only, exit with the errno. */
static long vfork_execve(const char *path, char *const argv[])
{
	register long a0 __asm__("a0") = L_CLONE_VM | L_CLONE_VFORK | L_SIGCHLD;
	register long a1 __asm__("a1") = 0;
	register long a2 __asm__("a2") = 0;
	register long a3 __asm__("a3") = 0;
	register long a4 __asm__("a4") = 0;
	register long a7 __asm__("a7") = SYS_clone;
	register const char *path_register __asm__("t3") = path;
	register char *const *argv_register __asm__("t4") = argv;
	__asm__ volatile(
	    "ecall\n\t"
	    "bnez a0, 1f\n\t"
	    "mv a0, t3\n\t"
	    "mv a1, t4\n\t"
	    "li a2, 0\n\t"
	    "li a7, %[execve]\n\t"
	    "ecall\n\t"
	    "neg a0, a0\n\t"
	    "li a7, %[exit_group]\n\t"
	    "ecall\n"
	    "1:"
	    : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a7)
	    : "r"(a3), "r"(a4), "r"(path_register),
	      "r"(argv_register), [execve] "i"(SYS_execve), [exit_group] "i"(SYS_exit_group)
	    : "memory");
	return a0;
}

static void clone_cases(void)
{
	fflush(stdout);
	long pid = raw_fork(L_SIGCHLD, 0x3000000000l, 0); /* the child's stack is unmapped */
	if (pid == 0) {
		__asm__ volatile("sd zero, -8(sp)" ::: "memory"); /* faults: sp is unmapped */
		_exit(1);
	}
	expect_kill("clone onto an unmapped stack is killed", pid, SIGSEGV);
	static const long invalid[] = {L_CLONE_THREAD | L_CLONE_VM | L_SIGCHLD,
	                               L_CLONE_VM | L_SIGCHLD, L_CLONE_VFORK | L_SIGCHLD, 65, 255};
	for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
		long result = raw_fork(invalid[i], 0, 0);
		if (result == 0)
			_exit(0);
		if (result > 0)
			reap(result);
		fault_check(result == -EINVAL, "clone with flags Duplex cannot do is EINVAL",
		            result);
	}
	/* A child tid pointer that is not mapped: set and cleared by the kernel, ignored. */
	pid = raw_fork(L_SIGCHLD | L_CHILD_SETTID | L_CHILD_CLEARTID, 0, 0x1000);
	if (pid == 0)
		_exit(7);
	expect_exit("fork with an unmapped child tid pointer", pid, 7);
	char *true_argv[] = {"true", NULL};
	expect_exit("vfork + execve /bin/true", vfork_execve("/bin/true", true_argv), 0);
	expect_exit("vfork + execve of a missing file exits ENOENT",
	            vfork_execve("/bin/no-such-program", true_argv), ENOENT);
	expect_exit("vfork + execve with a bad argv exits EFAULT",
	            vfork_execve("/bin/true", (char *const *)0x1000), EFAULT);
}

/* execve(path, argv, envp) in a forked child, which exits with the errno. */
static void exec_case(const char *name, const char *path, char *const argv[], char *const envp[],
                      int error)
{
	fflush(stdout);
	long pid = raw_fork(L_SIGCHLD, 0, 0);
	if (pid == 0)
		syscall1(SYS_exit_group, -syscall3(SYS_execve, (long)(uintptr_t)path,
		                                   (long)(uintptr_t)argv, (long)(uintptr_t)envp));
	expect_exit(name, pid, error);
}

static void execve_cases(void)
{
	static char huge[PAGE_BYTES * 5]; /* 20 KiB: past the 16 KiB of argument strings */
	memset(huge, 'x', sizeof huge - 1);
	static char *many[80];
	for (int i = 0; i < 79; i++)
		many[i] = "x";
	char *argv[] = {"x", NULL}, *bad_string[] = {"x", (char *)0x1000, NULL};
	char *huge_argv[] = {huge, NULL}, *envp[] = {NULL};
	int fd = open(NO_INTERPRETER, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd >= 0) {
		write(fd, "#!/no/such/interpreter\n", 23);
		close(fd);
	}
	exec_case("execve /bin/true", "/bin/true", argv, envp, 0);
	exec_case("execve: a bad path pointer is EFAULT", (const char *)0x1000, argv, envp, EFAULT);
	exec_case("execve: a kernel path pointer is EFAULT", (const char *)0xffffffffc0200000ul,
	          argv, envp, EFAULT);
	exec_case("execve: a bad argv pointer is EFAULT", "/bin/true", (char *const *)0x1000, envp,
	          EFAULT);
	exec_case("execve: a bad argv string is EFAULT", "/bin/true", bad_string, envp, EFAULT);
	exec_case("execve: a bad envp pointer is EFAULT", "/bin/true", argv, (char *const *)0x1000,
	          EFAULT);
	exec_case("execve: too many arguments is E2BIG", "/bin/true", many, envp, E2BIG);
	exec_case("execve: too long arguments is E2BIG", "/bin/true", huge_argv, envp, E2BIG);
	exec_case("execve: too long an environment is E2BIG", "/bin/true", argv, huge_argv, E2BIG);
	exec_case("execve: no ELF is ENOEXEC", "/etc/fork_garbage", argv, envp, ENOEXEC);
	exec_case("execve: a missing #! interpreter is ENOENT", NO_INTERPRETER, argv, envp, ENOENT);
	exec_case("execve: a device is EACCES", "/dev/null", argv, envp, EACCES);
	remove_file(NO_INTERPRETER);
}

static void descriptor_cases(void)
{
	int fds[2] = {-1, -1};
	fault_check(syscall2(SYS_pipe2, 0x1000, 0) == -EFAULT, "pipe2 to a bad pointer is EFAULT",
	            0);
	fault_check(syscall2(SYS_pipe2, (long)(uintptr_t)fds, 0x7fff0000) == -EINVAL,
	            "pipe2 with unknown flags is EINVAL", 0);
	fault_check(syscall3(SYS_dup3, 1, 1, 0) == -EINVAL, "dup3 onto itself is EINVAL", 0);
	fault_check(syscall3(SYS_dup3, 1, 9, 1) == -EINVAL, "dup3 with unknown flags is EINVAL", 0);
	fault_check(syscall3(SYS_dup3, 29, 9, 0) == -EBADF, "dup3 of a closed fd is EBADF", 0);
	fault_check(syscall3(SYS_dup3, 1, 32, 0) == -EBADF, "dup3 past the table is EBADF", 0);
	fault_check(syscall3(SYS_fcntl, 1, L_F_DUPFD, MAX_FILES) == -EINVAL,
	            "fcntl F_DUPFD past the table is EINVAL", 0);
	/* Fill the table: pipe2 and dup fail with EMFILE and leave nothing behind. */
	int opened = 0;
	while (syscall1(SYS_dup, 1) >= 0)
		opened++;
	long result = syscall2(SYS_pipe2, (long)(uintptr_t)fds, 0);
	fault_check(result == -EMFILE, "pipe2 into a full table is EMFILE", result);
	fault_check(syscall3(SYS_fcntl, 1, L_F_DUPFD, 0) == -EMFILE, "F_DUPFD when full is EMFILE",
	            0);
	for (int fd = MAX_FILES - 1; opened > 0; fd--, opened--)
		close(fd);
	/* One free slot: pipe2 needs two, gets none, takes none. */
	int first = (int)syscall1(SYS_dup, 1);
	while (syscall1(SYS_dup, 1) >= 0)
		;
	close(MAX_FILES - 1);
	result = syscall2(SYS_pipe2, (long)(uintptr_t)fds, 0);
	fault_check(result == -EMFILE, "pipe2 with one free slot is EMFILE", result);
	result = syscall1(SYS_dup, 1);
	fault_check(result == MAX_FILES - 1, "the one free slot is still free", result);
	for (int fd = MAX_FILES - 1; first >= 0 && fd >= first; fd--)
		close(fd);
}

static void poll_cases(void)
{
	int fds[2];
	if (pipe(fds) != 0) {
		fault_check(false, "pipe", errno);
		return;
	}
	uint64_t zero_time[2] = {0, 0}, mask = 0;
	struct {
		int fd;
		short events, revents;
	} poll_entry = {fds[0], 1, 0};
	long entry = (long)(uintptr_t)&poll_entry, time = (long)(uintptr_t)zero_time;
	fault_check(syscall5(SYS_ppoll, 0x1000, 1, time, 0, 8) == -EFAULT,
	            "ppoll of a bad array is EFAULT", 0);
	fault_check(syscall5(SYS_ppoll, entry, 1, 0x1000, 0, 8) == -EFAULT,
	            "ppoll with a bad timeout is EFAULT", 0);
	fault_check(syscall5(SYS_ppoll, entry, 1, time, 0x1000, 8) == -EFAULT,
	            "ppoll with a bad mask pointer is EFAULT", 0);
	fault_check(syscall5(SYS_ppoll, entry, 1, time, (long)(uintptr_t)&mask, 4) == -EINVAL,
	            "ppoll with a short mask is EINVAL", 0);
	fault_check(syscall5(SYS_ppoll, entry, 1 << 20, time, 0, 8) == -EINVAL,
	            "ppoll of more entries than files is EINVAL", 0);
	uint64_t set = 1ull << fds[0];
	uint64_t mask_argument[2] = {0x1000, 8};
	long set_address = (long)(uintptr_t)&set;
	fault_check(syscall6(SYS_pselect6, fds[0] + 1, 0x1000, 0, 0, time, 0) == -EFAULT,
	            "pselect6 with a bad set is EFAULT", 0);
	fault_check(syscall6(SYS_pselect6, -1, set_address, 0, 0, time, 0) == -EINVAL,
	            "pselect6 of a negative count is EINVAL", 0);
	fault_check(syscall6(SYS_pselect6, fds[0] + 1, set_address, 0, 0, 0x1000, 0) == -EFAULT,
	            "pselect6 with a bad timeout is EFAULT", 0);
	fault_check(syscall6(SYS_pselect6, fds[0] + 1, set_address, 0, 0, time, 0x1000) == -EFAULT,
	            "pselect6 with a bad mask argument is EFAULT", 0);
	fault_check(syscall6(SYS_pselect6, fds[0] + 1, set_address, 0, 0, time,
	                     (long)(uintptr_t)mask_argument) == -EFAULT,
	            "pselect6 with a bad mask pointer is EFAULT", 0);
	mask_argument[0] = (uint64_t)(uintptr_t)&mask;
	mask_argument[1] = 4;
	fault_check(syscall6(SYS_pselect6, fds[0] + 1, set_address, 0, 0, time,
	                     (long)(uintptr_t)mask_argument) == -EINVAL,
	            "pselect6 with a short mask is EINVAL", 0);
	close(fds[0]);
	close(fds[1]);
}

/* Write tmpfs full, by bytes then by names, and empty it. */
static void tmpfs_cases(long *bytes, int *files)
{
	static char chunk[FILL_CHUNK];
	memset(chunk, 0x5a, sizeof chunk);
	*bytes = 0;
	*files = 0;
	int fd = open(TMPFS_FILL, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	long result = 0;
	while (fd >= 0 &&
	       (result = syscall3(SYS_write, fd, (long)(uintptr_t)chunk, FILL_CHUNK)) > 0)
		*bytes += result;
	fault_check(fd >= 0 && result == -ENOSPC, "tmpfs written full is ENOSPC", result);
	if (fd >= 0)
		close(fd);
	/* Names: once the data is gone, empty files until a name no longer fits. */
	fault_check(remove_file(TMPFS_FILL) == 0, "the full file unlinks", errno);
	char name[48];
	for (;;) {
		snprintf(name, sizeof name, "/tmp/exhaust-name-%d", *files);
		int created = open(name, O_WRONLY | O_CREAT, 0644);
		if (created < 0) {
			fault_check(errno == ENOSPC, "tmpfs full of names is ENOSPC", errno);
			break;
		}
		close(created);
		++*files;
	}
	for (int i = 0; i < *files; i++) {
		snprintf(name, sizeof name, "/tmp/exhaust-name-%d", i);
		remove_file(name);
	}
}

static int faults_mode(int rounds)
{
	static uint8_t scratch[PAGE_BYTES * 2];
	unsigned long info[14];
	for (int round = 1; round <= rounds; round++) {
		fault_checks = fault_failures = fault_kills = 0;
		long bytes;
		int files;
		frame_cases(scratch);
		clone_cases();
		execve_cases();
		descriptor_cases();
		poll_cases();
		tmpfs_cases(&bytes, &files);
		syscall1(SYS_sysinfo, (long)(uintptr_t)info);
		printf("EXHAUST-FAULTS round=%d checks=%d failed=%d kills=%d tmpfs_bytes=%ld "
		       "tmpfs_files=%d free_pages=%lu descriptors=%d processes=%u\n",
		       round, fault_checks, fault_failures, fault_kills, bytes, files, info[5],
		       open_descriptors(), (unsigned)(info[10] & 0xffff));
		fflush(stdout);
		total_failures += fault_failures;
	}
	return total_failures;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "-p") == 0)
		return process_link(atoi(argv[2]), atoi(argv[3]));
	if (argc == 4 && strcmp(argv[1], "-h") == 0)
		return hog_link(atoi(argv[2]), atoi(argv[3]));
	bool procs = argc == 3 && strcmp(argv[1], "procs") == 0;
	bool hogs = argc == 3 && strcmp(argv[1], "hogs") == 0;
	if (argc == 3 && strcmp(argv[1], "faults") == 0) {
		int rounds = atoi(argv[2]);
		int failures = faults_mode(rounds);
		printf("EXHAUST-DONE mode=faults rounds=%d failures=%d\n", rounds, failures);
		return failures ? 1 : 0;
	}
	if (!procs && !hogs) {
		fprintf(stderr, "usage: exhaust procs|hogs|faults ROUNDS\n");
		return 2;
	}
	int rounds = atoi(argv[2]), failures = 0;
	for (int round = 1; round <= rounds; round++) {
		pid_t first = start_link(procs ? "-p" : "-h", round, 1);
		if (first < 0) {
			printf("exhaust: round %d: the first link did not start: %s\n", round,
			       strerror(errno));
			failures++;
			continue;
		}
		int code = wait_link(first);
		if (code != LINK_REPORTED) {
			printf("exhaust: round %d: the chain ended with code %d\n", round, code);
			failures++;
		}
	}
	printf("EXHAUST-DONE mode=%s rounds=%d failures=%d\n", argv[1], rounds, failures);
	return failures ? 1 : 0;
}
