/* Resource limits: prlimit64, getrlimit, setrlimit (Linux kernel/sys.c semantics and
 * errno values), and sysinfo. The initial values describe the limits Duplex really has (a 64 KiB
 * stack, 32 open files, a 64 MiB brk heap); the others are unlimited, or 0 for what
 * Duplex lacks (core dumps, message queues, real-time priorities). A program may lower
 * a limit or raise its soft limit up to the hard one; the new values are recorded and
 * reported back, but the kernel keeps enforcing only its own fixed limits. */
#include "kernel/lib/errno.h"
#include "kernel/mm/page.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"
#include "kernel/timer/clock.h"

#define RLIM_INFINITY (~0ull)

/* RLIMIT_* (asm-generic/resource.h), in order. */
static const struct linux_rlimit initial_limits[LINUX_RLIM_NLIMITS] = {
    {RLIM_INFINITY, RLIM_INFINITY},         /* RLIMIT_CPU */
    {RLIM_INFINITY, RLIM_INFINITY},         /* RLIMIT_FSIZE */
    {USER_HEAP_LIMIT, USER_HEAP_LIMIT},     /* RLIMIT_DATA: brk */
    {USER_STACK_SIZE, USER_STACK_SIZE},     /* RLIMIT_STACK */
    {0, 0},                                 /* RLIMIT_CORE */
    {RLIM_INFINITY, RLIM_INFINITY},         /* RLIMIT_RSS */
    {RLIM_INFINITY, RLIM_INFINITY},         /* RLIMIT_NPROC */
    {PROCESS_MAX_FILES, PROCESS_MAX_FILES}, /* RLIMIT_NOFILE */
    {RLIM_INFINITY, RLIM_INFINITY},         /* RLIMIT_MEMLOCK */
    {RLIM_INFINITY, RLIM_INFINITY},         /* RLIMIT_AS */
    {RLIM_INFINITY, RLIM_INFINITY},         /* RLIMIT_LOCKS */
    {0, 0},                                 /* RLIMIT_SIGPENDING */
    {0, 0},                                 /* RLIMIT_MSGQUEUE */
    {0, 0},                                 /* RLIMIT_NICE */
    {0, 0},                                 /* RLIMIT_RTPRIO */
    {RLIM_INFINITY, RLIM_INFINITY},         /* RLIMIT_RTTIME */
};

static struct linux_rlimit *limit_of(struct process *process, uint64_t resource)
{
	if (!(process->limits_set & (1u << resource))) {
		process->limits[resource] = initial_limits[resource];
		process->limits_set |= 1u << resource;
	}
	return &process->limits[resource];
}

long sys_prlimit64(uint64_t pid, uint64_t resource, uint64_t new_limit, uint64_t old_limit,
                   uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	if (pid != 0 && (int)pid != process->pid)
		return -ESRCH; /* only the caller itself is within reach */
	if (resource >= LINUX_RLIM_NLIMITS)
		return -EINVAL;
	struct linux_rlimit wanted;
	if (new_limit && copy_from_user(&process->space, &wanted, new_limit, sizeof wanted) != 0)
		return -EFAULT;
	struct linux_rlimit *limit = limit_of(process, resource);
	if (new_limit) {
		if (wanted.current > wanted.maximum)
			return -EINVAL;
		if (wanted.maximum > limit->maximum)
			return -EPERM; /* a hard limit only goes down */
	}
	if (old_limit && copy_to_user(&process->space, old_limit, limit, sizeof *limit) != 0)
		return -EFAULT;
	if (new_limit)
		*limit = wanted;
	return 0;
}

long sys_getrlimit(uint64_t resource, uint64_t old_limit, uint64_t a2, uint64_t a3, uint64_t a4,
                   uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	return sys_prlimit64(0, resource, 0, old_limit, 0, 0);
}

long sys_setrlimit(uint64_t resource, uint64_t new_limit, uint64_t a2, uint64_t a3, uint64_t a4,
                   uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (!new_limit)
		return -EFAULT;
	return sys_prlimit64(0, resource, new_limit, 0, 0, 0);
}

/* struct sysinfo (include/uapi/linux/sysinfo.h) with 64-bit longs: 112 bytes. */
struct linux_sysinfo {
	int64_t uptime_seconds;
	uint64_t loads[3];
	uint64_t total_ram;
	uint64_t free_ram;
	uint64_t shared_ram;
	uint64_t buffer_ram;
	uint64_t total_swap;
	uint64_t free_swap;
	uint16_t processes;
	uint16_t padding;
	uint32_t padding2;
	uint64_t total_high;
	uint64_t free_high;
	uint32_t memory_unit;
	uint32_t padding3;
};
_Static_assert(sizeof(struct linux_sysinfo) == 112, "riscv64 struct sysinfo is 112 bytes");

/* sysinfo(2): uptime, memory in pages of memory_unit bytes, process count. Load
 * averages are not kept (0). glibc's qsort asks for it (sysconf(_SC_PHYS_PAGES)). */
long sys_sysinfo(uint64_t address, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	int processes = process_count();
	struct linux_sysinfo info = {
	    .uptime_seconds = (int64_t)(clock_now_ns() / 1000000000ull),
	    .total_ram = page_total_count(),
	    .free_ram = page_free_count(),
	    .processes = (uint16_t)(processes > 0xffff ? 0xffff : processes),
	    .memory_unit = PAGE_SIZE,
	};
	return copy_to_user(&process_current()->space, address, &info, sizeof info);
}
