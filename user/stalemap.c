/* stalemap: can a new program see a dead program's memory through a hart's stale TLB?
 * (tests/test_reliability.py; a regression test for a kernel bug it found.)
 *
 *   stalemap          run the scenario below; needs 4 harts; run it as the first program
 *                     (init=/bin/stalemap): the hogs it leaves behind hold all memory until
 *                     they notice it is gone (a few ms after it exits)
 *
 * The scenario, all in one process tree (hart numbers are indices, as sched_setaffinity
 * counts them):
 *   1. The writer (stalemap -w) runs on hart 1, maps a heap page at SECRET_ADDRESS,
 *      writes a marker there and reads it back (hart 1's TLB now holds that translation).
 *      It stays on hart 1, busy, so nothing else starts there.
 *   2. A chain of hogs (stalemap -h) on hart 3 takes every free page: each grows its
 *      heap to the limit and starts the next, until a spawn fails; the last one then
 *      takes what that failed spawn gave back and says "memory is full" by resetting
 *      the console telemetry (see console_writes).
 *   3. The writer sees the reset, moves to hart 2 and exits there. Hart 1 goes idle. The writer's
 * pages are the only free ones, and its page-table root is the lowest of them.
 *   4. The reader (stalemap -r) is started: the page allocator hands it the writer's root
 *      page, so its satp value is the writer's. It moves to hart 1 and loads from
 *      SECRET_ADDRESS, which it never mapped.
 * Right: the load faults (SIGSEGV, the one-line report). Wrong (the bug): hart 1 kept the
 * writer's table loaded while idle, the scheduler compared satp values, saw "the same"
 * and skipped the reload and its sfence.vma, and the reader read the marker through the
 * stale translation: "STALEMAP-BREACH ...".
 * Ends with "STALEMAP-DONE memory-was-full=yes reader=killed|exited status=N". */
#include <duplex.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SECRET_OFFSET (64u * 1024) /* above the end of the program: heap only */
#define MARKER        "STALEMAP-MARKER"
#define PAGE_BYTES    4096u
#define WRITER_HART   1
#define EXIT_HART     2
#define HOG_HART      3
#define HARTS_NEEDED  4

extern char _end[];

/* The page the writer maps and the reader must not see. */
static uintptr_t secret_address(void)
{
	return (((uintptr_t)_end + PAGE_BYTES - 1) & ~(uintptr_t)(PAGE_BYTES - 1)) + SECRET_OFFSET;
}

static void pin(int hart)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(hart, &set);
	sched_setaffinity(0, sizeof set, &set);
}

/* Console writes so far, from the telemetry. The last hog's signal to the writer is a
 * reset of these counters: that ioctl, like this one, allocates nothing, where a line
 * printed with memory full needs kernel buffers, and a probe with brk would take the
 * very page it waits to see gone. */
static uint64_t console_writes(void)
{
	struct console_telemetry counters;
	return ioctl(1, CONSOLE_IOCTL_TELEMETRY, &counters) == 0 ? counters.write_calls : 0;
}

/* The kernel's break (raw brk: the result is the break, whether or not it moved). */
static uintptr_t kernel_brk(uintptr_t end)
{
	return (uintptr_t)syscall1(SYS_brk, (long)end);
}

static pid_t start(const char *role)
{
	char *argv[] = {"stalemap", (char *)role, NULL};
	char *envp[] = {NULL};
	fflush(stdout);
	return spawn("/bin/stalemap", argv, envp);
}

/* Step 1 and 3. */
static int writer(void)
{
	pin(WRITER_HART);
	uintptr_t secret = secret_address();
	if (kernel_brk(secret + PAGE_BYTES) != secret + PAGE_BYTES)
		return 1;
	strcpy((char *)secret, MARKER);
	if (strcmp((const char *)secret, MARKER) != 0)
		return 1;
	/* Busy on this hart, allocating nothing, until the last hog says memory is full by
	 * resetting the console's telemetry (the parent's line made the count nonzero). */
	uint64_t before = console_writes();
	if (before == 0)
		return 1;
	while (console_writes() >= before)
		continue;
	pin(EXIT_HART);
	return 0;
}

/* Take pages until brk refuses: big steps, then single pages. */
static void grow_heap(void)
{
	for (intptr_t step = 1 << 20; step >= (intptr_t)PAGE_BYTES; step /= 16) {
		while (sbrk(step) != (void *)-1)
			continue;
	}
}

/* Step 2: one hog of the chain; stays until its parent is gone. */
static int hog(void)
{
	pin(HOG_HART);
	pid_t parent = getppid();
	grow_heap();
	if (start("-h") < 0) {
		grow_heap(); /* the last one: take what the failed spawn gave back */
		ioctl(1, CONSOLE_IOCTL_RESET_TELEMETRY, 0); /* "memory is full" */
	}
	const struct timespec pause = {0, 10 * 1000 * 1000};
	while (getppid() == parent)
		nanosleep(&pause, NULL);
	return 0;
}

/* Step 4. */
static int reader(void)
{
	pin(WRITER_HART);
	volatile const char *secret = (volatile const char *)secret_address();
	char seen[sizeof MARKER];
	for (size_t i = 0; i < sizeof seen; i++)
		seen[i] = secret[i];
	seen[sizeof seen - 1] = 0;
	printf("STALEMAP-BREACH read \"%s\" at %p, which this program never mapped\n", seen,
	       (const void *)secret);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "-w") == 0)
		return writer();
	if (argc == 2 && strcmp(argv[1], "-h") == 0)
		return hog();
	if (argc == 2 && strcmp(argv[1], "-r") == 0)
		return reader();
	struct duplex_cpu_times times[64];
	if (cpu_times(times, 64) < HARTS_NEEDED) {
		fprintf(stderr, "stalemap: needs %d harts\n", HARTS_NEEDED);
		return 2;
	}
	pin(0);
	printf("stalemap: secret page at %#lx\n", (unsigned long)secret_address());
	pid_t writer_pid = start("-w");
	if (writer_pid < 0 || start("-h") < 0) {
		perror("stalemap: spawn");
		return 1;
	}
	int status;
	if (waitpid(writer_pid, &status, 0) != writer_pid || status != 0) {
		printf("stalemap: the writer failed (status %#x)\n", status);
		return 1;
	}
	pid_t reader_pid = start("-r");
	if (reader_pid < 0) {
		perror("stalemap: spawn reader");
		return 1;
	}
	waitpid(reader_pid, &status, 0);
	/* The writer exited 0: it saw the last hog's "memory is full". */
	printf("STALEMAP-DONE memory-was-full=yes reader=%s status=%d\n",
	       WIFSIGNALED(status) ? "killed" : "exited",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return WIFSIGNALED(status) && WTERMSIG(status) == 11 ? 0 : 1;
}
