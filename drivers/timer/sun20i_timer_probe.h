/* The D1 timer block as a kernel timer source (sun20i_timer.h has the hardware). */
#ifndef DUPLEX_DRIVERS_SUN20I_TIMER_PROBE_H
#define DUPLEX_DRIVERS_SUN20I_TIMER_PROBE_H

#include "drivers/base/driver.h"
#include "kernel/timer/timer_source.h"

/* The driver table's probe (drivers/base/drivers.c): set the block up and register its
 * channel interrupts (channel N for hart index N, for at most the platform's harts).
 * Returns the source, whose max_harts says how many harts it serves, or null (logged)
 * without a block or without a free interrupt. Called once by the boot hart after the
 * PLIC is up, before timers_init_hart, interrupts off. */
const struct timer_source *sun20i_timer_probe(const struct device *device);

#endif
