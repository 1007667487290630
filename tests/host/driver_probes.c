/* Host stand-ins for the probes; see driver_probes.h. */
#include "driver_probes.h"

#include <string.h>

#include "drivers/base/bind.h"
#include "drivers/irqchip/plic.h"
#include "drivers/rtc/goldfish_rtc.h"
#include "drivers/test_finisher/sifive_test.h"
#include "drivers/timer/goldfish_alarm.h"
#include "drivers/timer/sun20i_timer_probe.h"
#include "drivers/uart/uart.h"
#include "drivers/uart/uart_16550.h"
#include "drivers/watchdog/sunxi_wdt_probe.h"

static struct bound_devices *recording;
static struct uart host_uart;
static const struct timer_source host_timer = {.name = "host stand-in"};

struct uart *uart16550_probe(const struct device *device, uint32_t baud)
{
	(void)baud;
	if (platform_read_uart(device->fdt, device->node, 0, &recording->uart) != 0)
		return 0;
	recording->uart_compatible = device->compatible;
	recording->uart_driver = "uart16550_probe";
	return &host_uart;
}

int sifive_test_probe(const struct device *device)
{
	uint64_t size;
	return fdt_reg(device->fdt, device->node, 0, &recording->exit_base, &size);
}

int plic_probe(const struct device *device)
{
	return platform_read_plic(device->fdt, device->node, device->compatible, &recording->plic);
}

static const struct timer_source *timer_probe(const struct device *device, const char *probe)
{
	if (platform_read_timer_block(device->fdt, device->node, device->compatible,
	                              &recording->timer) != 0)
		return 0;
	recording->timer_driver = probe;
	return &host_timer;
}

const struct timer_source *sun20i_timer_probe(const struct device *device)
{
	return timer_probe(device, "sun20i_timer_probe");
}

const struct timer_source *goldfish_alarm_probe(const struct device *device)
{
	return timer_probe(device, "goldfish_alarm_probe");
}

int sunxi_wdt_probe(const struct device *device, enum watchdog_policy policy)
{
	(void)policy;
	uint64_t base, size;
	if (fdt_reg(device->fdt, device->node, 0, &base, &size) != 0)
		return -1;
	if (device->reserved) {
		/* As the real probe: looked at (stopped if running), never counted. */
		for (int i = 0; i < recording->reserved_watchdogs; i++)
			if (recording->reserved_watchdog_bases[i] == base)
				return 1;
		if (recording->reserved_watchdogs < 4)
			recording->reserved_watchdog_bases[recording->reserved_watchdogs++] = base;
		return 1;
	}
	for (int i = 0; i < recording->watchdogs; i++)
		if (recording->watchdog_bases[i] == base)
			return 1; /* as the real probe: one node under its other compatible */
	if (recording->watchdogs == 4)
		return -1;
	recording->watchdog_compatible[recording->watchdogs] = device->compatible;
	recording->watchdog_bases[recording->watchdogs++] = base;
	return 0;
}

int goldfish_rtc_probe(const struct device *device)
{
	uint64_t size;
	recording->rtc_compatible = device->compatible;
	return fdt_reg(device->fdt, device->node, 0, &recording->rtc_base, &size);
}

void bind_devices(const struct platform *platform, struct bound_devices *bound)
{
	memset(bound, 0, sizeof *bound);
	recording = bound;
	drivers_bind_uart(platform, platform->stdout_node, 115200);
	bound->exit_driver = drivers_bind_one(platform, DRIVER_EXIT);
	bound->irqchip_driver = drivers_bind_one(platform, DRIVER_IRQCHIP);
	drivers_bind_timer(platform, 0);
	int handled = drivers_bind_watchdogs(platform, WATCHDOG_STOP, &bound->watchdogs_failed);
	if (handled != bound->watchdogs)
		bound->watchdogs_failed += 1000; /* the walk's count and the probes' disagree */
	bound->rtc_driver = drivers_bind_one(platform, DRIVER_RTC);
	recording = 0;
}
