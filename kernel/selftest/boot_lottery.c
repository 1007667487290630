/* selftest=boot-lottery: firmware was seen sending a second hart into the kernel's boot
 * entry while the boot hart was still booting (entry.S). Do that on purpose: stop
 * hart 1, start it through SBI HSM at the boot entry with the device tree in a1, as
 * firmware would, and check that it loses the boot lottery, stops itself, and that the
 * kernel carries on. */
#include "kernel/boot/boot.h"
#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/log/log.h"
#include "kernel/sbi/sbi.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/sleep.h"
#include "kernel/selftest/selftest.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"

#define WATCHDOG_NS (10 * 1000000000ull)

/* Pinned to hart 1: take the hart out of service and stop it for good. */
static void stop_this_hart(void *argument)
{
	(void)argument;
	irq_push_off();
	__atomic_store_n(&this_hart()->online, false, __ATOMIC_RELEASE);
	sbi_hart_stop();
	log_printf("boot-lottery: hart_stop failed\n");
	for (;;)
		wait_for_interrupt();
}

/* Wait until HSM says the hart is stopped and `condition` holds, or the watchdog. */
static bool wait_stopped(uint32_t hart_id, uint32_t entries)
{
	uint64_t give_up = clock_now_ns() + WATCHDOG_NS;
	while (clock_now_ns() < give_up) {
		if (sbi_hart_get_status(hart_id) == SBI_HSM_STOPPED && boot_entries() >= entries)
			return true;
		sleep_for(1000000);
	}
	return false;
}

int selftest_boot_lottery(const struct cmdline *line)
{
	(void)line;
	if (harts_online() < 2) {
		log_printf("boot-lottery: needs two harts\n");
		return -1;
	}
	struct hart *victim = hart_by_index(1);
	uint32_t before = boot_entries();
	task_create("stop hart", stop_this_hart, 0, 1ull << 1);
	if (!wait_stopped(victim->hart_id, before)) {
		log_printf("boot-lottery: hart %u did not stop\n", victim->hart_id);
		return -1;
	}
	const struct boot_addresses *boot = boot_addresses();
	long error =
	    sbi_hart_start(victim->hart_id, boot->kernel_physical_base, boot->dtb_physical);
	if (error != SBI_SUCCESS) {
		log_printf("boot-lottery: hart_start failed (%ld)\n", error);
		return -1;
	}
	if (!wait_stopped(victim->hart_id, before + 1)) {
		log_printf("boot-lottery: hart %u entered the boot path and did not stop "
		           "(entries %u)\n",
		           victim->hart_id, boot_entries());
		return -1;
	}
	log_printf("boot-lottery: hart %u sent to the boot entry lost the lottery (entries %u "
	           "-> %u) and stopped; the kernel carries on\n",
	           victim->hart_id, before, boot_entries());
	return 0;
}
