/* Host unit tests for the UART's register layout, as the device tree gives it: register
 * n at base + (n << reg-shift), every access exactly reg-io-width bytes wide (Linux
 * Documentation/devicetree/bindings/serial/8250.yaml). Graded by lab uart-layout
 * (docs/teaching/labs/uart-layout.md), which empties the driver's register accessors.
 *
 * The fixture tests/fixtures/uart-shift2.dts describes a plain 16550 with reg-shift 2,
 * reg-io-width 4 and a 1.8432 MHz clock; QEMU virt's own (qemu-virt-smp4.dtb) has
 * reg-shift 0 and byte access. Each goes through the kernel's FDT reader into the real
 * driver over the 16550 register model, which counts any access at the wrong offset or
 * of the wrong width as a violation. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dtb_file.h"
#include "drivers/uart/uart.h"
#include "drivers/uart/uart_16550.h"
#include "kernel/fdt/fdt.h"
#include "kernel/fdt/platform.h"
#include "uart_model.h"

#define SHIFT2_DTB    "build/host/fixtures/uart-shift2.dtb"
#define QEMU_SMP4_DTB "tests/fixtures/qemu-virt-smp4.dtb"

static struct uart_model model; /* large (the captured wire): not on the stack */

/* The UART that `path` describes, set up by the driver over a 16550 model laid out as
 * the device tree says. Returns 0 on success. */
static int setup_from(const char *path, struct platform *platform, struct uart *uart,
                      struct uart_16550 *state)
{
	void *blob = dtb_load(path);
	int status = platform_from_fdt(platform, blob, NULL);
	free(blob);
	if (status != 0)
		return status;
	uart_model_init(&model, UART_MODEL_16550, platform->uart.reg_shift,
	                platform->uart.reg_io_width, 16);
	memset(state, 0, sizeof *state);
	memset(uart, 0, sizeof *uart);
	uart_model_attach(&model, state);
	/* The kernel's default when stdout-path names no baud (QEMU's does not). */
	uint32_t baud = platform->uart.baud ? platform->uart.baud : 115200;
	return uart16550_setup(uart, state, 0, &platform->uart, baud);
}

/* Write `text` polled, run the wire, and check it came out whole and nothing was
 * accessed at a wrong offset or width. */
static void check_text_goes_out(struct uart *uart, const char *text)
{
	model.auto_wire_every = 4;
	uart_write_polled(uart, text, strlen(text));
	uart_model_drain(&model);
	CHECK_EQ_U64(model.wire_length, strlen(text));
	CHECK(memcmp(model.wire, text, strlen(text)) == 0);
	if (model.violations)
		fprintf(stderr, "  first violation: %s\n", model.violation);
	CHECK_EQ_U64(model.violations, 0);
}

static void test_shift2_layout_from_the_device_tree(void)
{
	struct platform platform;
	struct uart uart;
	struct uart_16550 state;
	CHECK(setup_from(SHIFT2_DTB, &platform, &uart, &state) == 0);
	CHECK_STR(platform.uart.compatible, "ns16550a");
	CHECK_EQ_U64(platform.uart.base, 0x1c000000);
	CHECK(platform.uart.reg_shift == 2 && platform.uart.reg_io_width == 4);
	CHECK(platform.uart.clock_hz == 1843200 && platform.uart.baud == 115200);
	/* 1843200 / (16 * 115200) = 1 exactly: the classic PC UART clock. */
	CHECK(uart.divisor == 1 && uart.baud == 115200);
	CHECK(model.dll == 1 && model.dlm == 0);
	CHECK(model.lcr == 0x03); /* 8N1, DLAB clear again */
	/* No fifo-size property and not a DesignWare UART: a 16550A's 16 bytes. */
	CHECK(uart.fifo_depth == 16);
	if (model.violations) {
		/* A driver that cannot reach LSR would wait for THRE for ever: stop here. */
		fprintf(stderr, "  setup: %u violations, first: %s\n", model.violations,
		        model.violation);
		CHECK_EQ_U64(model.violations, 0);
		return;
	}
	check_text_goes_out(&uart, "hello from register 0, 32 bits at a time\r\n");
}

static void test_qemu_layout_still_works(void)
{
	struct platform platform;
	struct uart uart;
	struct uart_16550 state;
	CHECK(setup_from(QEMU_SMP4_DTB, &platform, &uart, &state) == 0);
	CHECK(platform.uart.reg_shift == 0 && platform.uart.reg_io_width == 1);
	CHECK(uart.divisor == 2 && uart.baud == 115200); /* 3.6864 MHz / (16 * 2) */
	check_text_goes_out(&uart, "hello from register 0, a byte at a time\r\n");
}

/* Interrupt enables and identification go through the same layout: IER is register 1,
 * IIR register 2 (at byte offsets 4 and 8 here). */
static void test_shift2_interrupt_registers(void)
{
	struct platform platform;
	struct uart uart;
	struct uart_16550 state;
	CHECK(setup_from(SHIFT2_DTB, &platform, &uart, &state) == 0);
	uart.ops->set_tx_interrupt(&uart, true);
	CHECK(model.ier & 0x02);
	model.in_acknowledge = true;
	uint32_t events = uart.ops->acknowledge(&uart);
	model.in_acknowledge = false;
	CHECK(events & UART_EVENT_TX_READY);
	uart.ops->set_tx_interrupt(&uart, false);
	CHECK(!(model.ier & 0x02));
	CHECK_EQ_U64(model.violations, 0);
}

int main(void)
{
	RUN(test_shift2_layout_from_the_device_tree);
	RUN(test_qemu_layout_still_works);
	RUN(test_shift2_interrupt_registers);
	return check_summary();
}
