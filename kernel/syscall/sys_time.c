/* Time system calls: clock_gettime, clock_getres, clock_nanosleep, nanosleep.
 * The wall clocks read the monotonic clock (time since boot): Duplex keeps no calendar
 * time, so CLOCK_REALTIME starts at the epoch when the machine boots. The CPU-time
 * clocks read the scheduler's per-task CPU time; a signal interrupts a sleep (EINTR, with
 * the time left); a process is one thread, so the
 * process clock and the thread clock are the same task's. Linux's per-pid and per-thread
 * clock ids (negative, from clock_getcpuclockid/pthread_getcpuclockid) are EINVAL, and
 * so is sleeping on a CPU-time clock (the only thread would never use CPU meanwhile). */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/sleep.h"
#include "kernel/syscall/syscall.h"
#include "kernel/timer/clock.h"

#define CLOCK_REALTIME      0
#define CLOCK_MONOTONIC     1
#define CLOCK_PROCESS_CPU   2 /* CLOCK_PROCESS_CPUTIME_ID (include/uapi/linux/time.h) */
#define CLOCK_THREAD_CPU    3 /* CLOCK_THREAD_CPUTIME_ID */
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_BOOTTIME      7
#define TIMER_ABSTIME       1
#define NS_PER_SECOND       1000000000ull

struct user_timespec {
	int64_t seconds;
	int64_t nanoseconds;
};

/* A clock that runs with time itself (the ones a sleep can wait on). */
static bool wall_clock(uint64_t clock)
{
	return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC ||
	       clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_BOOTTIME;
}

static bool cpu_clock(uint64_t clock)
{
	return clock == CLOCK_PROCESS_CPU || clock == CLOCK_THREAD_CPU;
}

static bool clock_known(uint64_t clock)
{
	return wall_clock(clock) || cpu_clock(clock);
}

long sys_clock_gettime(uint64_t clock, uint64_t address, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (!clock_known(clock))
		return -EINVAL;
	uint64_t now = cpu_clock(clock) ? sched_current_cpu_ns() : clock_now_ns();
	struct user_timespec time = {(int64_t)(now / NS_PER_SECOND),
	                             (int64_t)(now % NS_PER_SECOND)};
	return copy_to_user(&process_current()->space, address, &time, sizeof time);
}

long sys_clock_getres(uint64_t clock, uint64_t address, uint64_t a2, uint64_t a3, uint64_t a4,
                      uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (!clock_known(clock))
		return -EINVAL;
	if (address == 0)
		return 0;
	uint64_t tick = (NS_PER_SECOND + clock_timebase_hz() - 1) / clock_timebase_hz();
	struct user_timespec resolution = {0, (int64_t)tick};
	return copy_to_user(&process_current()->space, address, &resolution, sizeof resolution);
}

/* Read and check a timespec; the duration in ns (saturating) or -errno. */
static int64_t read_timespec(uint64_t address, uint64_t *nanoseconds)
{
	struct user_timespec time;
	if (copy_from_user(&process_current()->space, &time, address, sizeof time) != 0)
		return -EFAULT;
	if (time.seconds < 0 || time.nanoseconds < 0 || (uint64_t)time.nanoseconds >= NS_PER_SECOND)
		return -EINVAL;
	const uint64_t limit = UINT64_MAX / 4; /* far enough: ~146 years */
	uint64_t seconds = (uint64_t)time.seconds;
	*nanoseconds = seconds > limit / NS_PER_SECOND
	                   ? limit
	                   : seconds * NS_PER_SECOND + (uint64_t)time.nanoseconds;
	return 0;
}

long sys_clock_nanosleep(uint64_t clock, uint64_t flags, uint64_t request, uint64_t remain,
                         uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	if (!wall_clock(clock) || (flags & ~(uint64_t)TIMER_ABSTIME))
		return -EINVAL;
	uint64_t value;
	int64_t error = read_timespec(request, &value);
	if (error)
		return error;
	uint64_t now = clock_now_ns();
	uint64_t deadline = (flags & TIMER_ABSTIME) ? value : now + value;
	if (deadline <= now || sleep_until_interruptible(deadline) == 0)
		return 0;
	/* A signal: a relative sleep reports the time left (Linux hrtimer_nanosleep), and
	 * the call is -EINTR once a handler has run; with none it starts again (relative
	 * ones for their whole length: Duplex has no restart_syscall). */
	if (!(flags & TIMER_ABSTIME) && remain) {
		uint64_t left = deadline - clock_now_ns();
		if ((int64_t)left < 0)
			left = 0;
		struct user_timespec time = {(int64_t)(left / NS_PER_SECOND),
		                             (int64_t)(left % NS_PER_SECOND)};
		if (copy_to_user(&process_current()->space, remain, &time, sizeof time) != 0)
			return -EFAULT;
	}
	return -ERESTARTNOHAND;
}

long sys_nanosleep(uint64_t request, uint64_t remain, uint64_t a2, uint64_t a3, uint64_t a4,
                   uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	return sys_clock_nanosleep(CLOCK_MONOTONIC, 0, request, remain, 0, 0);
}
