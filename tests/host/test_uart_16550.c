/* Host unit tests for the 16550-family UART driver (drivers/uart/uart_16550.c) and the
 * polled writer (drivers/uart/uart_polled.c), driven against the register-level model
 * of a 16550 and of a DW APB UART in uart_model.c. Every test ends by checking that the
 * model saw no driver violation (FCR read, TX overrun, PTIME, bad access). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "drivers/uart/uart.h"
#include "drivers/uart/uart_16550.h"
#include "uart_model.h"

#define QEMU_CLOCK 3686400  /* QEMU virt's ns16550a clock-frequency */
#define D1_CLOCK   24000000 /* Allwinner D1 UART clock */

static struct uart_model model; /* large (the captured wire): not on the stack */
static struct uart uart;
static struct uart_16550 state;

static struct uart_desc describe(const char *compatible, uint32_t reg_shift, uint32_t reg_io_width,
                                 uint32_t clock_hz, uint32_t fifo_size)
{
	struct uart_desc desc = {
	    .present = true,
	    .base = 0x10000000,
	    .size = 0x100,
	    .reg_shift = reg_shift,
	    .reg_io_width = reg_io_width,
	    .clock_hz = clock_hz,
	    .irq = 10,
	    .fifo_size = fifo_size,
	};
	strncpy(desc.compatible, compatible, sizeof desc.compatible - 1);
	return desc;
}

/* A fresh model of `kind` (FIFO depth `depth`), attached to a fresh driver state. */
static void fresh_model(enum uart_model_kind kind, uint32_t reg_shift, uint32_t reg_io_width,
                        uint32_t depth)
{
	uart_model_init(&model, kind, reg_shift, reg_io_width, depth);
	memset(&state, 0, sizeof state);
	memset(&uart, 0, sizeof uart);
	uart_model_attach(&model, &state);
}

static int setup_with(const struct uart_desc *desc, uint32_t baud)
{
	return uart16550_setup(&uart, &state, 0, desc, baud);
}

/* QEMU virt's UART at 115200. */
static void setup_qemu_16550(void)
{
	fresh_model(UART_MODEL_16550, 0, 1, 16);
	struct uart_desc desc = describe("ns16550a", 0, 1, QEMU_CLOCK, 0);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
}

/* The D1's UART0 at 115200, FIFO depth 64 given by the device tree. */
static void setup_d1_dw(void)
{
	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
}

/* ops->acknowledge as the interrupt handler calls it: the model allows register 2 reads
 * only inside it. */
static uint32_t acknowledge(void)
{
	model.in_acknowledge = true;
	uint32_t events = uart.ops->acknowledge(&uart);
	model.in_acknowledge = false;
	return events;
}

static void check_no_violations(void)
{
	CHECK_EQ_U64(model.violations, 0);
	if (model.violations)
		fprintf(stderr, "  first violation: %s\n", model.violation);
}

/* ---------------------------------------------------------------- divisor, baud, setup */

static void test_qemu_divisor_and_settings(void)
{
	setup_qemu_16550();
	CHECK_EQ_U64(uart.divisor, 2);
	CHECK_EQ_U64(uart.baud, 115200);
	CHECK_EQ_U64(uart.clock_hz, QEMU_CLOCK);
	CHECK_EQ_U64(model.dll, 2);
	CHECK_EQ_U64(model.dlm, 0);
	CHECK_EQ_U64(model.lcr, 0x03); /* 8N1, DLAB off */
	CHECK_EQ_U64(model.mcr, 0x0b); /* DTR | RTS | OUT2 */
	CHECK_EQ_U64(model.ier, 0);    /* every interrupt off */
	CHECK(model.fifo_enabled);
	CHECK_EQ_U64(model.last_fcr, 0x07); /* enabled, both FIFOs reset */
	CHECK_EQ_U64(state.fcr, 0x01);      /* the cache: the reset bits self-clear */
	CHECK_EQ_U64(uart.fifo_depth, 16);
	CHECK_EQ_U64(uart.irq, 10);
	CHECK_STR(uart.name, "ns16550a");
	CHECK(uart.hardware == &state);
	CHECK(!state.designware);
	check_no_violations();
}

/* 24 MHz / (16 * 13) = 115384.6: the driver reports what integer division gives. */
static void test_d1_divisor_and_settings(void)
{
	setup_d1_dw();
	CHECK_EQ_U64(uart.divisor, 13);
	CHECK_EQ_U64(uart.baud, 115384);
	CHECK_EQ_U64(model.dll, 13);
	CHECK_EQ_U64(model.dlm, 0);
	CHECK_EQ_U64(model.lcr, 0x03);
	CHECK_EQ_U64(model.mcr, 0x0b);
	CHECK_EQ_U64(uart.fifo_depth, 64);
	CHECK(state.designware);
	CHECK(state.has_fifo_level);
	CHECK(!state.line_settings_failed);
	CHECK_EQ_U64(state.line_control_retries, 0);
	CHECK(!model.busy_detect_pending);
	check_no_violations();
}

static void check_divisor(uint32_t clock, uint32_t baud, uint32_t divisor, uint32_t actual)
{
	fresh_model(UART_MODEL_16550, 0, 1, 16);
	struct uart_desc desc = describe("ns16550a", 0, 1, clock, 0);
	CHECK_EQ_U64(setup_with(&desc, baud), 0);
	CHECK_EQ_U64(uart.divisor, divisor);
	CHECK_EQ_U64(uart.baud, actual);
	CHECK_EQ_U64(model.dll | (uint32_t)model.dlm << 8, divisor);
	check_no_violations();
}

static void test_divisor_rounding_and_limits(void)
{
	check_divisor(1843200, 9600, 12, 9600);
	check_divisor(QEMU_CLOCK, 38400, 6, 38400);
	check_divisor(D1_CLOCK, 1500000, 1, 1500000);
	/* Nearest: 24e6 / (16 * 57600) = 26.04 -> 26, 57692 baud. */
	check_divisor(D1_CLOCK, 57600, 26, 57692);
	/* Faster than the clock allows: the fastest there is. */
	check_divisor(QEMU_CLOCK, 3000000, 1, 230400);
	/* Slower than 16 bits of divisor allow: the slowest there is (0xffff). */
	check_divisor(D1_CLOCK, 10, 0xffff, 22);
	/* A high divisor uses DLM. */
	check_divisor(D1_CLOCK, 300, 5000, 300);
}

/* No clock-frequency: the divisor firmware set stays, is reported, the baud is unknown.
 * With the clock but no baud asked for: the firmware divisor and the baud it gives. */
static void test_firmware_divisor_kept(void)
{
	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.dll = 13;
	struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, 0, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK_EQ_U64(uart.divisor, 13);
	CHECK_EQ_U64(uart.baud, 0);
	CHECK_EQ_U64(model.dll, 13);
	CHECK_EQ_U64(model.divisor_writes_dropped, 0);
	CHECK_EQ_U64(model.lcr, 0x03);
	check_no_violations();

	fresh_model(UART_MODEL_16550, 0, 1, 16);
	model.dll = 2;
	desc = describe("ns16550a", 0, 1, QEMU_CLOCK, 0);
	CHECK_EQ_U64(setup_with(&desc, 0), 0);
	CHECK_EQ_U64(uart.divisor, 2);
	CHECK_EQ_U64(uart.baud, 115200);
	CHECK_EQ_U64(model.dll, 2);
	check_no_violations();

	/* Firmware left no divisor at all: nothing to divide by. */
	fresh_model(UART_MODEL_16550, 0, 1, 16);
	CHECK_EQ_U64(setup_with(&desc, 0), 0);
	CHECK_EQ_U64(uart.divisor, 0);
	CHECK_EQ_U64(uart.baud, 0);
	check_no_violations();
}

static void test_unusable_descriptions_refused(void)
{
	const uint32_t widths[] = {0, 2, 3, 8};
	for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
		fresh_model(UART_MODEL_16550, 0, 1, 16);
		struct uart_desc desc = describe("ns16550a", 0, widths[i], QEMU_CLOCK, 0);
		CHECK(setup_with(&desc, 115200) < 0);
		CHECK_EQ_U64(model.accesses, 0); /* refused before touching anything */
	}
	fresh_model(UART_MODEL_16550, 0, 1, 16);
	struct uart_desc desc = describe("ns16550a", 9, 1, QEMU_CLOCK, 0);
	CHECK(setup_with(&desc, 115200) < 0);
	CHECK_EQ_U64(model.accesses, 0);
}

/* Register n at n << reg-shift, reg-io-width wide: the model rejects anything else. */
static void test_addressing_shift_and_width(void)
{
	const struct {
		enum uart_model_kind kind;
		const char *compatible;
		uint32_t shift, width;
	} layouts[] = {
	    {UART_MODEL_16550, "ns16550a", 0, 1},
	    {UART_MODEL_16550, "ns16550a", 2, 1},
	    {UART_MODEL_16550, "ns16550a", 2, 4},
	    {UART_MODEL_16550, "ns16550a", 1, 1},
	    {UART_MODEL_DW_APB, "snps,dw-apb-uart", 2, 4},
	    {UART_MODEL_DW_APB, "snps,dw-apb-uart", 0, 1},
	};
	for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
		fresh_model(layouts[i].kind, layouts[i].shift, layouts[i].width, 16);
		struct uart_desc desc = describe(layouts[i].compatible, layouts[i].shift,
		                                 layouts[i].width, QEMU_CLOCK, 0);
		CHECK_EQ_U64(setup_with(&desc, 115200), 0);
		CHECK_EQ_U64(model.dll, 2);
		CHECK_EQ_U64(model.lcr, 0x03);
		uart_write_polled(&uart, "hi", 2);
		uart_model_drain(&model);
		CHECK_EQ_U64(model.wire_length, 2);
		CHECK(memcmp(model.wire, "hi", 2) == 0);
		check_no_violations();
	}
}

/* The default MMIO accessors over plain memory: values land at n << reg-shift, written
 * exactly reg-io-width wide. */
static void test_mmio_accessors(void)
{
	struct uart_desc desc;

	uint8_t narrow[8] = {0};
	narrow[5] = 0x60; /* LSR: THRE | TEMT, so setup does not wait */
	memset(&state, 0, sizeof state);
	desc = describe("ns16550a", 0, 1, QEMU_CLOCK, 0);
	CHECK_EQ_U64(uart16550_setup(&uart, &state, narrow, &desc, 115200), 0);
	CHECK_EQ_U64(narrow[0], 2);    /* DLL (the last write to register 0) */
	CHECK_EQ_U64(narrow[1], 0);    /* IER / DLM */
	CHECK_EQ_U64(narrow[2], 0x07); /* FCR */
	CHECK_EQ_U64(narrow[3], 0x03); /* LCR */
	CHECK_EQ_U64(narrow[4], 0x0b); /* MCR */

	uint8_t spread[32];
	memset(spread, 0xee, sizeof spread);
	spread[5 << 2] = 0x60;
	memset(&state, 0, sizeof state);
	desc = describe("ns16550a", 2, 1, QEMU_CLOCK, 0);
	CHECK_EQ_U64(uart16550_setup(&uart, &state, spread, &desc, 115200), 0);
	CHECK_EQ_U64(spread[0], 2);
	CHECK_EQ_U64(spread[3 << 2], 0x03);
	CHECK_EQ_U64(spread[4 << 2], 0x0b);
	for (int i = 0; i < 32; i++) {
		if (i % 4 != 0)
			CHECK_EQ_U64(spread[i], 0xee); /* nothing between the registers */
	}

	static uint32_t wide[64];
	for (int i = 0; i < 64; i++)
		wide[i] = 0xaaaaaa00u; /* a byte-wide write would leave the top bytes */
	wide[5] = 0x60;
	wide[31] = 0x04; /* USR: not busy, TX FIFO empty */
	wide[61] = 0;    /* CPR: not built in */
	memset(&state, 0, sizeof state);
	desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 0);
	CHECK_EQ_U64(uart16550_setup(&uart, &state, wide, &desc, 115200), 0);
	CHECK_EQ_U64(wide[0], 13);
	/* Memory keeps IER bit 7 as written, so PTIME "sticks" (state.ptime_capable), but
	 * setup clears it again: IER 0, FCR as setup wrote it, no threshold. */
	CHECK(state.ptime_capable);
	CHECK_EQ_U64(wide[1], 0);
	CHECK_EQ_U64(wide[2], 0x07);
	CHECK_EQ_U64(uart.tx_threshold, 0);
	/* As the sole driver: threshold mode, FCR with the TX empty trigger at 1/4 full,
	 * IER PTIME alone (no interrupt enabled). */
	uart_set_sole_driver(&uart, true);
	CHECK_EQ_U64(wide[1], 0x80);
	CHECK_EQ_U64(wide[2], 0x21);
	CHECK_EQ_U64(uart.tx_threshold, 4);
	CHECK_EQ_U64(wide[3], 0x03);
	CHECK_EQ_U64(wide[4], 0x0b);
	CHECK(state.has_fifo_level);
	CHECK_EQ_U64(uart.fifo_depth, 16); /* no fifo-size, no CPR: the 16550A default */
	uart.ops->put_bytes(&uart, (const uint8_t *)"A", 1);
	CHECK_EQ_U64(wide[0], 'A');
}

static void test_fifo_depth_sources(void)
{
	struct uart_desc desc;

	fresh_model(UART_MODEL_16550, 0, 1, 16);
	desc = describe("ns16550a", 0, 1, QEMU_CLOCK, 0);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK_EQ_U64(uart.fifo_depth, 16); /* the 16550A's */

	fresh_model(UART_MODEL_16550, 0, 1, 64);
	desc = describe("ns16550a", 0, 1, QEMU_CLOCK, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK_EQ_U64(uart.fifo_depth, 64); /* DT fifo-size */

	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.dw_cpr = 0x00040000 | (1u << 10); /* FIFO_MODE 4 (64 bytes), FIFO_STAT */
	desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 0);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK_EQ_U64(uart.fifo_depth, 64); /* DW CPR */

	fresh_model(UART_MODEL_DW_APB, 2, 4, 256);
	model.dw_cpr = 0x00040000;
	desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 256);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK_EQ_U64(uart.fifo_depth, 256); /* DT fifo-size wins */

	fresh_model(UART_MODEL_DW_APB, 2, 4, 16);
	desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 0);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK_EQ_U64(uart.fifo_depth, 16); /* neither: the default */
	check_no_violations();
}

/* ---------------------------------------------------------------- transmit */

static void test_tx_room_follows_thre(void)
{
	setup_qemu_16550();
	CHECK_EQ_U64(uart.ops->tx_room(&uart), 16);
	CHECK(uart.ops->tx_idle(&uart));
	uart.ops->put_bytes(&uart, (const uint8_t *)"abc", 3);
	CHECK_EQ_U64(uart.ops->tx_room(&uart), 0); /* THRE clear: not one more byte */
	CHECK(!uart.ops->tx_idle(&uart));
	uart_model_run_wire(&model, 3); /* "c" now in the shift register */
	CHECK_EQ_U64(uart.ops->tx_room(&uart), 16);
	CHECK(!uart.ops->tx_idle(&uart)); /* THRE without TEMT */
	uart_model_run_wire(&model, 1);
	CHECK(uart.ops->tx_idle(&uart));
	CHECK_EQ_U64(model.wire_length, 3);
	check_no_violations();
}

/* put_each_byte (polling,byte): room looked for before every byte, so on a 16550, whose
 * THRE means "FIFO empty", one byte per look; the generic loop over tx_room/put_bytes
 * (uart_put_each_byte without the op, as over the line model) does the same. */
static void test_put_each_byte_looks_before_every_byte(void)
{
	for (int generic = 0; generic < 2; generic++) {
		setup_qemu_16550();
		struct uart_ops ops = *uart.ops;
		if (generic)
			ops.put_each_byte = 0;
		uart.ops = &ops;
		CHECK_EQ_U64(uart_put_each_byte(&uart, (const uint8_t *)"abc", 3), 1);
		CHECK_EQ_U64(uart_put_each_byte(&uart, (const uint8_t *)"bc", 2), 0);
		uart_model_run_wire(&model, 1); /* "a" to the shift register: THRE again */
		CHECK_EQ_U64(uart_put_each_byte(&uart, (const uint8_t *)"bc", 2), 1);
		uart_model_run_wire(&model, 1);
		CHECK_EQ_U64(uart_put_each_byte(&uart, (const uint8_t *)"c", 1), 1);
		uart_model_drain(&model);
		CHECK_EQ_U64(model.wire_length, 3);
		CHECK(memcmp(model.wire, "abc", 3) == 0);
		check_no_violations();
	}
	/* DW with TFL: room is the free FIFO space, so a run of bytes goes at once. */
	setup_d1_dw();
	uint8_t bytes[70];
	memset(bytes, 'x', sizeof bytes);
	CHECK_EQ_U64(uart_put_each_byte(&uart, bytes, 70), 64);
	check_no_violations();
}

/* DW with FIFO status: TFL tells the exact fill, so room is what is left. */
static void test_tx_room_from_dw_fifo_level(void)
{
	setup_d1_dw();
	CHECK_EQ_U64(uart.ops->tx_room(&uart), 64);
	uint8_t bytes[10] = {0};
	uart.ops->put_bytes(&uart, bytes, 10);
	CHECK_EQ_U64(uart.ops->tx_room(&uart), 54);
	uart_model_run_wire(&model, 4);
	/* 3 sent, 1 in the shift register, 6 still queued. */
	CHECK_EQ_U64(uart.ops->tx_room(&uart), 58);
	check_no_violations();

	/* Built without FIFO status: TFL reads 0, so the driver must not trust it. */
	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.dw_fifo_status = false;
	struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK(!state.has_fifo_level);
	uart.ops->put_bytes(&uart, bytes, 10);
	CHECK_EQ_U64(uart.ops->tx_room(&uart), 0);
	check_no_violations();
}

static void check_polled_write(size_t length)
{
	uint8_t *pattern = malloc(length);
	for (size_t i = 0; i < length; i++)
		pattern[i] = (uint8_t)(i * 7 + i / 251);
	uart_write_polled(&uart, (const char *)pattern, length);
	uart_model_drain(&model);
	CHECK_EQ_U64(model.wire_length, length);
	CHECK(memcmp(model.wire, pattern, length) == 0);
	CHECK(model.max_tx_fill <= model.fifo_depth);
	free(pattern);
}

/* The wire moves one character every few register accesses, as if time passed while
 * the CPU polled: the writer must wait for room and never overrun the FIFO. */
static void test_polled_write_byte_exact_without_overrun(void)
{
	setup_qemu_16550();
	model.auto_wire_every = 3;
	check_polled_write(100000);
	/* Many bytes per THRE, not one (the wire drains a few while the FIFO is loaded). */
	CHECK(model.max_tx_fill > 8);
	check_no_violations();

	setup_d1_dw();
	model.auto_wire_every = 2;
	check_polled_write(100000);
	CHECK(model.max_tx_fill > 16);
	check_no_violations();

	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.dw_fifo_status = false;
	struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	model.auto_wire_every = 5;
	check_polled_write(50000);
	check_no_violations();

	/* A slow wire (one character per 40 accesses) and an empty write. */
	setup_qemu_16550();
	model.auto_wire_every = 40;
	check_polled_write(3000);
	uint32_t before = model.accesses;
	uart_write_polled(&uart, "", 0);
	CHECK_EQ_U64(model.accesses, before);
	check_no_violations();
}

/* ---------------------------------------------------------------- receive and errors */

static void test_rx_bytes_in_order(void)
{
	setup_qemu_16550();
	CHECK(!uart.ops->rx_ready(&uart));
	const char *text = "hello";
	for (int i = 0; text[i]; i++)
		uart_model_receive(&model, (uint8_t)text[i], 0);
	char got[8] = {0};
	int count = 0;
	while (uart.ops->rx_ready(&uart) && count < 7) {
		uint8_t errors = 0xff;
		got[count++] = (char)uart.ops->get_byte(&uart, &errors);
		CHECK_EQ_U64(errors, 0);
	}
	CHECK_STR(got, "hello");
	check_no_violations();
}

/* A TX-side LSR read (tx_room, tx_idle) clears the error bits in the hardware: the
 * driver must keep them and give them out with the byte. */
static void test_errors_from_tx_side_reads_reach_get_byte(void)
{
	setup_qemu_16550();
	uart_model_receive(&model, 'a', UART_ERROR_FRAMING);
	uart_model_receive(&model, 'b', 0);
	uart.ops->tx_room(&uart);
	CHECK_EQ_U64(model.lsr_errors, 0); /* gone from the hardware... */
	uint8_t errors = 0;
	CHECK(uart.ops->rx_ready(&uart));
	CHECK_EQ_U64(uart.ops->get_byte(&uart, &errors), 'a');
	CHECK_EQ_U64(errors, UART_ERROR_FRAMING); /* ...but not lost */
	CHECK_EQ_U64(uart.ops->get_byte(&uart, &errors), 'b');
	CHECK_EQ_U64(errors, 0);

	uart_model_receive(&model, 'c', UART_ERROR_PARITY);
	uart.ops->tx_idle(&uart);
	CHECK_EQ_U64(uart.ops->get_byte(&uart, &errors), 'c');
	CHECK_EQ_U64(errors, UART_ERROR_PARITY);

	uart_model_receive(&model, 0, UART_ERROR_BREAK);
	CHECK_EQ_U64(uart.ops->get_byte(&uart, &errors), 0);
	CHECK_EQ_U64(errors, UART_ERROR_BREAK);

	/* A NULL errors pointer is allowed; the bits are consumed all the same. */
	uart_model_receive(&model, 'd', UART_ERROR_FRAMING);
	CHECK_EQ_U64(uart.ops->get_byte(&uart, 0), 'd');
	uart_model_receive(&model, 'e', 0);
	CHECK_EQ_U64(uart.ops->get_byte(&uart, &errors), 'e');
	CHECK_EQ_U64(errors, 0);
	check_no_violations();
}

static void test_rx_overrun_reported(void)
{
	setup_d1_dw();
	for (int i = 0; i < 70; i++)
		uart_model_receive(&model, (uint8_t)i, 0); /* 64 fit, 6 are lost */
	uart.ops->tx_room(&uart);                          /* DW with TFL: no LSR read... */
	uart.ops->tx_idle(&uart);                          /* ...but this one reads LSR */
	uint8_t errors = 0;
	CHECK(uart.ops->rx_ready(&uart));
	CHECK_EQ_U64(uart.ops->get_byte(&uart, &errors), 0);
	CHECK_EQ_U64(errors, UART_ERROR_OVERRUN);
	int count = 1;
	while (uart.ops->rx_ready(&uart)) {
		CHECK_EQ_U64(uart.ops->get_byte(&uart, &errors), count);
		CHECK_EQ_U64(errors, 0);
		count++;
	}
	CHECK_EQ_U64(count, 64);
	check_no_violations();
}

/* ---------------------------------------------------------------- interrupts */

static void test_acknowledge_maps_each_cause(void)
{
	setup_qemu_16550();
	CHECK_EQ_U64(acknowledge(), 0); /* IIR 0x1: nothing pending */

	uart.ops->set_rx_interrupt(&uart, true);
	CHECK_EQ_U64(model.ier, 0x05); /* ERBFI | ELSI */

	uart_model_receive(&model, 'x', 0); /* 0x4 received data */
	CHECK_EQ_U64(acknowledge(), UART_EVENT_RX_READY);
	CHECK_EQ_U64(uart.ops->get_byte(&uart, 0), 'x');
	CHECK_EQ_U64(acknowledge(), 0);

	uart_model_receive(&model, 'y', 0); /* 0xC character timeout */
	model.timeout_pending = true;
	CHECK_EQ_U64(uart_model_interrupt_id(&model), 0x0c);
	CHECK_EQ_U64(acknowledge(), UART_EVENT_RX_READY);
	CHECK_EQ_U64(uart.ops->get_byte(&uart, 0), 'y');
	CHECK_EQ_U64(acknowledge(), 0);

	uart_model_receive(&model, 'z', UART_ERROR_PARITY); /* 0x6 line status first */
	CHECK_EQ_U64(acknowledge(), UART_EVENT_LINE | UART_EVENT_RX_READY);
	CHECK_EQ_U64(model.lsr_errors, 0); /* the LSR read cleared it */
	uint8_t errors = 0;
	CHECK_EQ_U64(uart.ops->get_byte(&uart, &errors), 'z');
	CHECK_EQ_U64(errors, UART_ERROR_PARITY);
	CHECK_EQ_U64(acknowledge(), 0);

	uart.ops->set_tx_interrupt(&uart, true); /* 0x2 THR empty: raised on enabling */
	CHECK_EQ_U64(model.ier, 0x07);
	CHECK_EQ_U64(acknowledge(), UART_EVENT_TX_READY);
	/* Swallowed THRE: the IIR read cleared it although the FIFO is still empty. */
	CHECK_EQ_U64(acknowledge(), 0);
	CHECK_EQ_U64(uart.ops->tx_room(&uart), 16);
	uart.ops->put_bytes(&uart, (const uint8_t *)"q", 1);
	uart_model_run_wire(&model, 1); /* FIFO empties: THRE again */
	CHECK_EQ_U64(acknowledge(), UART_EVENT_TX_READY);
	uart.ops->set_tx_interrupt(&uart, false);
	CHECK_EQ_U64(model.ier, 0x05);
	uart.ops->set_rx_interrupt(&uart, false);
	CHECK_EQ_U64(model.ier, 0);

	model.ier = 0x08; /* 0x0 modem status (the driver never enables it itself) */
	model.msr = 0x11; /* CTS with its delta */
	CHECK_EQ_U64(acknowledge(), UART_EVENT_OTHER);
	CHECK_EQ_U64(model.msr, 0x10); /* the MSR read cleared the delta */
	CHECK_EQ_U64(acknowledge(), 0);
	check_no_violations();
}

static void test_acknowledge_dw_busy_detect(void)
{
	setup_d1_dw();
	uint32_t usr_reads = model.usr_reads;
	model.busy_detect_pending = true; /* as after an LCR write that met a busy UART */
	CHECK_EQ_U64(acknowledge(), UART_EVENT_OTHER);
	CHECK(!model.busy_detect_pending); /* cleared by the USR read */
	CHECK_EQ_U64(model.usr_reads, usr_reads + 1);
	CHECK_EQ_U64(acknowledge(), 0);

	/* Lower priority than RX data: each cause in turn. */
	uart.ops->set_rx_interrupt(&uart, true);
	model.busy_detect_pending = true;
	uart_model_receive(&model, 'r', 0);
	CHECK_EQ_U64(acknowledge(), UART_EVENT_RX_READY);
	uart.ops->get_byte(&uart, 0);
	CHECK_EQ_U64(acknowledge(), UART_EVENT_OTHER);
	CHECK_EQ_U64(acknowledge(), 0);
	check_no_violations();
}

/* The DW quirk of dw8250_handle_irq: a character timeout with the RX FIFO empty, which
 * only an RBR read clears. The backend finds no data and reads nothing, so without the
 * driver's own RBR read the interrupt would be asserted for ever. */
static void test_dw_rx_timeout_with_empty_fifo(void)
{
	setup_d1_dw();
	uart.ops->set_rx_interrupt(&uart, true);
	model.dw_rx_timeout_stuck = true;
	CHECK_EQ_U64(uart_model_interrupt_id(&model), 0x0c);
	/* What the interrupt handler does: acknowledge until nothing is pending, reading
	 * whatever the events say is there (bounded: the storm without the fix). */
	uint32_t calls = 0;
	for (uint32_t events; calls < 100 && (events = acknowledge()) != 0; calls++) {
		while ((events & UART_EVENT_RX_READY) && uart.ops->rx_ready(&uart))
			uart.ops->get_byte(&uart, 0);
	}
	CHECK_EQ_U64(calls, 1);
	CHECK_EQ_U64(uart_model_interrupt_id(&model), 0x01);
	CHECK_EQ_U64(model.rbr_reads, 1);

	/* A real timeout, data waiting: the driver reads nothing itself, no byte is lost. */
	uart_model_receive(&model, 'y', 0);
	model.timeout_pending = true;
	uint32_t rbr_reads = model.rbr_reads;
	CHECK_EQ_U64(acknowledge(), UART_EVENT_RX_READY);
	CHECK_EQ_U64(model.rbr_reads, rbr_reads);
	CHECK_EQ_U64(uart.ops->get_byte(&uart, 0), 'y');
	CHECK_EQ_U64(acknowledge(), 0);

	check_no_violations();
}

/* A plain 16550 has no such quirk: its timeout path reads nothing. */
static void test_16550_rx_timeout_reads_nothing_itself(void)
{
	setup_qemu_16550();
	uart.ops->set_rx_interrupt(&uart, true);
	uart_model_receive(&model, 'q', 0);
	model.timeout_pending = true;
	uint32_t rbr_reads = model.rbr_reads;
	CHECK_EQ_U64(acknowledge(), UART_EVENT_RX_READY);
	CHECK_EQ_U64(model.rbr_reads, rbr_reads);
	CHECK_EQ_U64(uart.ops->get_byte(&uart, 0), 'q');
	check_no_violations();
}

/* The D1's UART0 built with THRE_MODE_USER: setup turns on PTIME with the TX empty
 * trigger at 1/4 full. The TX interrupt then comes at 16 bytes queued, not at empty;
 * tx_room (from TFL) is the free space; a refilling handler sends a long transfer in
 * loads of 48 without the FIFO ever running dry and never overruns it. */
static void test_dw_threshold_mode(void)
{
	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.dw_thre_mode_user = true;
	struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK(state.ptime_capable);
	CHECK(!state.ptime); /* off until the async backend takes over */
	CHECK_EQ_U64(uart.tx_threshold, 0);
	CHECK_EQ_U64(model.ier, 0);
	uart_set_sole_driver(&uart, true);
	CHECK(state.ptime);
	CHECK_EQ_U64(uart.tx_threshold, 16);
	CHECK_EQ_U64(model.last_fcr & 0x31, 0x21); /* FIFOs on, TET = 10: 1/4 full */
	CHECK_EQ_U64(model.ier, 0x80);             /* PTIME, no interrupt enabled */
	CHECK_EQ_U64(uart_model_tx_threshold(&model), 16);
	uart.ops->set_rx_interrupt(&uart, true);
	CHECK_EQ_U64(model.ier, 0x85); /* PTIME kept through every IER write */

	static uint8_t bytes[256];
	CHECK_EQ_U64(uart.ops->tx_room(&uart), 64);
	uart.ops->put_bytes(&uart, bytes, 64);
	uart.ops->set_tx_interrupt(&uart, true);
	CHECK_EQ_U64(acknowledge(), 0);  /* 64 queued: above the threshold */
	uart_model_run_wire(&model, 47); /* 17 left in the FIFO */
	CHECK_EQ_U64(acknowledge(), 0);
	uart_model_run_wire(&model, 1); /* 16: at the threshold */
	CHECK_EQ_U64(uart.ops->tx_room(&uart), 48);
	CHECK_EQ_U64(acknowledge(), UART_EVENT_TX_READY);
	CHECK_EQ_U64(acknowledge(), 0); /* the IIR read cleared it */

	/* A stream: the handler refills whatever tx_room allows at each interrupt. */
	uint32_t backlog = 4800 - 64 - 48, interrupts = 1, min_fill = 64;
	uart.ops->put_bytes(&uart, bytes, 48);
	while (backlog > 0 || model.tx_count > 0) {
		uart_model_run_wire(&model, 1);
		if (model.tx_count < min_fill && backlog > 0)
			min_fill = model.tx_count;
		if (uart_model_interrupt_id(&model) != 0x02)
			continue;
		CHECK_EQ_U64(acknowledge(), UART_EVENT_TX_READY);
		interrupts++;
		uint32_t room = uart.ops->tx_room(&uart);
		uint32_t count = backlog < room ? backlog : room;
		uart.ops->put_bytes(&uart, bytes, count);
		backlog -= count;
		if (count == 0)
			uart.ops->set_tx_interrupt(&uart, false);
	}
	uart_model_drain(&model);
	CHECK_EQ_U64(model.wire_length, 4800);
	CHECK_EQ_U64(interrupts, (4800 - 64 + 47) / 48 + 1); /* loads of 48, then "none" */
	CHECK_EQ_U64(min_fill, 16);                          /* never dry while bytes wait */
	CHECK(model.max_tx_fill <= 64);
	/* Polled output over TFL works with PTIME on (LSR.THRE now means "full"). */
	model.wire_length = 0;
	model.max_tx_fill = 0;
	model.auto_wire_every = 2;
	check_polled_write(10000);
	check_no_violations();

	/* Built without THRE_MODE_USER: PTIME does not stick, and the driver stays with
	 * THRE at empty even as the sole driver. */
	setup_d1_dw();
	uart_set_sole_driver(&uart, true);
	CHECK(!state.ptime_capable);
	CHECK(!state.ptime);
	CHECK_EQ_U64(uart.tx_threshold, 0);
	CHECK_EQ_U64(model.last_fcr & 0x30, 0);
	/* Without FIFO status (no TFL) PTIME is never tried (the model would complain). */
	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.dw_thre_mode_user = true;
	model.dw_fifo_status = false;
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	uart_set_sole_driver(&uart, true);
	CHECK_EQ_U64(uart.tx_threshold, 0);
	check_no_violations();
	/* A 16550 never: bits 4-5 of its FCR are reserved. */
	setup_qemu_16550();
	uart_set_sole_driver(&uart, true);
	CHECK_EQ_U64(uart.tx_threshold, 0);
	CHECK_EQ_U64(model.last_fcr & 0x30, 0);
	check_no_violations();
}

/* A firmware console's putc, as OpenSBI's uart8250_putc (lib/utils/serial/uart8250.c)
 * is written: wait until LSR.THRE is set, then write THR. The wire runs meanwhile
 * (auto_wire_every). Gives up after `patience` LSR reads and returns false: on the
 * board it would spin in M-mode for ever. */
static bool firmware_putc(uint8_t byte, uint32_t patience)
{
	for (uint32_t read = 0; read < patience; read++) {
		uint32_t lsr =
		    state.read_register(&state, 5u << model.reg_shift, model.reg_io_width);
		if (lsr & 0x20) { /* THRE [PC16550D, LSR bit 5] */
			state.write_register(&state, 0, model.reg_io_width, byte);
			return true;
		}
	}
	return false;
}

#define FIRMWARE_PATIENCE 1000000 /* LSR reads: the measurement, 10^6 */

/* The firmware console after a driver step: three bytes, each must go out. */
static void check_firmware_console_works(const char *after)
{
	bool sent = true;
	for (int i = 0; i < 3 && sent; i++)
		sent = firmware_putc((uint8_t)('0' + i), FIRMWARE_PATIENCE);
	if (!sent)
		fprintf(stderr,
		        "  firmware THRE-polling putc still spinning after %d LSR reads, "
		        "after %s (IER %#x)\n",
		        FIRMWARE_PATIENCE, after, model.ier);
	CHECK(sent);
}

/* Issue #27's first fault: on the D1's UART0 built with THRE_MODE_USER (PTIME writable),
 * every driver entry point the boot order reaches before the async backend takes over
 * (setup, the polled log, set_baud, the interrupt enables a polling console makes), and
 * every hand-back after it (the async backend's stop on a fallback to polling, the SBI
 * hook before power-off or panic), leaves a THRE-polling firmware putc working. With
 * PTIME on and the FIFOs enabled THRE means "FIFO full", so it would spin for ever. */
static void test_firmware_putc_after_every_boot_step(void)
{
	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.dw_thre_mode_user = true;
	model.auto_wire_every = 2;
	struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK(state.ptime_capable);
	check_firmware_console_works("uart16550_setup (the \"UART up\" breadcrumb)");
	uart_write_polled(&uart, "early log\n", 10);
	check_firmware_console_works("uart_write_polled (the early log)");
	CHECK_EQ_U64(uart.ops->set_baud(&uart, 57600), 57692);
	CHECK_EQ_U64(uart.ops->set_baud(&uart, 115200), 115384);
	check_firmware_console_works("set_baud");
	uart.ops->set_rx_interrupt(&uart, true);
	uart.ops->set_tx_interrupt(&uart, true);
	uart.ops->set_tx_interrupt(&uart, false);
	check_firmware_console_works("set_rx_interrupt / set_tx_interrupt");
	uart.ops->tx_room(&uart);
	uart.ops->tx_idle(&uart);
	uart_model_receive(&model, 'k', 0);
	acknowledge();
	if (uart.ops->rx_ready(&uart))
		uart.ops->get_byte(&uart, 0);
	check_firmware_console_works("tx_room, tx_idle, acknowledge, rx_ready, get_byte");
	uart_set_sole_driver(&uart, false);
	check_firmware_console_works("set_sole_driver(false) before any takeover");

	/* The async backend takes over: threshold mode on, the firmware is not used. */
	uart_set_sole_driver(&uart, true);
	CHECK(state.ptime);
	CHECK_EQ_U64(uart.tx_threshold, 16);
	uart.ops->set_tx_interrupt(&uart, true);
	uart.ops->put_bytes(&uart, (const uint8_t *)"async", 5);
	/* ... and hands back (its stop on a fallback, or the SBI hook at power-off). */
	uart_set_sole_driver(&uart, false);
	CHECK(!state.ptime);
	CHECK_EQ_U64(uart.tx_threshold, 0);
	CHECK_EQ_U64(model.ier & 0x80, 0);
	CHECK_EQ_U64(model.ier & 0x02, 0x02); /* the interrupt enables stay as they were */
	CHECK_EQ_U64(model.last_fcr & 0x30, 0);
	check_firmware_console_works("set_sole_driver(false) after the takeover");
	uart.ops->set_rx_interrupt(&uart, false);
	uart.ops->set_tx_interrupt(&uart, false);
	uart_write_polled(&uart, "polling again\n", 14);
	check_firmware_console_works("the fallback to polling");
	uart_model_drain(&model);
	check_no_violations();
}

/* IER bit 7 is PTIME on DW: never set unless setup chose threshold mode, even if the
 * cache were to hold it. */
static void test_ptime_never_set(void)
{
	setup_d1_dw();
	for (int i = 0; i < 4; i++) {
		uart.ops->set_tx_interrupt(&uart, i & 1);
		uart.ops->set_rx_interrupt(&uart, i & 2);
		CHECK_EQ_U64(model.ier & 0x80, 0);
	}
	state.ier = 0xff;
	uart.ops->set_tx_interrupt(&uart, true);
	CHECK_EQ_U64(model.ier, 0x0f);
	uart.ops->set_rx_interrupt(&uart, false);
	CHECK_EQ_U64(model.ier, 0x0a);
	check_no_violations();
}

/* FCR is write-only: no operation outside acknowledge reads register 2. */
static void test_fcr_never_read(void)
{
	setup_d1_dw();
	uart_model_receive(&model, 'a', UART_ERROR_FRAMING);
	uart.ops->tx_room(&uart);
	uart.ops->put_bytes(&uart, (const uint8_t *)"xyz", 3);
	uart.ops->tx_idle(&uart);
	uart.ops->rx_ready(&uart);
	uart.ops->get_byte(&uart, 0);
	uart.ops->set_tx_interrupt(&uart, true);
	uart.ops->set_rx_interrupt(&uart, true);
	uart_write_polled(&uart, "0123456789", 10);
	CHECK_EQ_U64(model.iir_reads, 0);
	check_no_violations();

	/* And the model does catch such a read (what the reverted Linux patch did). */
	model.quiet = true;
	state.read_register(&state, 2 << 2, 4);
	CHECK_EQ_U64(model.violations, 1);
}

static void test_model_catches_overrun(void)
{
	setup_qemu_16550();
	uint8_t bytes[17] = {0};
	model.quiet = true;
	uart.ops->put_bytes(&uart, bytes, 17); /* one more than tx_room allowed */
	CHECK_EQ_U64(model.violations, 1);
}

/* ---------------------------------------------------------------- DW busy and LCR */

/* BUSY for a while: the driver waits on USR before writing LCR and the divisor. */
static void test_dw_waits_while_busy(void)
{
	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.busy_usr_reads = 50;
	struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK_EQ_U64(model.lcr, 0x03);
	CHECK_EQ_U64(model.dll, 13);
	CHECK_EQ_U64(model.lcr_writes_dropped, 0);
	CHECK_EQ_U64(uart.divisor, 13);
	CHECK(!state.line_settings_failed);
	CHECK(!model.busy_detect_pending);
	check_no_violations();
}

/* BUSY came back between the USR read and the write: the write is dropped, the readback
 * catches it and the driver writes again. */
static void test_dw_lcr_retry(void)
{
	const uint32_t masks[] = {0x1, 0x3, 0x2, 0x7, 0x5};
	for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
		fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
		model.drop_lcr_write_mask = masks[i];
		struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
		CHECK_EQ_U64(setup_with(&desc, 115200), 0);
		CHECK_EQ_U64(model.lcr, 0x03); /* final LCR right: 8N1, DLAB off */
		CHECK_EQ_U64(model.dll, 13);
		CHECK_EQ_U64(model.dlm, 0);
		CHECK_EQ_U64(model.lcr_writes_dropped, (uint64_t)__builtin_popcount(masks[i]));
		CHECK_EQ_U64(state.line_control_retries, model.lcr_writes_dropped);
		CHECK_EQ_U64(uart.divisor, 13);
		CHECK_EQ_U64(uart.baud, 115384);
		CHECK(!state.line_settings_failed);
		CHECK(!model.busy_detect_pending); /* a later USR read cleared it */
		check_no_violations();
	}
}

/* DLL writes are ignored while busy too: read back and retried. */
static void test_dw_divisor_retry(void)
{
	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.drop_divisor_write_mask = 0x3;
	struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK_EQ_U64(model.dll, 13);
	CHECK_EQ_U64(model.lcr, 0x03);
	CHECK_EQ_U64(uart.divisor, 13);
	CHECK_EQ_U64(state.line_control_retries, 2);
	CHECK(!state.line_settings_failed);
	check_no_violations();
}

/* A DW UART built with PSLVERR_RESP_EN: the force-idle path of the LCR retry must not
 * read an empty RBR with the FIFOs on (dw8250_force_idle's guard); with data waiting it
 * still reads it, which is what lets BUSY fall. */
static void test_dw_force_idle_guards_rbr(void)
{
	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.dw_pslverr = true;
	model.drop_lcr_write_mask = 0x5; /* two retries, each through force idle */
	struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK_EQ_U64(state.line_control_retries, 2);
	CHECK_EQ_U64(model.rbr_reads, 0);
	CHECK_EQ_U64(model.lcr, 0x03);
	CHECK_EQ_U64(uart.divisor, 13);
	CHECK(model.fifo_enabled);
	check_no_violations();

	/* The model does catch the unguarded read. */
	model.quiet = true;
	state.read_register(&state, 0, 4);
	CHECK_EQ_U64(model.violations, 1);
}

/* Never idle: setup gives up in bounded time. With DLAB clear the UART still works at
 * firmware's settings; left with DLAB set it is unusable and setup says so. */
static void test_dw_stuck_busy(void)
{
	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.stuck_busy = true;
	model.lcr = 0x03;
	model.dll = 13;
	struct uart_desc desc = describe("snps,dw-apb-uart", 2, 4, D1_CLOCK, 64);
	CHECK_EQ_U64(setup_with(&desc, 115200), 0);
	CHECK(state.line_settings_failed);
	CHECK_EQ_U64(model.lcr, 0x03);
	CHECK_EQ_U64(uart.divisor, 0); /* not known */
	CHECK_EQ_U64(uart.baud, 0);
	CHECK(!model.busy_detect_pending);
	check_no_violations();

	fresh_model(UART_MODEL_DW_APB, 2, 4, 64);
	model.stuck_busy = true;
	model.lcr = 0x83;
	CHECK_EQ_U64(setup_with(&desc, 115200), -2);
	check_no_violations();
}

/* ops->set_baud: a new divisor through DLAB, the rest of the line left as it was; a rate
 * the clock cannot make within 2 % is refused untouched; a DW UART that stays busy
 * keeps the old divisor and says so. */
static void test_set_baud(void)
{
	setup_qemu_16550();
	uart.ops->set_tx_interrupt(&uart, true);
	uint8_t ier = model.ier;
	CHECK_EQ_U64(uart.ops->set_baud(&uart, 9600), 9600);
	CHECK_EQ_U64(uart.divisor, 24);
	CHECK_EQ_U64(model.dll | (uint32_t)model.dlm << 8, 24);
	CHECK_EQ_U64(model.lcr, 0x03); /* 8N1, DLAB off again */
	CHECK_EQ_U64(model.ier, ier);  /* interrupts as they were */
	CHECK_EQ_U64(uart.ops->set_baud(&uart, 300), 300);
	CHECK_EQ_U64(model.dll | (uint32_t)model.dlm << 8, 768); /* DLM too */
	/* 921600 from 3.6864 MHz: divisor 1 gives 230400, refused, nothing written. */
	uint32_t writes = model.lcr_writes;
	CHECK_EQ_U64(uart.ops->set_baud(&uart, 921600), 0);
	CHECK_EQ_U64(model.lcr_writes, writes);
	CHECK_EQ_U64(uart.baud, 300);
	CHECK_EQ_U64(uart.ops->set_baud(&uart, 0), 0);
	check_no_violations();

	/* The D1: 1.5 Mbaud is divisor 1 of 24 MHz; 115200 comes back as 115384. */
	setup_d1_dw();
	CHECK_EQ_U64(uart.ops->set_baud(&uart, 1500000), 1500000);
	CHECK_EQ_U64(model.dll, 1);
	CHECK_EQ_U64(uart.ops->set_baud(&uart, 115200), 115384);
	CHECK_EQ_U64(model.dll, 13);
	model.stuck_busy = true;
	CHECK_EQ_U64(uart.ops->set_baud(&uart, 9600), 0);
	CHECK_EQ_U64(model.dll, 13);
	CHECK_EQ_U64(model.lcr, 0x03);
	CHECK(!state.line_settings_failed); /* setup itself went well */
	check_no_violations();

	/* No clock-frequency: the rate cannot be computed, so it cannot change. */
	fresh_model(UART_MODEL_16550, 0, 1, 16);
	model.dll = 2;
	struct uart_desc no_clock = describe("ns16550a", 0, 1, 0, 0);
	CHECK_EQ_U64(setup_with(&no_clock, 115200), 0);
	CHECK_EQ_U64(uart.ops->set_baud(&uart, 9600), 0);
	CHECK_EQ_U64(model.dll, 2);
	CHECK_EQ_U64(uart_set_baud(&uart, 9600), 0);
}

int main(void)
{
	RUN(test_qemu_divisor_and_settings);
	RUN(test_set_baud);
	RUN(test_d1_divisor_and_settings);
	RUN(test_divisor_rounding_and_limits);
	RUN(test_firmware_divisor_kept);
	RUN(test_unusable_descriptions_refused);
	RUN(test_addressing_shift_and_width);
	RUN(test_mmio_accessors);
	RUN(test_fifo_depth_sources);
	RUN(test_tx_room_follows_thre);
	RUN(test_put_each_byte_looks_before_every_byte);
	RUN(test_tx_room_from_dw_fifo_level);
	RUN(test_polled_write_byte_exact_without_overrun);
	RUN(test_rx_bytes_in_order);
	RUN(test_errors_from_tx_side_reads_reach_get_byte);
	RUN(test_rx_overrun_reported);
	RUN(test_acknowledge_maps_each_cause);
	RUN(test_acknowledge_dw_busy_detect);
	RUN(test_dw_threshold_mode);
	RUN(test_dw_rx_timeout_with_empty_fifo);
	RUN(test_16550_rx_timeout_reads_nothing_itself);
	RUN(test_ptime_never_set);
	RUN(test_firmware_putc_after_every_boot_step);
	RUN(test_fcr_never_read);
	RUN(test_model_catches_overrun);
	RUN(test_dw_waits_while_busy);
	RUN(test_dw_lcr_retry);
	RUN(test_dw_divisor_retry);
	RUN(test_dw_force_idle_guards_rbr);
	RUN(test_dw_stuck_busy);
	return check_summary();
}
