/* Host unit tests for the Lichee RV (Allwinner D1) board description: the device tree
 * boards/lichee-rv-d1/lichee-rv-d1.dts, compiled with dtc at test build time
 * (tests/host/tests.mk), read by the kernel's own FDT reader and platform code, and its
 * UART description handed to the real 16550/DW driver running against the DW APB model.
 *
 * Expected values: Linux sunxi-d1s-t113.dtsi (docs/sources.md). The DW UART's behaviour itself
 * (busy-detect, LCR retries, USR/TFL) is tested in test_uart_16550.c.
 *
 * Also the vendor tree the board's stock firmware passes (tests/fixtures/d1-vendor.dts,
 * its sources named there), through the same reader and driver. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dtb_file.h"
#include "kernel/fdt/fdt.h"
#include "kernel/fdt/platform.h"
#include "driver_probes.h"
#include "drivers/uart/uart.h"
#include "drivers/uart/uart_16550.h"
#include "uart_model.h"

#define D1_DTB          "build/host/boards/lichee-rv-d1.dtb"
#define QEMU_SMP4_DTB   "tests/fixtures/qemu-virt-smp4.dtb"
#define VENDOR_DTB      "build/host/fixtures/d1-vendor.dtb" /* tests/fixtures/d1-vendor.dts */
#define CPU_INTC_S_MODE 9 /* scause of a supervisor external interrupt */

static struct uart_model model; /* large (the captured wire): not on the stack */

static void test_d1_platform(void)
{
	void *blob = dtb_load(D1_DTB);
	struct platform platform;
	const char *error = NULL;

	CHECK(platform_from_fdt(&platform, blob, &error) == 0);
	struct bound_devices bound;
	bind_devices(&platform, &bound); /* the driver table's walk, with host probes */
	CHECK(error == NULL);

	/* The watchdog U-Boot starts (0x06011000) reaches the watchdog driver; the one in
	 * the timer block is "reserved" (firmware's): not the kernel's to drive. */
	CHECK_EQ_U64(bound.watchdogs, 1);
	CHECK_EQ_U64(bound.watchdog_bases[0], 0x06011000);
	CHECK_STR(bound.watchdog_compatible[0], "allwinner,sun20i-d1-wdt");
	CHECK_EQ_U64(bound.watchdogs_failed, 0);
	/* The reserved one reaches the driver too, once, only to be stopped if it runs
	 * (sunxi_wdt_probe.c); it is not counted among the kernel's. */
	CHECK_EQ_U64(bound.reserved_watchdogs, 1);
	CHECK_EQ_U64(bound.reserved_watchdog_bases[0], 0x020500a0);

	/* 512 MiB of DRAM at 0x40000000, one C906 hart at 24 MHz, no Sstc. */
	CHECK(platform.memory_count == 1);
	CHECK_EQ_U64(platform.memory[0].base, 0x40000000);
	CHECK_EQ_U64(platform.memory[0].size, 512ull << 20);
	CHECK(platform.reserved_count == 0);
	CHECK(platform.hart_count == 1);
	CHECK(platform.hart_ids[0] == 0);
	CHECK(platform.timebase_hz == 24000000);
	CHECK_STR(platform.isa, "rv64imafdc");
	CHECK(!platform.has_sstc);
	CHECK(platform.cpu_vendor_thead);
	CHECK_STR(platform.bootargs, "console=async");

	/* UART0, found through stdout-path "serial0:115200n8" and /aliases. */
	CHECK(platform.uart.present);
	CHECK_STR(platform.uart.compatible, "snps,dw-apb-uart");
	CHECK_EQ_U64(platform.uart.base, 0x02500000);
	CHECK_EQ_U64(platform.uart.size, 0x400);
	CHECK(platform.uart.reg_shift == 2);
	CHECK(platform.uart.reg_io_width == 4);
	CHECK(platform.uart.clock_hz == 24000000);
	CHECK(platform.uart.irq == 18);
	CHECK(platform.uart.fifo_size == 64);
	CHECK(platform.uart.baud == 115200);

	/* The T-Head PLIC: 175 sources; context 0 is the hart's M-mode, 1 its S-mode. */
	CHECK(bound.plic.present);
	CHECK_STR(bound.plic.compatible, "thead,c900-plic");
	CHECK_EQ_U64(bound.plic.base, 0x10000000);
	CHECK_EQ_U64(bound.plic.size, 0x4000000);
	CHECK(bound.plic.source_count == 175);
	CHECK(bound.plic.s_context[0] == 1);
	for (int hart = 1; hart < PLATFORM_MAX_HARTS; hart++)
		CHECK(bound.plic.s_context[hart] == -1);

	/* The timer block the kernel falls back on without an SBI timer: two channels on
	 * PLIC sources 75 and 76 (two cells per interrupt: the PLIC's #interrupt-cells). */
	CHECK(bound.timer.present);
	CHECK_STR(bound.timer.compatible, "allwinner,sun20i-d1-timer");
	CHECK_EQ_U64(bound.timer.base, 0x02050000);
	CHECK_EQ_U64(bound.timer.size, 0xa0);
	CHECK(bound.timer.irq_count == 2);
	CHECK(bound.timer.irqs[0] == 75);
	CHECK(bound.timer.irqs[1] == 76);

	CHECK(bound.exit_driver == NULL);

	/* Every D1 device the kernel drives binds to its driver through the table: the
	 * console UART (stdout-path's node) as a DesignWare UART, which selects the 16550
	 * driver's DW quirks, the T-Head PLIC, the sun20i timer block. */
	CHECK_STR(bound.uart_driver, "uart16550_probe");
	CHECK_STR(bound.uart_compatible, "snps,dw-apb-uart");
	CHECK_EQ_U64(bound.uart.base, 0x02500000);
	CHECK_STR(bound.irqchip_driver, "plic");
	CHECK_STR(bound.timer_driver, "sun20i_timer_probe");
	free(blob);
}

/* The nodes the kernel does not read but the firmware needs are there and well formed. */
static void test_d1_firmware_nodes(void)
{
	void *blob = dtb_load(D1_DTB);
	struct fdt fdt;
	uint64_t base, size;

	CHECK(fdt_open(&fdt, blob) == 0);
	/* OpenSBI >= 1.2 provides the SBI timer on the D1 only with this CLINT node. */
	int clint = fdt_next_compatible(&fdt, -1, "thead,c900-clint");
	CHECK(clint >= 0);
	CHECK(fdt_stringlist_contains(&fdt, clint, "compatible", "allwinner,sun20i-d1-clint"));
	CHECK(fdt_reg(&fdt, clint, 0, &base, &size) == 0);
	CHECK_EQ_U64(base, 0x14000000);
	CHECK_EQ_U64(size, 0xc000);

	int cpu = fdt_path(&fdt, "/cpus/cpu@0");
	CHECK(fdt_stringlist_contains(&fdt, cpu, "compatible", "thead,c906"));
	CHECK_STR(fdt_prop_string(&fdt, cpu, "mmu-type"), "riscv,sv39");
	int intc = fdt_first_child(&fdt, cpu);
	CHECK(fdt_stringlist_contains(&fdt, intc, "compatible", "riscv,cpu-intc"));

	/* The PLIC's S-mode entry points at this hart's interrupt controller. */
	int plic = fdt_next_compatible(&fdt, -1, "thead,c900-plic");
	uint32_t length = 0;
	const uint32_t *cells = fdt_prop(&fdt, plic, "interrupts-extended", &length);
	CHECK(cells != NULL && length == 16);
	if (cells && length == 16) {
		CHECK(fdt_node_by_phandle(&fdt, (uint32_t)fdt_read_cells(cells + 2, 1)) == intc);
		CHECK(fdt_read_cells(cells + 3, 1) == CPU_INTC_S_MODE);
	}
	CHECK_STR(fdt_prop_string(&fdt, fdt_path(&fdt, "/chosen"), "stdout-path"),
	          "serial0:115200n8");
	free(blob);
}

/* QEMU's harts are not T-Head's: the kernel must never read th.sxstatus there. */
static void test_qemu_is_not_thead(void)
{
	void *blob = dtb_load(QEMU_SMP4_DTB);
	struct platform platform;

	CHECK(platform_from_fdt(&platform, blob, NULL) == 0);
	CHECK(!platform.cpu_vendor_thead);
	free(blob);
}

/* What the D1's device tree tells the driver, through the driver, on the DW model:
 * 24 MHz / (16 * 115200) = 13.02, so divisor 13, which gives 24e6 / 208 = 115384.6 bps.
 * The driver reports the integer 115384 (it truncates); the reference rounds it to
 * "115 385". */
static void test_d1_uart_line_settings(void)
{
	void *blob = dtb_load(D1_DTB);
	struct platform platform;
	struct uart uart;
	struct uart_16550 state;

	CHECK(platform_from_fdt(&platform, blob, NULL) == 0);
	uart_model_init(&model, UART_MODEL_DW_APB, platform.uart.reg_shift,
	                platform.uart.reg_io_width, platform.uart.fifo_size);
	memset(&state, 0, sizeof state);
	memset(&uart, 0, sizeof uart);
	uart_model_attach(&model, &state);
	CHECK(uart16550_setup(&uart, &state, 0, &platform.uart, platform.uart.baud) == 0);

	CHECK(state.designware);
	CHECK(uart.divisor == 13);
	CHECK(uart.baud == 115384);
	CHECK(uart.clock_hz == 24000000);
	CHECK(uart.fifo_depth == 64);
	CHECK(model.dll == 13 && model.dlm == 0);
	CHECK(model.lcr == 0x03); /* 8N1, DLAB clear again */
	CHECK(!state.line_settings_failed);
	CHECK_EQ_U64(model.violations, 0);
	free(blob);
}

/* The tree the board's stock firmware passes (tests/fixtures/d1-vendor.dts): vendor
 * names for the UART, the PLIC, the timer and the watchdog, two-cell addresses, every
 * device interrupt only in interrupts-extended, no UART register layout or clock, the
 * FIFO depth as sunxi,uart-fifosize. */
static void test_vendor_tree_platform(void)
{
	void *blob = dtb_load(VENDOR_DTB);
	struct platform platform;
	const char *error = NULL;

	CHECK(platform_from_fdt(&platform, blob, &error) == 0);
	CHECK(platform.memory_count == 1);
	CHECK_EQ_U64(platform.memory[0].base, 0x40000000);
	CHECK_EQ_U64(platform.memory[0].size, 0x20000000);
	CHECK(platform.hart_count == 1);
	CHECK(platform.timebase_hz == 24000000);
	CHECK(!platform.has_sstc);
	CHECK(!platform.cpu_vendor_thead); /* "riscv" only: the build decides (memattr.c) */
	/* "rv64imafdcvsu": the C906's "v" is XTheadVector 0.7.1, so no V (Linux
	 * cpufeature.c drops it too); the base letters are all there. */
	CHECK_EQ_U64(platform.isa_letters & (1u << ('v' - 'a')), 0);
	const uint64_t imafdc = (1u << ('i' - 'a')) | (1u << ('m' - 'a')) | (1u << ('a' - 'a')) |
	                        (1u << ('f' - 'a')) | (1u << ('d' - 'a')) | (1u << ('c' - 'a'));
	CHECK_EQ_U64(platform.isa_letters & imafdc, imafdc);

	/* UART0 through the serial0 alias, as a DW APB UART with the mainline layout. */
	CHECK(platform.uart.present);
	CHECK(platform.uart_absent_reason == NULL);
	CHECK_STR(platform.uart.compatible, "allwinner,sun20i-uart");
	CHECK(platform.uart.designware);
	CHECK_EQ_U64(platform.uart.base, 0x02500000);
	CHECK_EQ_U64(platform.uart.size, 0x400);
	CHECK(platform.uart.reg_shift == 2);
	CHECK(platform.uart.reg_io_width == 4);
	CHECK(platform.uart.irq == 18);
	CHECK(platform.uart.clock_hz == 0); /* a `clocks` phandle only: unknown */
	CHECK(platform.uart.baud == 115200);
	CHECK(platform.uart.fifo_size == 64); /* sunxi,uart-fifosize */

	/* Through the driver table: the vendor UART name picks the 16550 driver (its DW
	 * paths), "riscv,plic0" the PLIC, the timer block under its A10 name the sun20i
	 * timer driver, one channel (one interrupt) for one hart. */
	struct bound_devices bound;
	bind_devices(&platform, &bound);
	CHECK_STR(bound.uart_driver, "uart16550_probe");
	CHECK_STR(bound.uart_compatible, "allwinner,sun20i-uart");
	CHECK(bound.uart.designware);
	CHECK_STR(bound.irqchip_driver, "plic");
	CHECK(bound.plic.present);
	CHECK_STR(bound.plic.compatible, "riscv,plic0");
	CHECK_EQ_U64(bound.plic.base, 0x10000000);
	CHECK_EQ_U64(bound.plic.size, 0x4000000);
	CHECK(bound.plic.s_context[0] == 1);
	CHECK_STR(bound.timer_driver, "sun20i_timer_probe");
	CHECK(bound.timer.present);
	CHECK_STR(bound.timer.compatible, "allwinner,sun4i-a10-timer");
	CHECK_EQ_U64(bound.timer.base, 0x02050000);
	CHECK_EQ_U64(bound.timer.size, 0xa0);
	CHECK(bound.timer.irq_count == 1);
	CHECK(bound.timer.irqs[0] == 75); /* from interrupts-extended */
	/* The sun6i-style watchdog of the vendor tree reaches the watchdog driver. */
	CHECK_EQ_U64(bound.watchdogs, 1);
	CHECK_EQ_U64(bound.watchdog_bases[0], 0x06011000);
	CHECK_STR(bound.watchdog_compatible[0], "allwinner,sun6i-a31-wdt");
	CHECK_EQ_U64(bound.watchdogs_failed, 0);
	CHECK_STR(platform.bootargs,
	          "earlyprintk=sunxi-uart,0x02500000 console=ttyS0,115200 loglevel=8");
	free(blob);
}

/* The driver on that description, on a DW model the firmware left at 115200 from a
 * 24 MHz clock (divisor 13, 8N1): 32-bit accesses at reg-shift 2 (the model flags any
 * other), the DW paths (USR, TFL, the CPR FIFO depth), and the firmware's divisor kept
 * because the clock is unknown. */
static void test_vendor_tree_uart(void)
{
	void *blob = dtb_load(VENDOR_DTB);
	struct platform platform;
	struct uart uart;
	struct uart_16550 state;

	CHECK(platform_from_fdt(&platform, blob, NULL) == 0);
	uart_model_init(&model, UART_MODEL_DW_APB, 2, 4, 64);
	model.dw_cpr = 4u << 16; /* FIFO_MODE 4: 64 bytes */
	model.lcr = 0x03;
	model.dll = 13;
	memset(&state, 0, sizeof state);
	memset(&uart, 0, sizeof uart);
	uart_model_attach(&model, &state);
	CHECK(uart16550_setup(&uart, &state, 0, &platform.uart, platform.uart.baud) == 0);

	CHECK(state.designware);
	CHECK(state.has_fifo_level);
	CHECK_EQ_U64(uart.fifo_depth, 64);
	CHECK_EQ_U64(uart.divisor, 13);
	CHECK_EQ_U64(model.dll, 13);
	CHECK_EQ_U64(model.dlm, 0);
	CHECK_EQ_U64(uart.baud, 0); /* not known without the clock */
	CHECK_EQ_U64(model.lcr, 0x03);
	CHECK_EQ_U64(uart.irq, 18);
	CHECK(!state.line_settings_failed);
	uart_write_polled(&uart, "vendor", 6);
	uart_model_drain(&model);
	CHECK(model.wire_length == 6 && memcmp(model.wire, "vendor", 6) == 0);
	CHECK_EQ_U64(model.violations, 0);
	free(blob);
}

int main(void)
{
	RUN(test_d1_platform);
	RUN(test_d1_firmware_nodes);
	RUN(test_qemu_is_not_thead);
	RUN(test_d1_uart_line_settings);
	RUN(test_vendor_tree_platform);
	RUN(test_vendor_tree_uart);
	return check_summary();
}
