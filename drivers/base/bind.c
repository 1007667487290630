/* The device tree walk behind bind.h. */
#include "drivers/base/bind.h"

#include "kernel/lib/string.h"

/* What one walk looks for and what it found. */
struct walk {
	enum driver_class class;
	const char *name;  /* only this driver, or null */
	int node;          /* only this node, or -1 */
	uint32_t baud;     /* DRIVER_UART */
	const char *bound; /* the driver that took a node */
	struct uart *uart; /* what it gave */
	int bound_node;    /* the node it took */
	const struct timer_source *timer;
	enum watchdog_policy watchdog_policy; /* DRIVER_WATCHDOG */
	bool every_node;                      /* DRIVER_WATCHDOG: probe all, count them */
	int handled, failed;                  /* DRIVER_WATCHDOG: nodes in the state asked, not */
};

static bool probe(const struct driver *driver, const struct device *device, struct walk *walk)
{
	switch (driver->class) {
	case DRIVER_UART:
		walk->uart = driver->probe.uart(device, walk->baud);
		return walk->uart != 0;
	case DRIVER_EXIT:
		return driver->probe.exit(device) == 0;
	case DRIVER_IRQCHIP:
		return driver->probe.irqchip(device) == 0;
	case DRIVER_RTC:
		return driver->probe.rtc(device) == 0;
	case DRIVER_TIMER:
		walk->timer = driver->probe.timer(device);
		return walk->timer != 0;
	case DRIVER_WATCHDOG: {
		int result = driver->probe.watchdog(device, walk->watchdog_policy);
		walk->handled += result == 0;
		walk->failed += result < 0;
		return result == 0;
	}
	}
	return false;
}

/* Probe matching enabled nodes in table order until one is taken (with every_node: all
 * of them). Returns whether one was; walk->bound names its (last) driver. */
static bool bind(const struct platform *platform, struct walk *walk)
{
	struct fdt fdt;
	if (!platform->dtb || fdt_open(&fdt, platform->dtb) < 0)
		return false;
	for (int i = 0; i < driver_count; i++) {
		const struct driver *driver = &drivers[i];
		if (driver->class != walk->class ||
		    (walk->name && strcmp(walk->name, driver->name)))
			continue;
		for (const char *const *compatible = driver->compatible; *compatible;
		     compatible++) {
			for (int node = fdt_next_compatible(&fdt, -1, *compatible); node >= 0;
			     node = fdt_next_compatible(&fdt, node, *compatible)) {
				/* Watchdogs reserved for firmware too: one the firmware left
				 * running would reset the board all the same. */
				bool reserved =
				    walk->class == DRIVER_WATCHDOG && fdt_node_reserved(&fdt, node);
				if ((walk->node >= 0 && node != walk->node) ||
				    (!fdt_node_enabled(&fdt, node) && !reserved))
					continue;
				struct device device = {&fdt, node, *compatible, platform,
				                        reserved};
				if (probe(driver, &device, walk)) {
					walk->bound = driver->name;
					walk->bound_node = node;
					if (!walk->every_node)
						return true;
				}
			}
		}
	}
	return walk->bound != 0;
}

const char *drivers_bind_one(const struct platform *platform, enum driver_class class)
{
	struct walk walk = {.class = class, .node = -1};
	return bind(platform, &walk) ? walk.bound : 0;
}

struct uart *drivers_bind_uart(const struct platform *platform, int node, uint32_t baud)
{
	struct walk walk = {.class = DRIVER_UART, .node = node, .baud = baud};
	if (node < 0)
		return 0;
	return bind(platform, &walk) ? walk.uart : 0;
}

struct uart *drivers_bind_first_uart(const struct platform *platform, uint32_t baud, int *node)
{
	struct walk walk = {.class = DRIVER_UART, .node = -1, .baud = baud};
	if (!bind(platform, &walk))
		return 0;
	*node = walk.bound_node;
	return walk.uart;
}

const struct timer_source *drivers_bind_timer(const struct platform *platform, const char *name)
{
	struct walk walk = {.class = DRIVER_TIMER, .name = name, .node = -1};
	return bind(platform, &walk) ? walk.timer : 0;
}

int drivers_bind_watchdogs(const struct platform *platform, enum watchdog_policy policy,
                           int *failed)
{
	struct walk walk = {
	    .class = DRIVER_WATCHDOG, .node = -1, .watchdog_policy = policy, .every_node = true};
	bind(platform, &walk);
	*failed = walk.failed;
	return walk.handled;
}

bool driver_exists(enum driver_class class, const char *name)
{
	for (int i = 0; i < driver_count; i++) {
		if (drivers[i].class == class && strcmp(drivers[i].name, name) == 0)
			return true;
	}
	return false;
}
