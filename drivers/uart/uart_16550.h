/* 16550-family UART registers ("ns16550a", "ns16550", "snps,dw-apb-uart"), found from
 * the device tree: base, reg-shift, reg-io-width, clock-frequency, fifo-size.
 * This is the hardware layer under the console; it never sleeps and takes no locks
 * (its caller serialises access). */
#ifndef DUPLEX_DRIVERS_UART_16550_H
#define DUPLEX_DRIVERS_UART_16550_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fdt/platform.h"

struct uart_16550 {
	volatile uint8_t *base;
	uint32_t reg_shift;
	uint32_t reg_io_width;
	uint32_t clock_hz;
	uint32_t fifo_depth; /* TX FIFO bytes loadable after THRE */
	uint32_t baud;       /* what the divisor actually gives */
	uint32_t divisor;
	uint8_t fcr;        /* FCR is write-only: the last value written */
	uint8_t lsr_errors; /* error bits seen by TX-side LSR reads, kept for RX */
};

/* Called once at boot: map and program the UART for `baud` (8N1, FIFOs on, all
 * interrupts off). A clock of 0 means "leave the divisor as firmware set it".
 * Returns 0 or -1 if the description is unusable. */
int uart16550_init(struct uart_16550 *uart, const struct uart_desc *desc, uint32_t baud);

/* Bytes that may be written to THR right now without overrunning the FIFO. */
uint32_t uart16550_tx_room(struct uart_16550 *uart);
/* Transmitter completely idle: FIFO and shift register empty (LSR.TEMT). */
bool uart16550_tx_idle(struct uart_16550 *uart);
void uart16550_put_byte(struct uart_16550 *uart, uint8_t byte);
bool uart16550_rx_ready(struct uart_16550 *uart);
uint8_t uart16550_get_byte(struct uart_16550 *uart);

/* Polled output of a whole buffer: wait for THRE, load up to a FIFO's worth, repeat
 * (the Linux 8250 console's FIFO loading, ../shared/seeds/001_*). */
void uart16550_write_polled(struct uart_16550 *uart, const char *text, size_t length);

#endif
