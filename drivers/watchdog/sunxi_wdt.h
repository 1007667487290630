/* The Allwinner watchdog (D1's "allwinner,sun20i-d1-wdt", and the vendor tree's
 * sun6i-style node) as register operations: read its state, stop it, restart its
 * countdown, start it. No kernel dependencies: the host test drives it against a
 * register model through the access seam below; sunxi_wdt_probe.c maps it.
 *
 * Register layout, offsets from the node's reg base [Linux drivers/watchdog/
 * sunxi_wdt.c, sun6i_wdt_reg and sun20i_wdt_reg; D1 user manual, "Watchdog"]:
 *   0x10 CTRL  bit 0 RESTART with the key 0xa57 in bits 12:1: the countdown restarts
 *   0x14 CFG   bits 1:0: what the watchdog does at 0 (01: reset the whole system)
 *   0x18 MODE  bit 0 EN; bits 7:4 the interval (sunxi_wdt.c wdt_timeout_map)
 * The D1 ignores a CFG or MODE write whose bits 31:16 are not the key 0x16aa [Linux
 * sunxi_wdt.c, sun20i_wdt_reg.wdt_key_val 0x16aa0000, "D1 ... requires a key field";
 * U-Boot drivers/watchdog/sunxi_wdt.c, the same]. The vendor (Tina) tree names the
 * D1's watchdog with a sun6i-style compatible; the silicon is still the D1's, so
 * every write here carries the key: Duplex runs on RISC-V only, where such a node
 * is a D1's (on an A31 those bits are unused).
 *
 * Locking: none; the probe calls these on the boot hart, the feeder from its one timer
 * callback. Nothing here sleeps. */
#ifndef DUPLEX_DRIVERS_WATCHDOG_SUNXI_WDT_H
#define DUPLEX_DRIVERS_WATCHDOG_SUNXI_WDT_H

#include <stdbool.h>
#include <stdint.h>

#define SUNXI_WDT_CTRL 0x10
#define SUNXI_WDT_CFG  0x14
#define SUNXI_WDT_MODE 0x18
#define SUNXI_WDT_SPAN 0x20 /* the node's reg size in Linux sun20i-d1s-t113.dtsi */

#define SUNXI_WDT_KEY            0x16aa0000u
#define SUNXI_WDT_KEY_MASK       0xffff0000u
#define SUNXI_WDT_CTRL_RESTART   ((0x0a57u << 1) | 1u)
#define SUNXI_WDT_MODE_ENABLE    0x1u
#define SUNXI_WDT_INTERVAL_SHIFT 4
#define SUNXI_WDT_INTERVAL_MASK  (0xfu << SUNXI_WDT_INTERVAL_SHIFT)
#define SUNXI_WDT_CFG_ACTION     0x3u /* bits 1:0 */
#define SUNXI_WDT_CFG_SYSTEM     0x1u /* 01: reset the whole system */

struct sunxi_wdt {
	volatile uint8_t *registers;
	/* Register access: null means MMIO (the kernel); the host test installs a model's. */
	uint32_t (*read_register)(struct sunxi_wdt *wdt, uint32_t offset);
	void (*write_register)(struct sunxi_wdt *wdt, uint32_t offset, uint32_t value);
	void *access_context;
};

/* What MODE says. */
struct sunxi_wdt_state {
	bool running;
	uint32_t timeout_ms; /* the programmed interval (0: a value the map does not name) */
	uint32_t mode;       /* the raw MODE register */
};

struct sunxi_wdt_state sunxi_wdt_read_state(struct sunxi_wdt *wdt);

/* Stop it (MODE: the key, EN clear), and read back. Returns true when MODE says it is
 * stopped. */
bool sunxi_wdt_stop(struct sunxi_wdt *wdt);

/* Restart the countdown from the programmed interval ("pet" it). */
void sunxi_wdt_feed(struct sunxi_wdt *wdt);

/* Start it with the longest interval the map has that is <= `seconds` (at least 1 s)
 * and the whole-system reset at 0, from a full countdown. Returns the interval in
 * seconds. */
uint32_t sunxi_wdt_start(struct sunxi_wdt *wdt, uint32_t seconds);

#endif
