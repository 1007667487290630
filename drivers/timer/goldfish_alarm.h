/* QEMU's Goldfish RTC alarm as a kernel timer source (goldfish_alarm.c says why). */
#ifndef DUPLEX_DRIVERS_GOLDFISH_ALARM_H
#define DUPLEX_DRIVERS_GOLDFISH_ALARM_H

#include "drivers/base/driver.h"
#include "kernel/timer/timer_source.h"

/* The driver table's probe (drivers/base/drivers.c): set the RTC's alarm interrupt up
 * and register it (to hart 0). Returns the source (max_harts 1), or null (logged)
 * without the device or its interrupt. Called once by the boot hart after the PLIC is
 * up, before timers_init_hart, interrupts off. */
const struct timer_source *goldfish_alarm_probe(const struct device *device);

#endif
