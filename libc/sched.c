/* Harts: yielding, choosing which harts a process may run on, per-hart CPU times. */
#include <sched.h>

#include <duplex.h>

#include "internal.h"

/* Give the hart to another ready task, if there is one. Never fails. */
int sched_yield(void)
{
	return (int)libc_result(syscall0(SYS_sched_yield));
}

/* Restrict `pid` (0 = the caller) to the harts in *set; the kernel reads
 * min(set_size, 8) bytes of it. */
int sched_setaffinity(pid_t pid, size_t set_size, const cpu_set_t *set)
{
	return (int)libc_result(syscall3(SYS_sched_setaffinity, pid, (long)set_size, (long)set));
}

/* The kernel returns how many bytes it wrote (Linux does too); POSIX-style callers want
 * 0, as glibc gives them. */
int sched_getaffinity(pid_t pid, size_t set_size, cpu_set_t *set)
{
	long written = libc_result(syscall3(SYS_sched_getaffinity, pid, (long)set_size, (long)set));

	return written < 0 ? -1 : 0;
}

/* Busy and idle time of each hart (see <duplex.h>); used by the benchmark. */
int cpu_times(struct duplex_cpu_times *times, unsigned long max_harts)
{
	return (int)libc_result(syscall2(SYS_cpu_times, (long)times, (long)max_harts));
}
