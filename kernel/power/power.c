/* Power-off; see power.h. */
#include "kernel/power/power.h"

#include "kernel/hart/csr.h"
#include "kernel/log/log.h"
#include "kernel/sbi/sbi.h"

static power_exit_hook exit_hook;

void power_set_exit_hook(power_exit_hook hook)
{
	exit_hook = hook;
}

void power_off(int status)
{
	interrupts_disable();
	if (exit_hook)
		exit_hook(status);
	/* SRST reason 1 is "system failure" (SBI spec 10.1). */
	sbi_system_reset(0, status == 0 ? 0 : 1);
	log_emergency("power off failed; halting\n");
	for (;;)
		wait_for_interrupt();
}
