/* spin: tasks that never stop, to show that they do not starve anyone else
 * (tests/test_reliability.py).
 *
 *   spin HARTS    start HARTS spinners, spinner N pinned to hart N, and exit at once;
 *                 the spinners run forever (until power-off) and never make a system
 *                 call, so only preemption (the 10 ms slice timer) can take a hart back
 *   spin -s N     one spinner: pin to hart N, then loop forever
 *
 * Prints "SPIN-STARTED n" once the spinners are started. */
#include <duplex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Never returns: a tight loop with no calls, no memory traffic but a counter. */
static int spinner(int hart)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(hart, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		return 1;
	volatile unsigned long turns = 0;
	for (;;)
		turns++;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "-s") == 0)
		return spinner(atoi(argv[2]));
	if (argc != 2) {
		fprintf(stderr, "usage: spin HARTS\n");
		return 2;
	}
	int harts = atoi(argv[1]), started = 0;
	for (int hart = 0; hart < harts; hart++) {
		char hart_text[16];
		snprintf(hart_text, sizeof hart_text, "%d", hart);
		char *child[] = {"spin", "-s", hart_text, NULL};
		char *env[] = {NULL};
		if (spawn("/bin/spin", child, env) > 0)
			started++;
	}
	printf("SPIN-STARTED %d\n", started);
	return started == harts ? 0 : 1;
}
