/* Host unit tests for the UART interface's break (uart_set_break, drivers/uart/uart.h)
 * on the 16550 / DW APB driver (drivers/uart/uart_16550.c): LCR bit 6 "Set Break"
 * [PC16550D] goes on and off with the framing and DLAB left as they were, a DW UART
 * that ignores the LCR write while busy gets it again, and a UART without the op says
 * it cannot. Against the register model of tests/host/uart_model.c. */
#include <string.h>

#include "check.h"
#include "drivers/uart/uart.h"
#include "drivers/uart/uart_16550.h"
#include "uart_model.h"

#define QEMU_CLOCK 3686400
#define D1_CLOCK   24000000
#define LCR_BREAK  0x40

static struct uart_model model;
static struct uart uart;
static struct uart_16550 state;

static void setup(enum uart_model_kind kind, const char *compatible, uint32_t shift, uint32_t width,
                  uint32_t clock, uint32_t depth)
{
	uart_model_init(&model, kind, shift, width, depth);
	memset(&state, 0, sizeof state);
	memset(&uart, 0, sizeof uart);
	uart_model_attach(&model, &state);
	struct uart_desc desc = {.present = true,
	                         .base = 0x10000000,
	                         .size = 0x100,
	                         .reg_shift = shift,
	                         .reg_io_width = width,
	                         .clock_hz = clock,
	                         .irq = 10};
	strncpy(desc.compatible, compatible, sizeof desc.compatible - 1);
	CHECK_EQ_U64(uart16550_setup(&uart, &state, 0, &desc, 115200), 0);
}

static void test_16550_break_bit(void)
{
	setup(UART_MODEL_16550, "ns16550a", 0, 1, QEMU_CLOCK, 16);
	CHECK_EQ_U64(model.lcr, 0x03);
	CHECK(uart_set_break(&uart, true));
	CHECK_EQ_U64(model.lcr, 0x03 | LCR_BREAK); /* 8N1 kept, DLAB still off */
	CHECK(uart_set_break(&uart, true));        /* twice: still on, nothing else changed */
	CHECK_EQ_U64(model.lcr, 0x03 | LCR_BREAK);
	CHECK(uart_set_break(&uart, false));
	CHECK_EQ_U64(model.lcr, 0x03);
	CHECK_EQ_U64(model.dll, 2); /* the divisor untouched */
	CHECK_EQ_U64(model.violations, 0);
}

static void test_dw_break_retried_while_busy(void)
{
	setup(UART_MODEL_DW_APB, "snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
	uint32_t writes = model.lcr_writes;
	model.drop_lcr_write_mask = 1u << writes; /* the next LCR write is ignored */
	CHECK(uart_set_break(&uart, true));
	CHECK_EQ_U64(model.lcr, 0x03 | LCR_BREAK);
	CHECK(model.lcr_writes_dropped >= 1);
	CHECK(uart_set_break(&uart, false));
	CHECK_EQ_U64(model.lcr, 0x03);
	CHECK_EQ_U64(model.violations, 0);
}

static void test_uart_without_break(void)
{
	static const struct uart_ops no_break_ops; /* every op null */
	struct uart plain = {.ops = &no_break_ops};
	CHECK(!uart_set_break(&plain, true));
}

int main(void)
{
	RUN(test_16550_break_bit);
	RUN(test_dw_break_retried_while_busy);
	RUN(test_uart_without_break);
	return check_summary();
}
