/* Allwinner watchdog register operations; see sunxi_wdt.h for the layout and sources. */
#include "drivers/watchdog/sunxi_wdt.h"

/* MODE bits 7:4 -> the interval in milliseconds [Linux drivers/watchdog/sunxi_wdt.c,
 * wdt_timeout_map, read backwards: 0 is 0.5 s, 1-6 are 1-6 s, then 8, 10, 12, 14, 16 s]. */
static const uint32_t interval_ms[16] = {500,   1000,  2000,  3000,  4000, 5000, 6000, 8000,
                                         10000, 12000, 14000, 16000, 0,    0,    0,    0};

static uint32_t read_register(struct sunxi_wdt *wdt, uint32_t offset)
{
	if (wdt->read_register)
		return wdt->read_register(wdt, offset);
	return *(volatile uint32_t *)(wdt->registers + offset);
}

static void write_register(struct sunxi_wdt *wdt, uint32_t offset, uint32_t value)
{
	if (wdt->write_register)
		wdt->write_register(wdt, offset, value);
	else
		*(volatile uint32_t *)(wdt->registers + offset) = value;
}

/* A CFG or MODE write: the key in bits 31:16, the value below. */
static void write_keyed(struct sunxi_wdt *wdt, uint32_t offset, uint32_t value)
{
	write_register(wdt, offset, SUNXI_WDT_KEY | (value & ~SUNXI_WDT_KEY_MASK));
}

struct sunxi_wdt_state sunxi_wdt_read_state(struct sunxi_wdt *wdt)
{
	uint32_t mode = read_register(wdt, SUNXI_WDT_MODE);
	uint32_t interval = (mode & SUNXI_WDT_INTERVAL_MASK) >> SUNXI_WDT_INTERVAL_SHIFT;
	return (struct sunxi_wdt_state){
	    .running = (mode & SUNXI_WDT_MODE_ENABLE) != 0,
	    .timeout_ms = interval_ms[interval],
	    .mode = mode,
	};
}

bool sunxi_wdt_stop(struct sunxi_wdt *wdt)
{
	uint32_t mode = read_register(wdt, SUNXI_WDT_MODE);
	write_keyed(wdt, SUNXI_WDT_MODE, mode & ~SUNXI_WDT_MODE_ENABLE);
	return !sunxi_wdt_read_state(wdt).running;
}

void sunxi_wdt_feed(struct sunxi_wdt *wdt)
{
	write_register(wdt, SUNXI_WDT_CTRL, SUNXI_WDT_CTRL_RESTART);
}

uint32_t sunxi_wdt_start(struct sunxi_wdt *wdt, uint32_t seconds)
{
	uint32_t chosen = 1;
	for (uint32_t value = 1; value < 16; value++) {
		if (interval_ms[value] && interval_ms[value] <= seconds * 1000u)
			chosen = value;
	}
	/* As Linux's sunxi_wdt_start: interval and action first, the countdown restarted,
	 * then enabled. */
	uint32_t mode = read_register(wdt, SUNXI_WDT_MODE);
	mode = (mode & ~SUNXI_WDT_INTERVAL_MASK) | (chosen << SUNXI_WDT_INTERVAL_SHIFT);
	write_keyed(wdt, SUNXI_WDT_MODE, mode & ~SUNXI_WDT_MODE_ENABLE);
	uint32_t config = read_register(wdt, SUNXI_WDT_CFG);
	write_keyed(wdt, SUNXI_WDT_CFG, (config & ~SUNXI_WDT_CFG_ACTION) | SUNXI_WDT_CFG_SYSTEM);
	sunxi_wdt_feed(wdt);
	write_keyed(wdt, SUNXI_WDT_MODE, mode | SUNXI_WDT_MODE_ENABLE);
	return interval_ms[chosen] / 1000u;
}
