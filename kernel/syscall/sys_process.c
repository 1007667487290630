/* Process system calls: spawn, exit, wait4, getpid, getppid, brk, uname, and the
 * scheduling ones (sched_yield, sched_{set,get}affinity, cpu_times). */
#include "kernel/hart/hart.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/proc/process.h"
#include "kernel/sched/sched.h"
#include "kernel/syscall/syscall.h"

#define SPAWN_PATH_MAX 256

int copy_user_string_array(struct process *process, uint64_t array, char **pointers, char *strings,
                           size_t *used)
{
	int count = 0;
	if (array == 0) {
		pointers[0] = 0;
		return 0;
	}
	for (;;) {
		uint64_t pointer;
		if (copy_from_user(&process->space, &pointer, array + 8 * (uint64_t)count, 8) != 0)
			return -EFAULT;
		if (pointer == 0)
			break;
		if (count == PROCESS_MAX_ARGS)
			return -E2BIG;
		long length = copy_string_from_user(&process->space, strings + *used, pointer,
		                                    PROCESS_ARGS_SIZE - *used);
		if (length == -ENAMETOOLONG)
			return -E2BIG;
		if (length < 0)
			return (int)length;
		pointers[count++] = strings + *used;
		*used += (size_t)length + 1;
	}
	pointers[count] = 0;
	return 0;
}

struct spawn_arguments {
	char path[SPAWN_PATH_MAX];
	char *argv[PROCESS_MAX_ARGS + 1];
	char *envp[PROCESS_MAX_ARGS + 1];
	char strings[PROCESS_ARGS_SIZE];
};

long sys_spawn(uint64_t path, uint64_t argv, uint64_t envp, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct spawn_arguments *copy = kmalloc(sizeof *copy);
	if (!copy)
		return -ENOMEM;
	size_t used = 0;
	long result = copy_string_from_user(&process->space, copy->path, path, SPAWN_PATH_MAX);
	if (result >= 0)
		result = copy_user_string_array(process, argv, copy->argv, copy->strings, &used);
	if (result >= 0)
		result = copy_user_string_array(process, envp, copy->envp, copy->strings, &used);
	if (result >= 0)
		result = process_spawn(process, copy->path, copy->argv, copy->envp);
	kfree(copy);
	return result;
}

long sys_exit(uint64_t code, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	process_exit((int)((code & 0xff) << 8));
}

#define RUSAGE_SIZE 144 /* struct rusage on riscv64 Linux */

long sys_wait4(uint64_t pid, uint64_t status_address, uint64_t options, uint64_t rusage,
               uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	int64_t target = (int64_t)(int32_t)pid;
	/* Linux's options: WUNTRACED and WCONTINUED also report stopped and continued
	 * children (process_wait). */
	if (options & ~(uint64_t)(WNOHANG | WUNTRACED | WCONTINUED))
		return -EINVAL;
	if (target == INT32_MIN) /* Linux: -INT_MIN is no group */
		return -ESRCH;
	/* Check the destinations before reaping, so a bad pointer loses no status. */
	if (status_address && !user_range_ok(&process->space, status_address, 4, USER_WRITE))
		return -EFAULT;
	if (rusage && !user_range_ok(&process->space, rusage, RUSAGE_SIZE, USER_WRITE))
		return -EFAULT;
	int wait_status = 0;
	int found = process_wait(process, (int)target, &wait_status, (int)options);
	if (found > 0) {
		if (status_address)
			copy_to_user(&process->space, status_address, &wait_status, 4);
		if (rusage) {
			uint8_t zeros[RUSAGE_SIZE] = {0};
			copy_to_user(&process->space, rusage, zeros, RUSAGE_SIZE);
		}
	}
	return found;
}

long sys_getpid(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return process_current()->pid;
}

long sys_getppid(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return process_parent_pid(process_current());
}

long sys_brk(uint64_t address, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	if (address == 0)
		return (long)process->space.brk;
	return (long)address_space_brk(&process->space, address);
}

struct utsname {
	char sysname[65];
	char nodename[65];
	char release[65];
	char version[65];
	char machine[65];
	char domainname[65];
};

long sys_uname(uint64_t address, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	static const struct utsname names = {"Duplex",           "duplex",  "0.1",
	                                     "#1 SMP " __DATE__, "riscv64", "(none)"};
	return copy_to_user(&process_current()->space, address, &names, sizeof names);
}

long sys_sched_yield(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	sched_yield();
	return 0;
}

/* Only the caller itself (pid 0 or its own pid) can be asked about. */
static long affinity_target_ok(uint64_t pid)
{
	if (pid != 0 && (int)pid != process_current()->pid)
		return -ESRCH;
	return 0;
}

long sys_sched_setaffinity(uint64_t pid, uint64_t size, uint64_t mask_address, uint64_t a3,
                           uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	long error = affinity_target_ok(pid);
	if (error)
		return error;
	/* Linux's get_user_cpu_mask (kernel/sched/core.c): a shorter mask is zero-filled,
	 * a longer one is read only as far as the kernel's mask goes (64 harts here). */
	uint64_t mask = 0;
	uint64_t copied = size < sizeof mask ? size : sizeof mask;
	if (copied && copy_from_user(&process_current()->space, &mask, mask_address, copied) != 0)
		return -EFAULT;
	return sched_set_affinity(mask) == 0 ? 0 : -EINVAL;
}

long sys_sched_getaffinity(uint64_t pid, uint64_t size, uint64_t mask_address, uint64_t a3,
                           uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	long error = affinity_target_ok(pid);
	if (error)
		return error;
	/* Linux's sched_getaffinity: the buffer must hold a bit per hart and be a whole
	 * number of longs; it gets the kernel's mask (8 bytes), and that length back. */
	if (size * 8 < (uint64_t)hart_count() || size % sizeof(uint64_t) != 0)
		return -EINVAL;
	uint64_t online = 0;
	for (int i = 0; i < hart_count(); i++) {
		if (hart_by_index(i)->online)
			online |= 1ull << i;
	}
	uint64_t mask = sched_get_affinity() & online;
	if (copy_to_user(&process_current()->space, mask_address, &mask, sizeof mask) != 0)
		return -EFAULT;
	return sizeof mask;
}

long sys_cpu_times(uint64_t address, uint64_t max, uint64_t a2, uint64_t a3, uint64_t a4,
                   uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	uint64_t count = (uint64_t)hart_count() < max ? (uint64_t)hart_count() : max;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t times[2];
		sched_hart_times((int)i, &times[0], &times[1]);
		if (copy_to_user(&process_current()->space, address + i * sizeof times, times,
		                 sizeof times) != 0)
			return -EFAULT;
	}
	return (long)count;
}
