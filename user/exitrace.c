/* exitrace: processes that end at the same moment as their parents and children, to
 * exercise the kernel's exit and wait paths where they race (tests/test_reliability.py).
 *
 *   exitrace ROUNDS WIDTH LEAVES   ROUNDS times: start WIDTH middles (middle N pinned to
 *                                  hart N % harts) and reap each as soon as it ends
 *   exitrace -m LEAVES             a middle: start LEAVES leaves and exit at once,
 *                                  without waiting for them
 *   exitrace -l PARENT             a leaf: ask getppid() 200 times; every answer must be
 *                                  PARENT (the middle), 1 (adopted by init once the
 *                                  middle ended, as on Linux) or 0 (orphaned with no
 *                                  init); anything else is printed as "EXITRACE-BAD ..."
 *
 * So leaves exit while their parent is exiting, and parents are reaped while their
 * children are still exiting. Prints "EXITRACE-DONE rounds=R middles=M failures=F". */
#include <duplex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LEAF_QUESTIONS 200

static pid_t start(char *const argv[])
{
	char *envp[] = {NULL};
	return spawn("/bin/exitrace", argv, envp);
}

static int leaf(pid_t parent)
{
	for (int i = 0; i < LEAF_QUESTIONS; i++) {
		pid_t answer = getppid();
		if (answer != parent && answer != 1 && answer != 0) {
			printf("EXITRACE-BAD leaf %d: getppid() = %d, parent was %d\n", getpid(),
			       answer, parent);
			return 1;
		}
	}
	return 0;
}

static int middle(int leaves)
{
	char parent[16];
	snprintf(parent, sizeof parent, "%d", getpid());
	char *argv[] = {"exitrace", "-l", parent, NULL};
	for (int i = 0; i < leaves; i++)
		start(argv); /* a failed spawn (out of memory) is fine here */
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "-l") == 0)
		return leaf(atoi(argv[2]));
	if (argc == 3 && strcmp(argv[1], "-m") == 0)
		return middle(atoi(argv[2]));
	if (argc != 4) {
		fprintf(stderr, "usage: exitrace ROUNDS WIDTH LEAVES\n");
		return 2;
	}
	int rounds = atoi(argv[1]), width = atoi(argv[2]), failures = 0, middles = 0;
	struct duplex_cpu_times times[64];
	long harts = cpu_times(times, 64);
	if (harts < 1)
		harts = 1;
	char *child[] = {"exitrace", "-m", argv[3], NULL};
	for (int round = 0; round < rounds; round++) {
		for (int i = 0; i < width; i++) {
			cpu_set_t set;
			CPU_ZERO(&set);
			CPU_SET(i % harts, &set);
			sched_setaffinity(0, sizeof set, &set); /* the child starts where we are */
			if (start(child) > 0)
				middles++;
		}
		/* Every child: the middles, and the leaves init (this program, when it is the
		 * first one) adopted from them. A leaf that saw a wrong parent exits 1. */
		int status;
		while (wait(&status) > 0)
			failures += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	}
	printf("EXITRACE-DONE rounds=%d middles=%d failures=%d\n", rounds, middles, failures);
	return failures ? 1 : 0;
}
