/* Child processes for S23 and S43-S45: `bench --worker KIND ARGS...`, spawned with the parent's
 * labelling options, each pinned to a hart. A child prints its own BENCH line (role
 * "worker"/"compute") at an agreed time after the measured window, and the report
 * combines them. The parent stays pinned to hart 0. */
#include <sys/wait.h>

#include "bench.h"

/* argv for `bench --worker ...`: the labelling options, then the worker's own. */
pid_t spawn_worker(const char *kind, int count, const uint64_t *values)
{
	static char strings[24][32];
	char *argv[40];
	int a = 0;
	argv[a++] = "bench";
	argv[a++] = "--backend";
	argv[a++] = (char *)cfg.backend;
	argv[a++] = "--env";
	argv[a++] = (char *)cfg.env;
	snprintf(strings[0], sizeof strings[0], "%u", (unsigned)cfg.baud);
	argv[a++] = "--baud";
	argv[a++] = strings[0];
	snprintf(strings[1], sizeof strings[1], "%llu", (unsigned long long)bench_timebase_hz);
	argv[a++] = "--timebase";
	argv[a++] = strings[1];
	if (cfg.cooked)
		argv[a++] = "--cooked";
	if (bench_table)
		argv[a++] = "--table";
	argv[a++] = "--worker";
	argv[a++] = (char *)kind;
	for (int i = 0; i < count && i < 20; i++) {
		snprintf(strings[2 + i], sizeof strings[2 + i], "%llu",
		         (unsigned long long)values[i]);
		argv[a++] = strings[2 + i];
	}
	argv[a] = NULL;
	char *envp[] = {NULL};
	pid_t pid = spawn(BENCH_PATH, argv, envp);
	if (pid < 0)
		failures++;
	/* Let the child start and pin itself before the next spawn: the scheduler places a
	 * new task on a hart that looks idle, and several spawned back to back can pile up
	 * on one hart until an idle hart happens to wake and steal them (seen: up to the
	 * 1 s timer keep-alive). */
	bench_sleep_ns(SPAWN_GAP_NS);
	return pid;
}

/* Wait for every child; returns how many failed (non-zero status or killed). */
unsigned wait_children(unsigned count)
{
	unsigned failed = 0;
	int status;
	for (unsigned i = 0; i < count; i++) {
		if (wait4(-1, &status, 0, NULL) <= 0) {
			failed++;
			break;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
	}
	return failed;
}

/* `bench --worker KIND ARGS...`: run that worker (argv[0] is KIND); 2 for bad arguments.
 * Called by main() in a child. */
int worker_main(int argc, char **argv)
{
	uint64_t v[12] = {0};
	for (int i = 1; i < argc && i <= 12; i++)
		v[i - 1] = strtoull(argv[i], NULL, 0);
	if (argc >= 1 && strcmp(argv[0], "pacer") == 0 && argc == 3)
		return worker_pacer((int)v[0], v[1]);
	if (argc >= 1 && strcmp(argv[0], "records") == 0 && argc == 7)
		return worker_records((int)v[0], (int)v[1], (unsigned)v[2], (unsigned)v[3], v[4],
		                      v[5]);
	if (argc >= 1 && strcmp(argv[0], "pipe-reader") == 0 && argc == 4)
		return worker_pipe_reader((int)v[0], v[1], (int)v[2]);
	if (argc >= 1 && strcmp(argv[0], "sigspin") == 0 && argc == 2)
		return worker_sigspin((int)v[0]);
	if (argc >= 1 && strcmp(argv[0], "spin") == 0 && argc == 3)
		return worker_spin((int)v[0], v[1]);
	if (argc >= 1 && strcmp(argv[0], "compute") == 0 && argc == 8 && v[0] < S45_PHASES)
		return worker_compute((int)v[0], (int)v[1], v[2], v[3], v[4], v[5], v[6]);
	fprintf(stderr, "bench: bad --worker arguments\n");
	return 2;
}
