/* Time system calls: clock_gettime, clock_getres, clock_settime, clock_nanosleep,
 * nanosleep, gettimeofday, settimeofday.
 * CLOCK_MONOTONIC (and _RAW, and BOOTTIME: Duplex never suspends) is the time since boot;
 * CLOCK_REALTIME is the wall clock (kernel/timer/clock.h), which the boot sets from the
 * machine's real-time clock when it has one (QEMU's Goldfish RTC) and which root may set
 * (every process is root: sys_identity.c). The _COARSE clocks are Linux's cheap ones,
 * which read the time of the last tick: Duplex has no periodic tick, so they read the
 * monotonic clock rounded down to COARSE_RESOLUTION_NS, and clock_getres says that
 * resolution, as Linux reports its tick (LOW_RES_NSEC) for them. The CPU-time
 * clocks read the scheduler's per-task CPU time; a signal interrupts a sleep (EINTR, with
 * the time left); a process is one thread, so the
 * process clock and the thread clock are the same task's. Linux's per-pid and per-thread
 * clock ids (negative, from clock_getcpuclockid/pthread_getcpuclockid) are EINVAL, and
 * so is sleeping on a CPU-time clock (the only thread would never use CPU meanwhile);
 * sleeping on a coarse clock is EOPNOTSUPP, as Linux (which has no nsleep for them). */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/sleep.h"
#include "kernel/syscall/syscall.h"
#include "kernel/timer/clock.h"
#include "uapi/time.h"

#define CLOCK_REALTIME         0
#define CLOCK_MONOTONIC        1
#define CLOCK_PROCESS_CPU      2 /* CLOCK_PROCESS_CPUTIME_ID (include/uapi/linux/time.h) */
#define CLOCK_THREAD_CPU       3 /* CLOCK_THREAD_CPUTIME_ID */
#define CLOCK_MONOTONIC_RAW    4
#define CLOCK_REALTIME_COARSE  5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME         7
#define TIMER_ABSTIME          1
#define NS_PER_SECOND          1000000000ull
/* The coarse clocks' step: Linux's tick with HZ=250 (Debian's kernels' CONFIG_HZ). */
#define COARSE_RESOLUTION_NS 4000000ull

/* A clock that runs with time itself (the ones a sleep can wait on). */
static bool wall_clock(uint64_t clock)
{
	return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC ||
	       clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_BOOTTIME;
}

static bool coarse_clock(uint64_t clock)
{
	return clock == CLOCK_REALTIME_COARSE || clock == CLOCK_MONOTONIC_COARSE;
}

static bool cpu_clock(uint64_t clock)
{
	return clock == CLOCK_PROCESS_CPU || clock == CLOCK_THREAD_CPU;
}

static bool clock_known(uint64_t clock)
{
	return wall_clock(clock) || coarse_clock(clock) || cpu_clock(clock);
}

/* The clock's reading in ns (a known clock). */
static uint64_t clock_read(uint64_t clock)
{
	if (cpu_clock(clock))
		return sched_current_cpu_ns();
	uint64_t now = clock_now_ns();
	if (coarse_clock(clock))
		now -= now % COARSE_RESOLUTION_NS;
	if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)
		now += (uint64_t)clock_realtime_offset_ns();
	return now;
}

long sys_clock_gettime(uint64_t clock, uint64_t address, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (!clock_known(clock))
		return -EINVAL;
	uint64_t now = clock_read(clock);
	struct linux_timespec time = {(int64_t)(now / NS_PER_SECOND),
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
	uint64_t tick = coarse_clock(clock)
	                    ? COARSE_RESOLUTION_NS
	                    : (NS_PER_SECOND + clock_timebase_hz() - 1) / clock_timebase_hz();
	struct linux_timespec resolution = {0, (int64_t)tick};
	return copy_to_user(&process_current()->space, address, &resolution, sizeof resolution);
}

/* Read and check a timespec; the duration in ns (saturating) or -errno. */
static int64_t read_timespec(uint64_t address, uint64_t *nanoseconds)
{
	struct linux_timespec time;
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
	(void)remain, (void)a4, (void)a5;
	if (coarse_clock(clock))
		return -EOPNOTSUPP;
	if (!wall_clock(clock) || (flags & ~(uint64_t)TIMER_ABSTIME))
		return -EINVAL;
	uint64_t value;
	int64_t error = read_timespec(request, &value);
	if (error)
		return error;
	uint64_t now = clock_now_ns();
	/* An absolute wall-clock time becomes a monotonic deadline at today's offset (a
	 * clock_settime during the sleep does not move it, where Linux would). */
	if ((flags & TIMER_ABSTIME) && clock == CLOCK_REALTIME) {
		int64_t offset = clock_realtime_offset_ns();
		value = offset > 0 && value < (uint64_t)offset ? 0 : value - (uint64_t)offset;
	}
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
		struct linux_timespec time = {(int64_t)(left / NS_PER_SECOND),
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

/* clock_settime: only CLOCK_REALTIME can be set (Linux: EINVAL for the others, and for a
 * time that is not a valid timespec). */
long sys_clock_settime(uint64_t clock, uint64_t address, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (clock != CLOCK_REALTIME)
		return -EINVAL;
	uint64_t value;
	int64_t error = read_timespec(address, &value);
	if (error)
		return error;
	clock_set_realtime_ns(value);
	return 0;
}

struct user_timeval {
	int64_t seconds;
	int64_t microseconds;
};

/* struct timezone: Linux keeps it only for old programs; Duplex reports UTC. */
struct user_timezone {
	int32_t minutes_west;
	int32_t dst_time;
};

long sys_gettimeofday(uint64_t time_address, uint64_t zone_address, uint64_t a2, uint64_t a3,
                      uint64_t a4, uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	if (time_address) {
		uint64_t now = clock_realtime_ns();
		struct user_timeval time = {(int64_t)(now / NS_PER_SECOND),
		                            (int64_t)(now % NS_PER_SECOND / 1000)};
		if (copy_to_user(&process->space, time_address, &time, sizeof time) != 0)
			return -EFAULT;
	}
	struct user_timezone zone = {0, 0};
	if (zone_address && copy_to_user(&process->space, zone_address, &zone, sizeof zone) != 0)
		return -EFAULT;
	return 0;
}

/* settimeofday(tv, tz): sets the wall clock from tv; a time zone is accepted and not
 * kept (Duplex's clock is UTC). Linux: microseconds outside 0..999999 are EINVAL. */
long sys_settimeofday(uint64_t time_address, uint64_t zone_address, uint64_t a2, uint64_t a3,
                      uint64_t a4, uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct user_timezone zone;
	if (zone_address && copy_from_user(&process->space, &zone, zone_address, sizeof zone) != 0)
		return -EFAULT;
	if (!time_address)
		return 0;
	struct user_timeval time;
	if (copy_from_user(&process->space, &time, time_address, sizeof time) != 0)
		return -EFAULT;
	if (time.seconds < 0 || time.microseconds < 0 || time.microseconds >= 1000000)
		return -EINVAL;
	clock_set_realtime_ns((uint64_t)time.seconds * NS_PER_SECOND +
	                      (uint64_t)time.microseconds * 1000);
	return 0;
}
