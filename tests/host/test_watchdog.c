/* Host unit tests for the Allwinner watchdog driver (drivers/watchdog/sunxi_wdt.c)
 * against a register model of the D1's watchdog: CTRL, CFG and MODE at 0x10/0x14/0x18;
 * CFG and MODE writes whose bits 31:16 are not the key 0x16aa are ignored; CTRL restarts
 * the countdown only with 0xa57 in bits 12:1 (Linux drivers/watchdog/sunxi_wdt.c,
 * sun20i_wdt_reg and WDT_CTRL_RELOAD; D1 user manual, "Watchdog"). The model counts
 * down in milliseconds and counts the system resets it would cause.
 *
 * Issue #27's second fault: the D1's U-Boot (CONFIG_WDT_SUNXI, WATCHDOG_AUTOSTART,
 * 16 000 ms) leaves the watchdog running at booti; without the driver stopping it the
 * board resets 16 s after "Starting kernel". */
#include <string.h>

#include "check.h"
#include "drivers/watchdog/sunxi_wdt.h"

static const uint32_t model_interval_ms[16] = {500,  1000, 2000,  3000,  4000,  5000,
                                               6000, 8000, 10000, 12000, 14000, 16000};

struct watchdog_model {
	uint32_t ctrl, cfg, mode;
	uint64_t left_ms; /* until the reset, while running */
	uint32_t resets;
	uint32_t ignored_writes; /* keyless CFG/MODE writes, bad CTRL keys */
};

static struct watchdog_model model;
static struct sunxi_wdt wdt;

static void restart_countdown(void)
{
	model.left_ms = model_interval_ms[(model.mode >> 4) & 0xf];
}

static uint32_t model_read(struct sunxi_wdt *watchdog, uint32_t offset)
{
	(void)watchdog;
	switch (offset) {
	case 0x10:
		return 0; /* CTRL reads 0: RESTART clears itself */
	case 0x14:
		return model.cfg;
	case 0x18:
		return model.mode;
	}
	CHECK(!"read of an offset the driver has no business with");
	return 0;
}

static void model_write(struct sunxi_wdt *watchdog, uint32_t offset, uint32_t value)
{
	(void)watchdog;
	if (offset == 0x10) {
		if ((value & 0x1fff) == ((0x0a57u << 1) | 1u))
			restart_countdown();
		else
			model.ignored_writes++;
		return;
	}
	if ((value >> 16) != 0x16aa) {
		model.ignored_writes++;
		return;
	}
	if (offset == 0x14) {
		model.cfg = value & 0xffff;
	} else if (offset == 0x18) {
		bool was_running = model.mode & 1;
		model.mode = value & 0xffff;
		if (!was_running && (model.mode & 1))
			restart_countdown();
	} else {
		CHECK(!"write of an offset the driver has no business with");
	}
}

/* Let `ms` milliseconds pass; a running watchdog that reaches 0 resets the system (and
 * is off again after the reset, as the SoC comes out of it). */
static void run_ms(uint64_t ms)
{
	if (!(model.mode & 1))
		return;
	if (ms >= model.left_ms) {
		model.resets++;
		model.mode = 0;
		return;
	}
	model.left_ms -= ms;
}

/* The watchdog as the D1's U-Boot leaves it at booti: 16 s, whole-system reset,
 * running (U-Boot drivers/watchdog/sunxi_wdt.c sunxi_wdt_start, lichee_rv_dock
 * defconfig's WATCHDOG_TIMEOUT_MSECS 16000). */
static void uboot_left_it_running(void)
{
	memset(&model, 0, sizeof model);
	memset(&wdt, 0, sizeof wdt);
	wdt.read_register = model_read;
	wdt.write_register = model_write;
	model_write(&wdt, 0x14, 0x16aa0001);
	model_write(&wdt, 0x18, 0x16aa00b0);
	model_write(&wdt, 0x10, (0x0a57u << 1) | 1u);
	model_write(&wdt, 0x18, 0x16aa00b1);
	CHECK(model.mode & 1);
	run_ms(3000); /* U-Boot's bootdelay and the image load */
}

static void test_state_read(void)
{
	uboot_left_it_running();
	struct sunxi_wdt_state state = sunxi_wdt_read_state(&wdt);
	CHECK(state.running);
	CHECK_EQ_U64(state.timeout_ms, 16000);
	CHECK_EQ_U64(state.mode, 0xb1);
	CHECK_EQ_U64(model.ignored_writes, 0);
}

/* watchdog=stop, the default: the board must still be up a minute later. */
static void test_stop_keeps_the_board_up(void)
{
	uboot_left_it_running();
	CHECK(sunxi_wdt_stop(&wdt));
	CHECK(!sunxi_wdt_read_state(&wdt).running);
	run_ms(60000);
	CHECK_EQ_U64(model.resets, 0);
	CHECK_EQ_U64(model.ignored_writes, 0);
	CHECK_EQ_U64(model.mode & 0xf0, 0xb0); /* the interval is left as it was */
}

/* The model itself: left alone, the board resets 16 s after U-Boot started it. */
static void test_untouched_watchdog_resets(void)
{
	uboot_left_it_running();
	run_ms(12999);
	CHECK_EQ_U64(model.resets, 0);
	run_ms(1);
	CHECK_EQ_U64(model.resets, 1);
}

/* watchdog=feed: fed every quarter of the interval, it never fires; unfed, it does. */
static void test_feeding_keeps_the_board_up(void)
{
	uboot_left_it_running();
	for (int i = 0; i < 60; i++) { /* 4 s at a time for 4 minutes */
		sunxi_wdt_feed(&wdt);
		run_ms(4000);
	}
	CHECK_EQ_U64(model.resets, 0);
	CHECK(sunxi_wdt_read_state(&wdt).running);
	run_ms(16000);
	CHECK_EQ_U64(model.resets, 1);
	CHECK_EQ_U64(model.ignored_writes, 0);
}

/* Starting it (watchdog=feed on a watchdog the firmware left off): the interval map's
 * largest value not over the request, the whole-system action, a full countdown. */
static void test_start(void)
{
	uboot_left_it_running();
	CHECK(sunxi_wdt_stop(&wdt));
	model.cfg = 0x2; /* something else in the action bits */
	CHECK_EQ_U64(sunxi_wdt_start(&wdt, 16), 16);
	CHECK_EQ_U64(model.mode, 0xb1);
	CHECK_EQ_U64(model.cfg & 0x3, 0x1);
	CHECK_EQ_U64(model.left_ms, 16000);
	CHECK_EQ_U64(sunxi_wdt_start(&wdt, 9), 8);
	CHECK_EQ_U64(model.mode, 0x71);
	CHECK_EQ_U64(sunxi_wdt_start(&wdt, 0), 1);
	CHECK_EQ_U64(model.mode, 0x11);
	CHECK_EQ_U64(model.ignored_writes, 0);
}

int main(void)
{
	RUN(test_state_read);
	RUN(test_stop_keeps_the_board_up);
	RUN(test_untouched_watchdog_resets);
	RUN(test_feeding_keeps_the_board_up);
	RUN(test_start);
	return check_summary();
}
