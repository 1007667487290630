/* Processes, S50: what a shell pays per command. fork + wait (the child _exits at once),
 * fork + execve + wait of /bin/true, vfork + execve + wait of /bin/true, and Duplex's
 * spawn + wait of /bin/true for comparison. Each sample is one whole round, from before
 * the fork to after wait returned (ns). fork shares the parent's pages copy-on-write
 * (kernel/mm/address_space.c address_space_copy): it builds new page tables, so its cost
 * still grows with bench's size, by a page-table page per 2 MiB (fork_pages says how
 * many pages one fork takes); vfork builds nothing. Target (issue #24, under QEMU
 * -icount): fork + execve + wait of /bin/true <= 300 us. */
#include <sys/syscall.h>
#include <sys/wait.h>

#include "bench.h"

enum round_kind { FORK_WAIT, FORK_EXEC_WAIT, VFORK_EXEC_WAIT, SPAWN_WAIT, ROUND_KINDS };

static const char *const round_names[ROUND_KINDS] = {"fork_wait", "fork_execve_wait",
                                                     "vfork_execve_wait", "spawn_wait"};

static char *true_argv[] = {"true", NULL};
static char *no_environment[] = {NULL};

/* One round of `kind`; true if the child ran and exited 0. */
static bool __attribute__((noinline)) one_round(enum round_kind kind)
{
	pid_t pid;
	switch (kind) {
	case FORK_WAIT:
		pid = fork();
		if (pid == 0)
			_exit(0);
		break;
	case FORK_EXEC_WAIT:
		pid = fork();
		if (pid == 0) {
			execve("/bin/true", true_argv, no_environment);
			_exit(99);
		}
		break;
	case VFORK_EXEC_WAIT:
		pid = vfork();
		if (pid == 0) {
			execve("/bin/true", true_argv, no_environment);
			_exit(99);
		}
		break;
	default:
		pid = spawn("/bin/true", true_argv, no_environment);
		break;
	}
	int status = 0;
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

/* How many pages one fork of bench takes (its page tables, the child's kernel stack and
 * the pages either side copies before the child's sleep): free pages (sysinfo, 64-bit longs:
 * freeram at byte 40) before the fork and right after it, while the child sleeps. */
static long pages_one_fork_takes(void)
{
	unsigned char info[112];
	unsigned long before = 0, after = 0;
	syscall(SYS_sysinfo, info);
	memcpy(&before, info + 40, sizeof before);
	pid_t pid = fork();
	if (pid == 0) {
		bench_sleep_ns(10 * MS);
		_exit(0);
	}
	syscall(SYS_sysinfo, info);
	memcpy(&after, info + 40, sizeof after);
	int status;
	waitpid(pid, &status, 0);
	return (long)before - (long)after;
}

/* S50: one BENCH line per kind of round. Called by main() through sections[]. */
void s50_run(const struct section *self, unsigned n)
{
	(void)self;
	if (n > MAX_SAMPLES)
		n = MAX_SAMPLES;
	fflush(stdout);
	long pages = pages_one_fork_takes();
	for (int kind = 0; kind < ROUND_KINDS; kind++) {
		bench_progress("S50 %s n=%u (%u/%u)", round_names[kind], n, ++step, steps);
		settle();
		unsigned errors = 0;
		one_round(
		    (enum round_kind)kind); /* warm: the first round fills the heap's caches */
		for (unsigned i = 0; i < n; i++) {
			uint64_t start = bench_ticks();
			errors += !one_round((enum round_kind)kind);
			samples[i] = bench_ticks() - start;
		}
		for (unsigned i = 0; i < n; i++)
			samples[i] = bench_ticks_to_ns(samples[i]);
		struct bench_stats s = bench_summarise_ns(samples, n);
		struct bench_json j;
		result_begin(&j, "S50", 0, n);
		bench_json_str(&j, "round", round_names[kind]);
		bench_json_int(&j, "fork_pages", pages);
		bench_json_int(&j, "errors", errors);
		failures += errors ? 1 : 0;
		bench_json_stats(&j, "", &s);
		result_emit(&j);
	}
}
