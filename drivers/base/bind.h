/* Binding drivers to the device tree: bring-up asks for a class of device; these walk
 * the table (drivers/base/drivers.c) in order, and for each driver its compatible
 * strings in order, and probe the enabled nodes that carry one, until a probe takes a
 * node. So the table's order is the order of preference when a machine has devices for
 * two drivers of a class. All run on the boot hart, interrupts off, before other harts
 * start; never sleep. */
#ifndef DUPLEX_DRIVERS_BASE_BIND_H
#define DUPLEX_DRIVERS_BASE_BIND_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/base/driver.h"

/* DRIVER_EXIT, DRIVER_IRQCHIP or DRIVER_RTC: bind the first node a driver takes (the
 * kernel drives one of each). Returns the driver's name, or null when none did. */
const char *drivers_bind_one(const struct platform *platform, enum driver_class class);

/* DRIVER_UART: bind the UART at `node` (stdout-path's) at `baud`. Returns the UART, or
 * null when no driver takes the node. */
struct uart *drivers_bind_uart(const struct platform *platform, int node, uint32_t baud);

/* DRIVER_UART, when nothing names the console's node: the first enabled node a UART
 * driver takes (table order, then document order), at `baud`; *node gets its offset.
 * Null when none does. */
struct uart *drivers_bind_first_uart(const struct platform *platform, uint32_t baud, int *node);

/* DRIVER_TIMER: the first timer source a timer device gives, only from the driver called
 * `name` unless that is null. Null when none does. */
const struct timer_source *drivers_bind_timer(const struct platform *platform, const char *name);

/* DRIVER_WATCHDOG: every enabled watchdog node a driver takes, each put in the state
 * `policy` asks for, and every one reserved for firmware (status "reserved"), which is
 * only stopped if it runs. Called once by kernel_main on the boot hart, after its timers are
 * up and before the other harts start. Returns how many are; *failed gets how many
 * could not be. */
int drivers_bind_watchdogs(const struct platform *platform, enum watchdog_policy policy,
                           int *failed);

/* Is there a driver of `class` called `name`? */
bool driver_exists(enum driver_class class, const char *name);

#endif
