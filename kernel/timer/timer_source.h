/* Where timer interrupts come from: the one-shot comparator that each hart's timer queue
 * (timer.c) programs for its earliest deadline. Linux calls this a clock event device.
 * Three kinds exist:
 *   - Sstc's stimecmp, written directly (cpu_timer.c);
 *   - the SBI TIME extension, which asks the firmware to do it, or the legacy SBI
 *     set_timer (SBI 0.1) on a firmware without TIME (cpu_timer.c);
 *   - a SoC timer block behind the PLIC (drivers/timer/), for firmware without a
 *     working SBI timer: its interrupt is an external one whose handler calls
 *     timer_handle_interrupt.
 * The first two raise the supervisor timer interrupt. kernel_main picks one at boot
 * (kernel/boot/timer_choice.c); the clock itself is always the `time` CSR (clock.h). */
#ifndef DUPLEX_TIMER_SOURCE_H
#define DUPLEX_TIMER_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

struct timer_source {
	const char *name; /* for the boot log */
	/* Interrupt this hart once `time` >= deadline_ticks (absolute timebase ticks; a
	 * deadline already past interrupts at once), replacing any earlier request.
	 * Called with interrupts masked by timer.c (under the hart's timer lock) and by
	 * hart_yield_hint; never sleeps. */
	void (*program)(uint64_t deadline_ticks);
	/* How many harts it can serve (hart indexes 0 .. max_harts-1); 0: every hart. */
	int max_harts;
	/* Interrupts through the PLIC, not as the supervisor timer interrupt. */
	bool external;
	/* Is its interrupt pending for the calling hart (sip.STIP; a device's PLIC pending
	 * bit)? For timer_source_check only; called with interrupts masked. */
	bool (*pending)(void);
};

extern const struct timer_source timer_source_sstc;
extern const struct timer_source timer_source_sbi;
extern const struct timer_source timer_source_sbi_legacy;

/* Does a source interrupt when asked? It may be there and not: the SBI TIME extension
 * on OpenSBI 1.1 on the D1 has no driver for its CLINT timer (OpenSBI 1.2 release
 * notes), and neither does any OpenSBI whose device tree lacks the CLINT node; a timer
 * device's interrupt may not reach the PLIC. Programs a deadline far away and checks
 * that `pending` stays false for `quiet_ns`, then one already due and checks that it
 * turns true within `patience_ns` (the `time` CSR's nanoseconds: virtual time under
 * QEMU -icount). Leaves the far deadline programmed when the check fails. Called by
 * timer_choose on the boot hart with interrupts off, before timers_init_hart (which
 * programs the source again, clearing a pending supervisor timer interrupt). */
enum timer_health {
	TIMER_WORKS,
	TIMER_EARLY,  /* interrupts long before the deadline */
	TIMER_SILENT, /* does not interrupt when due */
};
enum timer_health timer_source_check(const struct timer_source *source, uint64_t quiet_ns,
                                     uint64_t patience_ns);

#endif
