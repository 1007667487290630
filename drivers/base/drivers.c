/* The driver table: every driver the kernel has, one line each, with the device tree
 * "compatible" strings it handles (each list cites where the strings come from).
 *
 * One explicit list rather than a linker section that each driver file drops an entry
 * into: the order here is the order of preference within a class (bind.h), a student
 * reads every driver on one page, and the layer rule (docs/design.md) sees through
 * these includes which drivers the table reaches, where a linker section would hide it.
 * Adding a driver: its file with a probe function, its header, and one line here. */
#include "drivers/base/driver.h"

#include "drivers/irqchip/plic.h"
#include "drivers/rtc/goldfish_rtc.h"
#include "drivers/test_finisher/sifive_test.h"
#include "drivers/timer/goldfish_alarm.h"
#include "drivers/timer/sun20i_timer_probe.h"
#include "drivers/uart/uart_16550.h"
#include "drivers/watchdog/sunxi_wdt_probe.h"

/* Linux drivers/tty/serial/8250/8250_of.c (of_platform_serial_table) and 8250_dw.c
 * (dw8250_of_match): the 16550 family and the DesignWare APB UART; last, the name the
 * Lichee RV's stock vendor tree gives the D1's DW UART (platform_read_uart treats it as
 * one: kernel/fdt/platform.c). */
static const char *const uart_16550_compatible[] = {
    "ns16550a", "ns16550", "ns16450", "snps,dw-apb-uart", "allwinner,sun20i-uart", 0};
/* QEMU hw/misc/sifive_test.c; hw/riscv/virt.c lists it as "sifive,test1", "sifive,test0". */
static const char *const sifive_test_compatible[] = {"sifive,test0", 0};
/* Linux drivers/irqchip/irq-sifive-plic.c (the T-Head one needs its quirk: plic.c). */
static const char *const plic_compatible[] = {"riscv,plic0", "sifive,plic-1.0.0", "thead,c900-plic",
                                              0};
/* Linux Documentation/devicetree/bindings/timer/allwinner,sun4i-a10-timer.yaml. The
 * D1's stock vendor tree calls the D1 timer block "allwinner,sun4i-a10-timer": the A10's
 * timer has the same registers (Linux drivers/clocksource/timer-sun4i.c). */
static const char *const sun20i_timer_compatible[] = {
    "allwinner,sun20i-d1-timer", "allwinner,sun8i-a23-timer", "allwinner,sun4i-a10-timer", 0};
/* Linux drivers/watchdog/sunxi_wdt.c (sunxi_wdt_dt_ids) and Documentation/devicetree/
 * bindings/watchdog/allwinner,sun4i-a10-wdt.yaml: the D1's own names (the main one in
 * the timer block lists "allwinner,sun20i-d1-wdt-reset" first, Linux
 * sun20i-d1s-t113.dtsi) and the sun6i-style one of the vendor (Tina) tree. */
static const char *const sunxi_wdt_compatible[] = {
    "allwinner,sun20i-d1-wdt", "allwinner,sun20i-d1-wdt-reset", "allwinner,sun6i-a31-wdt", 0};
/* Linux drivers/rtc/rtc-goldfish.c (QEMU virt's RTC; its alarm is our timer). */
static const char *const goldfish_compatible[] = {"google,goldfish-rtc", 0};

const struct driver drivers[] = {
    {"ns16550", DRIVER_UART, uart_16550_compatible, {.uart = uart16550_probe}},
    {"sifive-test", DRIVER_EXIT, sifive_test_compatible, {.exit = sifive_test_probe}},
    {"plic", DRIVER_IRQCHIP, plic_compatible, {.irqchip = plic_probe}},
    {"sun20i", DRIVER_TIMER, sun20i_timer_compatible, {.timer = sun20i_timer_probe}},
    {"goldfish", DRIVER_TIMER, goldfish_compatible, {.timer = goldfish_alarm_probe}},
    {"sunxi-wdt", DRIVER_WATCHDOG, sunxi_wdt_compatible, {.watchdog = sunxi_wdt_probe}},
    /* The same device's time of day (drivers/rtc/goldfish_rtc.h). */
    {"goldfish-rtc", DRIVER_RTC, goldfish_compatible, {.rtc = goldfish_rtc_probe}},
};
const int driver_count = sizeof drivers / sizeof drivers[0];
