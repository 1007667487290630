/* The Allwinner watchdog's probe (the driver table's DRIVER_WATCHDOG entry). */
#ifndef DUPLEX_DRIVERS_WATCHDOG_SUNXI_WDT_PROBE_H
#define DUPLEX_DRIVERS_WATCHDOG_SUNXI_WDT_PROBE_H

#include "drivers/base/driver.h"

/* Called by the driver table's walk (drivers_bind_watchdogs) on the boot hart, after
 * its timers are up and before the other harts start (it maps registers), once per
 * enabled node a compatible matched. Maps the registers, logs what the firmware left
 * ("watchdog: ... was running, 16 s; ..."), then stops it (WATCHDOG_STOP), or keeps
 * it running, starting it at 16 s if it was not, fed from a kernel timer on this hart
 * every quarter of its interval (WATCHDOG_FEED). Returns 0 when it is in the state
 * the policy asks for, 1 for a node already handled under another compatible, -1 when
 * it could not be (no registers, it would not stop). */
int sunxi_wdt_probe(const struct device *device, enum watchdog_policy policy);

#endif
