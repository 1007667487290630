/* Host stand-ins for the drivers' probe functions, so that the host tests run the real
 * driver table (drivers/base/drivers.c) and its device tree walk (drivers/base/bind.c)
 * over real device trees: each stand-in reads its node with the same platform_read_*
 * reader the real probe uses and records what it got, instead of touching hardware. */
#ifndef DUPLEX_TESTS_HOST_DRIVER_PROBES_H
#define DUPLEX_TESTS_HOST_DRIVER_PROBES_H

#include <stdbool.h>

#include "kernel/fdt/platform.h"

/* What the walk bound, per class: for the exit device and the interrupt controller the
 * driver's name in the table, for the UART and the timer device the probe that ran;
 * NULL if none. */
struct bound_devices {
	const char *uart_driver;
	const char *uart_compatible; /* the table's string that matched the stdout node */
	struct uart_desc uart;
	const char *exit_driver;
	uint64_t exit_base;
	const char *irqchip_driver;
	struct plic_desc plic;
	const char *timer_driver;
	struct timer_block_desc timer;
	int watchdogs;              /* watchdog nodes the walk handed to sunxi_wdt_probe */
	uint64_t watchdog_bases[4]; /* their reg bases, in probe order */
	const char *watchdog_compatible[4];
	int watchdogs_failed;
	int reserved_watchdogs;              /* status "reserved" nodes the walk showed it */
	uint64_t reserved_watchdog_bases[4]; /* their reg bases, once each */
	const char *rtc_driver;              /* the table's name */
	const char *rtc_compatible;
	uint64_t rtc_base;
};

/* Bind every class the way kernel_main and timer_choose do, over platform->dtb (which
 * must still be mapped): the UART at stdout-path, the exit device, the interrupt
 * controller, the first timer device, every watchdog (WATCHDOG_STOP), the real-time
 * clock. */
void bind_devices(const struct platform *platform, struct bound_devices *bound);

#endif
