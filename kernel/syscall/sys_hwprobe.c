/* riscv_hwprobe (258): what the harts can do, as key/value pairs (Linux
 * arch/riscv/kernel/sys_hwprobe.c, Documentation/arch/riscv/hwprobe.rst). glibc's
 * start-up asks it which string and memory routines to pick.
 *
 * Duplex answers the keys it can answer truthfully from the device tree's ISA string
 * and its own settings; every other key, including the hart ids (mvendorid, marchid,
 * mimpid: Duplex does not read them), gets key = -1 and value 0, Linux's answer for a
 * key it does not know, so the caller falls back to the baseline. The values hold for
 * every hart (Duplex's ISA letters are those all harts share), so the CPU set only has
 * to name an online hart. */
#include "kernel/hart/hart.h"
#include "kernel/hart/isa.h"
#include "kernel/lib/errno.h"
#include "kernel/mm/address_space.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"
#include "kernel/timer/clock.h"

/* arch/riscv/include/uapi/asm/hwprobe.h */
#define HWPROBE_KEY_BASE_BEHAVIOR   3
#define HWPROBE_BASE_BEHAVIOR_IMA   (1ull << 0) /* rv64ima user ABI, Linux's syscalls */
#define HWPROBE_KEY_IMA_EXT_0       4
#define HWPROBE_IMA_FD              (1ull << 0)
#define HWPROBE_IMA_C               (1ull << 1)
#define HWPROBE_IMA_V               (1ull << 2)
#define HWPROBE_KEY_HIGHEST_VIRTUAL 7
#define HWPROBE_KEY_TIME_CSR_FREQ   8

struct hwprobe_pair {
	int64_t key;
	uint64_t value;
};

/* Fill in one pair; an unknown key becomes -1 with value 0. */
static void answer(struct hwprobe_pair *pair)
{
	uint64_t hwcap = isa_hwcap();
	pair->value = 0;
	switch (pair->key) {
	case HWPROBE_KEY_BASE_BEHAVIOR:
		pair->value = HWPROBE_BASE_BEHAVIOR_IMA;
		break;
	case HWPROBE_KEY_IMA_EXT_0:
		/* What AT_HWCAP says: F and D together, C, V (only when programs may use it). */
		if (isa_has('f') && isa_has('d'))
			pair->value |= HWPROBE_IMA_FD;
		if (isa_has('c'))
			pair->value |= HWPROBE_IMA_C;
		if (hwcap & (1ull << ('v' - 'a')))
			pair->value |= HWPROBE_IMA_V;
		break;
	case HWPROBE_KEY_HIGHEST_VIRTUAL:
		pair->value = USER_STACK_TOP - 1; /* the highest address a program can map */
		break;
	case HWPROBE_KEY_TIME_CSR_FREQ:
		pair->value = clock_timebase_hz();
		break;
	default:
		pair->key = -1;
		break;
	}
}

/* riscv_hwprobe(pairs, pair_count, cpusetsize, cpus, flags). Linux's checks: flags must
 * be 0 (EINVAL; Duplex has no RISCV_HWPROBE_WHICH_CPUS); cpus NULL with size 0 means
 * every online hart, else the set (read up to the kernel's 64 harts) must name an online
 * one (EINVAL); unreadable or unwritable memory is EFAULT. */
long sys_riscv_hwprobe(uint64_t pairs, uint64_t pair_count, uint64_t cpuset_size, uint64_t cpus,
                       uint64_t flags, uint64_t a5)
{
	(void)a5;
	struct process *process = process_current();
	if (flags != 0)
		return -EINVAL;
	if (cpuset_size != 0 || cpus != 0) {
		uint64_t set = 0;
		uint64_t copied = cpuset_size < sizeof set ? cpuset_size : sizeof set;
		if (copied && copy_from_user(&process->space, &set, cpus, copied) != 0)
			return -EFAULT;
		uint64_t online = 0;
		for (int i = 0; i < hart_count(); i++) {
			if (hart_by_index(i)->online)
				online |= 1ull << i;
		}
		if ((set & online) == 0)
			return -EINVAL;
	}
	for (uint64_t i = 0; i < pair_count; i++) {
		struct hwprobe_pair pair;
		uint64_t address = pairs + i * sizeof pair;
		if (copy_from_user(&process->space, &pair.key, address, sizeof pair.key) != 0)
			return -EFAULT;
		answer(&pair);
		if (copy_to_user(&process->space, address, &pair, sizeof pair) != 0)
			return -EFAULT;
	}
	return 0;
}
