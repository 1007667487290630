/* exhaust: run the machine out of memory on purpose, and show that it fails cleanly and
 * recovers (tests/test_reliability.py).
 *
 *   exhaust procs ROUNDS   ROUNDS times: a chain of processes, each starting the next and
 *                          waiting for it, until spawn fails; every round must get as
 *                          deep as the one before and fail with ENOMEM or EAGAIN
 *   exhaust hogs ROUNDS    ROUNDS times: a chain of heap hogs, each growing its heap with
 *                          brk until that fails (or reaches the 64 MiB limit), then
 *                          starting the next, until spawn fails
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
 *   EXHAUST-DONE mode=M rounds=R failures=F
 * Links run as `exhaust -p ROUND DEPTH` and `exhaust -h ROUND DEPTH`. */
#include <duplex.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "-p") == 0)
		return process_link(atoi(argv[2]), atoi(argv[3]));
	if (argc == 4 && strcmp(argv[1], "-h") == 0)
		return hog_link(atoi(argv[2]), atoi(argv[3]));
	bool procs = argc == 3 && strcmp(argv[1], "procs") == 0;
	bool hogs = argc == 3 && strcmp(argv[1], "hogs") == 0;
	if (!procs && !hogs) {
		fprintf(stderr, "usage: exhaust procs|hogs ROUNDS\n");
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
