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
	/* Said before the call, since it does not return: on the D1 what happens next is
	 * up to the firmware (it may reset rather than stop). SRST reason 1 is "system
	 * failure" (SBI spec 10.1); the legacy call (SBI 0.1/0.2) carries no status. */
	if (sbi_has_srst()) {
		log_emergency("power: off through SBI SRST (status %d)\n", status);
		sbi_system_reset(0, status == 0 ? 0 : 1);
	} else {
		log_emergency("power: off through the legacy SBI shutdown call (status %d)\n",
		              status);
		/* A firmware without a shutdown driver (the Lichee RV's stock OpenSBI v0.6:
		 * sbi_system_shutdown ends in sbi_hart_hang) never returns from it. */
		log_emergency("power: if the board stays on, the firmware cannot switch it off: "
		              "this is the last line; reset or power-cycle it\n");
		sbi_legacy_shutdown();
	}
	log_emergency("power off failed; halting\n");
	for (;;)
		wait_for_interrupt();
}
