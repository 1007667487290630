/* The driver table's types: what a driver declares (the device tree "compatible"
 * strings it handles and its probe function) and what its probe is given (the node).
 * Linux's of_device_id tables and platform_driver.probe play the same role.
 *
 * Adding a UART, timer or interrupt controller is one new file with its probe function
 * and one line in drivers/base/drivers.c; bring-up (kernel/boot/main.c) asks
 * drivers/base/bind.h for a class of device and names no driver. */
#ifndef DUPLEX_DRIVERS_BASE_DRIVER_H
#define DUPLEX_DRIVERS_BASE_DRIVER_H

#include <stdint.h>

#include "kernel/fdt/fdt.h"
#include "kernel/fdt/platform.h"

struct uart;
struct timer_source;

/* One enabled device tree node that a driver's compatible list matched. */
struct device {
	const struct fdt *fdt;
	int node;
	const char *compatible;          /* the driver's string that matched */
	const struct platform *platform; /* timebase, harts, the console's baud */
	/* status = "reserved": firmware's. Only watchdogs are probed so (bind.h). */
	bool reserved;
};

/* What a driver drives decides which probe it has and when bring-up binds it. */
enum driver_class {
	DRIVER_UART,     /* the console's UART: only the node stdout-path names */
	DRIVER_EXIT,     /* a device that ends the machine (power off with a status) */
	DRIVER_IRQCHIP,  /* the external interrupt controller */
	DRIVER_TIMER,    /* a timer device, for when the harts' own timers do not work */
	DRIVER_WATCHDOG, /* a watchdog the firmware may have left running: every node */
	DRIVER_RTC,      /* a real-time clock: the wall clock at boot */
};

/* What bring-up does with each watchdog (command line watchdog=stop|feed). */
enum watchdog_policy {
	WATCHDOG_STOP, /* stop it (the default) */
	WATCHDOG_FEED, /* keep it running (start it if need be) and feed it from a timer */
};

/* Probes run on the boot hart, interrupts off, before other harts start; they map
 * their registers and register with the kernel service they serve (irq_set_chip,
 * power_set_exit_hook, ...). A probe that cannot use the node logs why and fails. */
struct driver {
	const char *name; /* for the boot log and timer=NAME */
	enum driver_class class;
	const char *const *compatible; /* NULL-terminated, most preferred first */
	union {
		/* DRIVER_UART: set the UART up at `baud` (0: keep firmware's). The UART. */
		struct uart *(*uart)(const struct device *device, uint32_t baud);
		/* DRIVER_EXIT, DRIVER_IRQCHIP, DRIVER_RTC: 0 when the device is in use. */
		int (*exit)(const struct device *device);
		int (*irqchip)(const struct device *device);
		int (*rtc)(const struct device *device);
		/* DRIVER_TIMER: the timer source, or null. */
		const struct timer_source *(*timer)(const struct device *device);
		/* DRIVER_WATCHDOG: 0 in the state the policy asks for, 1 a node it had
		 * already handled or leaves alone, -1 on failure. A reserved one (firmware's)
		 * is only stopped if it runs, whatever the policy. */
		int (*watchdog)(const struct device *device, enum watchdog_policy policy);
	} probe;
};

/* The table (drivers/base/drivers.c): every driver the kernel has. */
extern const struct driver drivers[];
extern const int driver_count;

#endif
