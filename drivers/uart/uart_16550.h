/* The 16550 family ("ns16550a", "ns16550", "snps,dw-apb-uart", ...) behind the UART
 * interface of uart/uart.h. One struct uart_16550 per UART holds what the driver must
 * remember because the hardware cannot tell it: the write-only FCR, the IER it wrote,
 * and the RX error bits that TX-side LSR reads cleared.
 *
 * Everything here except uart16550_probe (uart_16550_probe.c, which maps the registers)
 * is free of kernel dependencies, so the host tests run the real driver against a
 * register-level model (tests/host/uart_model.c) through the register-access seam below.
 *
 * Locking: none inside. Like every struct uart, the caller serialises all calls on one
 * UART (the console backends hold their own spinlock). Nothing here sleeps. */
#ifndef DUPLEX_DRIVERS_UART_16550_H
#define DUPLEX_DRIVERS_UART_16550_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/base/driver.h"
#include "kernel/fdt/platform.h"
#include "drivers/uart/uart.h"

struct uart_16550;

/* The register-access seam. `offset` is the byte offset of the register from the base,
 * register number << reg-shift; `width` is reg-io-width (1 or 4) and every access is
 * exactly that wide. The default accessors do MMIO at state->registers + offset; the
 * host model installs its own to simulate the device's read and write side effects. */
typedef uint32_t (*uart16550_read_fn)(struct uart_16550 *state, uint32_t offset, uint32_t width);
typedef void (*uart16550_write_fn)(struct uart_16550 *state, uint32_t offset, uint32_t width,
                                   uint32_t value);

struct uart_16550 {
	/* Set these before uart16550_setup to interpose on register access (the host
	 * model does); left NULL, setup installs the MMIO accessors. */
	uart16550_read_fn read_register;
	uart16550_write_fn write_register;
	void *access_context; /* for the interposed accessors; the driver never uses it */

	volatile uint8_t *registers; /* mapped base */
	uint32_t reg_shift;          /* DT "reg-shift": register n is at n << reg_shift */
	uint32_t reg_io_width;       /* DT "reg-io-width": 1 or 4 bytes per access */
	char compatible[32];         /* struct uart's name points here */

	bool designware;        /* "snps,dw-apb-uart": USR, busy-detect, LCR-while-busy */
	bool has_fifo_level;    /* DW with FIFO status registers: TFL gives the TX fill */
	bool ptime_capable;     /* DW with TFL whose IER.PTIME sticks (THRE_MODE_USER) */
	bool ptime;             /* DW threshold mode on: IER.PTIME kept set, FCR TET 1/4 */
	uint8_t ier;            /* last value written to IER (one write per change) */
	uint8_t fcr;            /* FCR is write-only: the value in force, never read back */
	uint8_t pending_errors; /* LSR error bits (UART_ERROR_*) not yet given to get_byte */

	/* DesignWare line-control writes that had to be repeated because the UART was busy,
	 * and whether setup finally gave up (line settings then are what firmware left). */
	uint32_t line_control_retries;
	bool line_settings_failed;

	/* Test only (uart.test.no_tx_irq=1, set by kernel_main after setup): never enable
	 * the TX interrupt, as on a board whose TX interrupt does not arrive. */
	bool tx_interrupt_suppressed;
};

/* The driver table's probe (drivers/base/drivers.c), called once at boot for the
 * console's node, before interrupts are enabled and before secondary harts start: reads
 * the node, maps its registers and calls uart16550_setup on the driver's one instance.
 * Returns that UART, or null (nothing mapped when the description is unusable). */
struct uart *uart16550_probe(const struct device *device, uint32_t baud);

/* Program the UART whose registers are at `registers` and fill *uart so that its ops
 * drive it: 8N1, the divisor nearest to `baud` (clock / (16 * divisor)), FIFOs enabled
 * and reset, every interrupt off, DTR, RTS and OUT2 asserted. With no clock-frequency
 * or a baud of 0 the divisor firmware set is kept (and reported, with the baud it gives
 * when the clock is known). uart->baud and uart->divisor are what the hardware now
 * does; uart->fifo_depth is DT "fifo-size", the DW parameter register, or the 16550A's
 * 16; uart->tx_threshold is 0 and IER.PTIME clear (a firmware console's THRE-polling
 * putc still works); ops->set_sole_driver turns the DW threshold mode on (a quarter of
 * the FIFO) where IER.PTIME sticks. Called by uart16550_probe, and by the host tests
 * with a model's accessors in *state. Returns 0; -1 for an unusable description
 * (reg-io-width other than 1 or 4, an absurd reg-shift); -2 if a DW UART stayed busy so
 * long that it is left with DLAB set (unusable). A busy DW UART that merely kept
 * firmware's settings returns 0 with state->line_settings_failed set. */
int uart16550_setup(struct uart *uart, struct uart_16550 *state, volatile void *registers,
                    const struct uart_desc *desc, uint32_t baud);

/* Test-only: keep the TX interrupt off for good (uart_16550_probe.c). Boot hart, once. */
void uart16550_suppress_tx_interrupt(struct uart *uart);

#endif
