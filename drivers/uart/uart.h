/* The one small UART interface the console backends use (the lower half, in NuttX's
 * terms; Linux's struct uart_ops plays the same role). A UART driver fills a
 * struct uart; backends call only these operations and never touch registers, so a
 * new UART (or the line model, which wraps another UART) is one new file.
 *
 * None of these sleep or take locks: the caller serialises access to one UART (the
 * console backends do it with their own spinlock). */
#ifndef DUPLEX_DRIVERS_UART_H
#define DUPLEX_DRIVERS_UART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the interrupt was about, as acknowledge() reports it (bits, several at once). */
#define UART_EVENT_TX_READY 0x1 /* transmitter wants bytes (THRE) */
#define UART_EVENT_RX_READY 0x2 /* received data (or RX timeout) */
#define UART_EVENT_LINE     0x4 /* line status: an RX error was recorded */
#define UART_EVENT_OTHER    0x8 /* handled inside the driver (e.g. DW busy-detect) */

/* RX error bits reported with received bytes (16550 LSR bits 1-4). */
#define UART_ERROR_OVERRUN 0x02
#define UART_ERROR_PARITY  0x04
#define UART_ERROR_FRAMING 0x08
#define UART_ERROR_BREAK   0x10

/* 8N1 framing: a start bit, 8 data bits, a stop bit per byte on the wire. */
#define UART_BITS_PER_BYTE 10

struct uart;

/* What a UART that only models a wire (the line model, drivers/uart/line_model.c)
 * says about it, so that the console core can label results without knowing the model. */
struct uart_wire_model {
	struct uart *real;       /* the UART underneath, which every byte still reaches */
	uint64_t byte_ps;        /* one modelled byte time, in picoseconds (rounded down) */
	uint64_t overrun_bytes;  /* bytes put beyond the modelled FIFO's room */
	uint64_t tx_events;      /* modelled TX interrupts delivered */
	uint32_t requested_baud; /* the baud the model was asked for (it runs at uart->baud) */
	uint64_t idle_ns;        /* kernel clock ns: the last byte put leaves the wire (TEMT) */
};

struct uart_ops {
	/* Bytes that may be given to put_bytes now without overrunning the TX FIFO: with
	 * tx_threshold 0 the whole FIFO when THRE says it is empty, else 0; a UART that
	 * knows its fill level (DW TFL) gives the free space. */
	uint32_t (*tx_room)(struct uart *uart);
	/* Queue `count` bytes (count <= tx_room()) for transmission. */
	void (*put_bytes)(struct uart *uart, const uint8_t *bytes, uint32_t count);
	/* Optional. Put up to `count` bytes one at a time, looking for room (as tx_room)
	 * before each, as the 8250 console did before it used the FIFO; stop at the first
	 * byte without room. Returns how many went. uart_put_each_byte() stands in with
	 * tx_room and put_bytes when a driver leaves it null. */
	uint32_t (*put_each_byte)(struct uart *uart, const uint8_t *bytes, uint32_t count);
	/* Transmitter completely idle: FIFO and shift register empty (TEMT). */
	bool (*tx_idle)(struct uart *uart);
	bool (*rx_ready)(struct uart *uart);
	/* One received byte (call only when rx_ready); *errors (if not NULL) gets the
	 * UART_ERROR_* bits seen since the last call, including those that a tx_room,
	 * tx_idle or acknowledge call read (and so cleared) in the hardware. */
	uint8_t (*get_byte)(struct uart *uart, uint8_t *errors);
	/* Enable or disable the TX-empty and the RX interrupt. Enabling the TX interrupt
	 * while the transmitter is empty raises it at once on a 16550; QEMU re-evaluates it
	 * only on a disabled -> enabled change. With a tx_threshold, "empty" reads "at or
	 * below the threshold" throughout. */
	void (*set_tx_interrupt)(struct uart *uart, bool enable);
	void (*set_rx_interrupt)(struct uart *uart, bool enable);
	/* Called from the interrupt handler: read and clear the interrupt cause, return
	 * UART_EVENT_* bits (0: the interrupt was not ours). One cause per call, highest
	 * priority first; the interrupt stays asserted while others remain.
	 *
	 * Swallowed THRE: on a 16550 reading the cause (IIR) is what clears a pending
	 * TX-empty interrupt. Any IIR read that reports it consumes it, so a backend must
	 * never rely on a TX interrupt edge still coming: when it queues bytes and the
	 * transmitter is idle (tx_room() > 0), it loads the FIFO itself ("kicks" TX). */
	uint32_t (*acknowledge)(struct uart *uart);
	/* Optional: a UART that models a wire over another fills *model and returns true;
	 * real UARTs leave it null. For the console core's INFO ioctl; backends never ask.
	 * Any context. uart_wire_model() stands in when it is null. */
	bool (*wire_model)(struct uart *uart, struct uart_wire_model *model);
	/* Optional: run the line at `baud`, as near as the UART's clock allows, if that is
	 * within UART_BAUD_TOLERANCE_PPM of it; uart->baud and uart->divisor then say what
	 * is in force. Returns the new uart->baud, or 0 with nothing changed (no clock
	 * known, the rate out of reach, the hardware refused). The caller has let the
	 * transmitter go idle (TEMT): a divisor changed mid-character garbles it, and a
	 * DesignWare UART ignores the write while busy. uart_set_baud() stands in when it
	 * is null (the rate cannot change). */
	uint32_t (*set_baud)(struct uart *uart, uint32_t baud);
	/* Optional: sole = true when Duplex alone drives the UART from now on (the async
	 * backend taking over, after the last firmware-console print): the driver may turn
	 * on a mode that a firmware console's putc does not understand, and tx_threshold
	 * may change. sole = false before anything else writes to the UART again (the SBI
	 * console, a firmware reset): every such mode off, tx_threshold back to 0. A
	 * firmware putc that waits for THRE (OpenSBI's uart8250) works after setup and
	 * after sole = false. The caller serialises it with the other ops, or has every
	 * other user of the UART stopped (panic, power-off). Never sleeps. */
	void (*set_sole_driver)(struct uart *uart, bool sole);
	/* Optional: hold TX in the break condition (the line at space, 0) while `on`, as
	 * tcsendbreak needs; a 16550 does it with LCR bit 6. Returns false when the UART
	 * cannot. uart_set_break() stands in when it is null. */
	bool (*set_break)(struct uart *uart, bool on);
};

/* How far a rate may be from the one asked for: 2 %, the 8N1 receiver's margin (and
 * Linux's tty_termios_encode_baud_rate's tolerance for naming a standard rate). */
#define UART_BAUD_TOLERANCE_PPM 20000

struct uart {
	const struct uart_ops *ops;
	void *hardware;      /* the driver's own state */
	const char *name;    /* the DT compatible, for the boot log */
	uint32_t fifo_depth; /* TX bytes loadable after THRE (tx_loadsz in Linux) */
	/* 0: the TX interrupt comes when the TX FIFO is empty (THRE). N > 0: when it holds
	 * N bytes or fewer (DesignWare IER.PTIME with an FCR TX empty trigger), so that the
	 * refill lands before the line runs dry; tx_room is then the free space. */
	uint32_t tx_threshold;
	uint32_t clock_hz;
	uint32_t baud; /* actual: clock / (16 * divisor) */
	uint32_t divisor;
	uint32_t irq; /* PLIC source, 0 if none */
};

/* ops->put_each_byte, or the same loop over tx_room and put_bytes. Same context rules
 * as the ops. (drivers/uart/uart_polled.c) */
uint32_t uart_put_each_byte(struct uart *uart, const uint8_t *bytes, uint32_t count);
/* The same loop over tx_room and put_bytes alone: for a driver's put_each_byte when its
 * fast path does not apply. */
uint32_t uart_put_each_byte_by_ops(struct uart *uart, const uint8_t *bytes, uint32_t count);

/* ops->set_baud, or, for a UART without one, `baud` if it is what the UART already
 * runs at and else 0. Same context rules as the ops. (drivers/uart/uart_polled.c) */
uint32_t uart_set_baud(struct uart *uart, uint32_t baud);
/* True if `actual` baud is within UART_BAUD_TOLERANCE_PPM of `wanted`. Any context. */
bool uart_baud_close(uint64_t actual_num, uint64_t actual_den, uint32_t wanted);

/* ops->set_sole_driver when the driver has one, else nothing. Same context rules as
 * the ops. (drivers/uart/uart_polled.c) */
void uart_set_sole_driver(struct uart *uart, bool sole);
/* ops->set_break, or false when the driver has none. Same context rules as the ops.
 * (drivers/uart/uart_polled.c) */
bool uart_set_break(struct uart *uart, bool on);

/* ops->wire_model, or false when the driver has none. (drivers/uart/uart_polled.c) */
bool uart_wire_model(struct uart *uart, struct uart_wire_model *model);

/* Early and emergency output (the kernel log before and beside the backends, panic):
 * spin until tx_room() allows, load that many bytes, repeat until all `length` bytes
 * are in the hardware. Built only on the ops, so it works over any UART. Any context;
 * the caller serialises it with every other user of this UART, except on the panic
 * path, where the other harts are stopped. (drivers/uart/uart_polled.c) */
void uart_write_polled(struct uart *uart, const char *text, size_t length);

#endif
