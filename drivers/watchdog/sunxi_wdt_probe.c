/* The kernel side of the Allwinner watchdog: mapping it, the log line, and the feeder
 * timer. Kept apart from sunxi_wdt.c so the host test links that without the kernel. */
#include "drivers/watchdog/sunxi_wdt_probe.h"

#include "drivers/watchdog/sunxi_wdt.h"
#include "kernel/lib/format.h"
#include "kernel/log/log.h"
#include "kernel/mm/vm.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"

/* The D1 has two (Linux sun20i-d1s-t113.dtsi: the one in the timer block at
 * 0x020500a0, and the RISC-V subsystem's at 0x06011000, which U-Boot's WDT_SUNXI
 * starts); room for both, and one more. */
#define MAX_WATCHDOGS 3
/* WATCHDOG_FEED on a watchdog the firmware left stopped: the interval U-Boot's
 * CONFIG_WATCHDOG_TIMEOUT_MSECS uses on the D1 (16000), the longest the map has. */
#define FEED_START_SECONDS 16

struct watched {
	uint64_t base;
	struct sunxi_wdt wdt;
	struct timer feeder;
	uint64_t feed_every_ns;
};

static struct watched watchdogs[MAX_WATCHDOGS];
static int watchdog_count;

/* The feeder: a timer callback (interrupt context, the boot hart). Restarts the
 * countdown and re-arms itself. */
static void feed(struct timer *timer)
{
	struct watched *watched = timer->context;
	sunxi_wdt_feed(&watched->wdt);
	timer_start(timer, clock_now_ns() + watched->feed_every_ns);
}

/* A watchdog the tree reserves for firmware (the D1's in the timer block: Linux
 * sunxi-d1s-t113.dtsi): left alone while stopped; running, it would reset the board as
 * surely as the other, so it is stopped whatever the policy (feeding is for the one the
 * kernel owns). Returns as sunxi_wdt_probe. */
static int stop_reserved(const struct device *device, struct watched *watched,
                         struct sunxi_wdt_state found)
{
	if (!found.running) {
		log_printf("watchdog: %s at %#lx: reserved for firmware, stopped (MODE %#x); left "
		           "alone\n",
		           device->compatible, watched->base, found.mode);
		return 1;
	}
	bool stopped = sunxi_wdt_stop(&watched->wdt);
	log_printf("watchdog: %s at %#lx: reserved for firmware, but left running, %u.%u s "
	           "(MODE %#x); %s\n",
	           device->compatible, watched->base, found.timeout_ms / 1000,
	           found.timeout_ms % 1000 / 100, found.mode,
	           stopped ? "stopped, or the board would reset"
	                   : "STILL RUNNING: it did not stop, the board will reset");
	return stopped ? 0 : -1;
}

int sunxi_wdt_probe(const struct device *device, enum watchdog_policy policy)
{
	uint64_t base, size;
	if (fdt_reg(device->fdt, device->node, 0, &base, &size) != 0)
		return -1;
	for (int i = 0; i < watchdog_count; i++) {
		if (watchdogs[i].base == base)
			return 1; /* the same node under its other compatible */
	}
	if (watchdog_count == MAX_WATCHDOGS)
		return -1;
	struct watched *watched = &watchdogs[watchdog_count++];
	watched->base = base;
	watched->wdt.registers = vm_map_device(base, size ? size : SUNXI_WDT_SPAN);

	struct sunxi_wdt_state found = sunxi_wdt_read_state(&watched->wdt);
	if (device->reserved)
		return stop_reserved(device, watched, found);
	char left[48] = "stopped";
	if (found.running)
		format_buffer(left, sizeof left, "running, %u.%u s", found.timeout_ms / 1000,
		              found.timeout_ms % 1000 / 100);
	if (policy == WATCHDOG_STOP) {
		bool stopped = sunxi_wdt_stop(&watched->wdt);
		log_printf("watchdog: %s at %#lx: firmware left it %s (MODE %#x); %s\n",
		           device->compatible, base, left, found.mode,
		           stopped ? "stopped (watchdog=stop)"
		                   : "STILL RUNNING: it did not stop, the board will reset");
		return stopped ? 0 : -1;
	}
	uint32_t seconds = found.running && found.timeout_ms >= 1000
	                       ? found.timeout_ms / 1000
	                       : sunxi_wdt_start(&watched->wdt, FEED_START_SECONDS);
	sunxi_wdt_feed(&watched->wdt);
	watched->feed_every_ns = (uint64_t)seconds * 1000000000ull / 4;
	timer_init(&watched->feeder, feed, watched);
	timer_start(&watched->feeder, clock_now_ns() + watched->feed_every_ns);
	bool running = sunxi_wdt_read_state(&watched->wdt).running;
	log_printf("watchdog: %s at %#lx: firmware left it %s (MODE %#x); %s %u s, fed every "
	           "%lu ms (watchdog=feed)\n",
	           device->compatible, base, left, found.mode,
	           running ? "running," : "NOT RUNNING after start,", seconds,
	           (unsigned long)(watched->feed_every_ns / 1000000));
	return running ? 0 : -1;
}
