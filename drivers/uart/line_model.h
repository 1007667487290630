/* The line model: a simulation of the serial wire, as a struct uart that wraps the real
 * UART (line_model.c says what it models and what it leaves out).
 *
 * QEMU's 16550 sends every byte the instant it is written, so on QEMU a console backend
 * never waits for the wire. Wrapped in a line model, the same UART still passes every
 * byte to QEMU at once (output appears as usual), but what the backends see — TX FIFO
 * room (THRE), TEMT and the TX interrupt — follows a modelled 8N1 wire at a chosen baud,
 * with the UART's TX FIFO depth and a transmit shift register. The backends cannot tell:
 * they use the model through the ordinary UART interface (uart/uart.h).
 *
 * Chosen on the kernel command line (kernel/boot/main.c):
 *   uart.line=BAUD         model BAUD as the UART clock allows it (see line_rate_for);
 *                          uart.line=1 models the real UART's own baud and divisor
 *   uart.line.clock=HZ     the UART clock the modelled divisor is derived from (default:
 *                          the real UART's clock-frequency; 0: no divisor, exactly BAUD)
 *   uart.line.fifo=N       the TX FIFO depth the backends see (default the real UART's;
 *                          the D1's UART0 has 64)
 *   uart.line.threshold=N  a DesignWare-style programmable THRE threshold (IER.PTIME):
 *                          tx_room is the FIFO's free space and the TX interrupt comes
 *                          when the FIFO falls to N bytes or fewer (0, the default: the
 *                          16550's THRE, room only when empty)
 * The model never reprograms the real UART (uart.baud does that). */
#ifndef DUPLEX_DRIVERS_UART_LINE_MODEL_H
#define DUPLEX_DRIVERS_UART_LINE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/timer/timer.h"
#include "drivers/uart/uart.h"

/* 8N1: a start bit, 8 data bits, a stop bit. */
#define LINE_MODEL_BITS_PER_BYTE UART_BITS_PER_BYTE

/* tx_event_ns when no TX interrupt is due. */
#define LINE_MODEL_NEVER UINT64_MAX

/* The wire's speed as an exact fraction: bits per second = bits_num / bits_den. For a
 * UART that is clock / (16 * divisor); with no clock, baud / 1. A fraction, so that
 * 24 MHz / (16 * 13) = 115384.615 baud is modelled exactly rather than as 115384. */
struct line_rate {
	uint64_t bits_num;
	uint64_t bits_den;
};

/* The modelled transmitter: a TX FIFO feeding a shift register. Bytes leave back to back:
 * a byte written while the transmitter is busy starts the instant the byte before it
 * ends; a byte written to an idle transmitter starts when written. So all the state
 * needed is when the last byte written will end, kept exactly (whole ns plus a fraction
 * in units of 1 / bits_num ns) so that a long burst never drifts. */
struct line_transmitter {
	struct line_rate rate;
	uint32_t fifo_depth;
	uint64_t byte_ns;   /* one byte time: byte_ns + byte_frac / bits_num ns */
	uint64_t byte_frac; /* < bits_num */
	uint64_t end_ns;    /* the last byte written ends at end_ns + end_frac / bits_num */
	uint64_t end_frac;  /* < bits_num */
	/* The same instants rounded up to whole ns, the clock's unit: from fifo_empty_ns on
	 * the last byte is in the shift register (FIFO empty: THRE); from idle_ns on its
	 * stop bit is done (TEMT). */
	uint64_t fifo_empty_ns;
	uint64_t idle_ns;
};

/* What line_model_init is asked to model (the uart.line.* command-line keys). */
struct line_model_config {
	uint32_t baud;         /* BAUD, or 1: the real UART's own baud and divisor */
	uint32_t clock_hz;     /* the modelled UART clock; 0: exactly `baud` */
	uint32_t fifo_depth;   /* TX FIFO bytes; 0: the real UART's depth */
	uint32_t tx_threshold; /* TX interrupt at this FIFO level or below; 0: when empty */
};

struct line_model {
	struct uart uart;  /* what the console sees; uart.hardware points back here */
	struct uart *wire; /* the real UART underneath: every byte still goes to it */
	struct line_transmitter transmitter;
	uint32_t requested_baud; /* what the command line asked for (for the boot log) */

	/* The modelled THRE interrupt, by 16550 rules: pending from tx_event_ns on, which is
	 * when the FIFO empties, or with a threshold (uart.tx_threshold) falls to it (or
	 * when the TX interrupt was enabled, if it was there already then);
	 * LINE_MODEL_NEVER once acknowledged or while the TX interrupt is off.
	 * Written only by the UART operations (their caller serialises them), read by the
	 * timer callback on any hart: accessed with atomics. */
	bool tx_interrupt_enabled;
	uint64_t tx_event_ns;
	/* The one-shot timer that delivers the TX interrupt at tx_event_ns. timer_owned is
	 * set from the moment someone arms the timer until its callback has finished
	 * looking at tx_event_ns; only the owner calls timer_start (line_model.c: why). */
	struct timer timer;
	uint32_t timer_owned; /* 0 or 1; 32 bits: RISC-V has no byte-wide CAS */

	/* Statistics, for the console's INFO ioctl and the tests. */
	uint64_t overrun_bytes;    /* bytes put beyond the modelled FIFO's room (a caller bug) */
	uint64_t tx_events;        /* TX interrupts delivered through irq_raise_software */
	uint64_t early_timer_runs; /* timer callbacks before the event (the event moved) */
	uint64_t wire_waits;       /* times the real UART had no room (a slow host reader) */
};

/* Called once at boot by kernel_main, before console_init and before other harts run:
 * make model->uart a UART that sends through `wire` but keeps the time of a wire at
 * config->baud from a UART clock of config->clock_hz (0: exactly the baud), with a TX
 * FIFO of config->fifo_depth (0: the wire's) and TX threshold config->tx_threshold.
 * baud 1 means the wire's own baud and divisor (clock_hz is then ignored). Returns 0;
 * -1 for baud 0, or baud 1 over a UART whose baud is unknown; -2 for a FIFO depth over
 * LINE_MODEL_MAX_FIFO or a threshold not below the depth. */
int line_model_init(struct line_model *model, struct uart *wire,
                    const struct line_model_config *config);

/* The deepest modelled FIFO (the async backend's refill buffer holds 256 bytes; the
 * D1's UART1-5 have 256-byte FIFOs). */
#define LINE_MODEL_MAX_FIFO 256

/* How far the modelled rate is from the baud asked for, in parts per million of it
 * (rounded down), and whether that is beyond what an 8N1 receiver is meant to accept:
 * LINE_MODEL_BAUD_TOLERANCE_PPM, the ±2.0 % "recommended max. receiver error" for 8
 * data bits in Microchip's AVR USART datasheets ("Asynchronous Operational Range"),
 * which assume the receiver and transmitter share the total error. The one check of a
 * modelled baud; kernel_main's boot log and the tests use it. */
#define LINE_MODEL_BAUD_TOLERANCE_PPM 20000
uint32_t line_rate_error_ppm(struct line_rate rate, uint32_t requested_baud);
bool line_rate_is_off(struct line_rate rate, uint32_t requested_baud);

/* The model behind `uart`, or NULL when `uart` is not a line model. For the boot log
 * and the host test; the console core asks through uart_wire_model. Any context. */
struct line_model *line_model_of(struct uart *uart);

/* One byte time in picoseconds, rounded down (for the boot log and the INFO ioctl). */
uint64_t line_model_byte_ps(const struct line_model *model);

/* ---- The pure part: no clock, no timers, no hardware; `now_ns` is passed in. Exposed
 * for the host unit test (tests/host/test_line_model.c). Exact integer arithmetic for
 * any 32-bit clock and 16-bit divisor; no 128-bit division (the kernel has no libgcc). */

/* The rate a 16550 clocked at clock_hz gives for `baud` (> 0) with the nearest 16-bit
 * divisor (*divisor gets it): clock / (16 * divisor). With clock_hz 0, exactly `baud`
 * (*divisor = 0). */
struct line_rate line_rate_for(uint32_t clock_hz, uint32_t baud, uint32_t *divisor);
/* How long `bytes` (< 2^32) back-to-back bytes take, in ns, rounded up. */
uint64_t line_bytes_to_ns(struct line_rate rate, uint64_t bytes);

/* An idle transmitter, nothing sent yet. */
void line_transmitter_init(struct line_transmitter *tx, struct line_rate rate, uint32_t fifo_depth);
/* Bytes waiting in the FIFO at now_ns, not counting the one in the shift register. */
uint64_t line_fifo_level(const struct line_transmitter *tx, uint64_t now_ns);
/* The first instant (whole ns, rounded up) at which the FIFO holds `level` bytes or
 * fewer, given what was written so far; level 0 is fifo_empty_ns (THRE). May lie in
 * the past. */
uint64_t line_level_reached_ns(const struct line_transmitter *tx, uint64_t level);
/* THRE: the FIFO is empty (the shift register may still be sending). */
bool line_fifo_empty(const struct line_transmitter *tx, uint64_t now_ns);
/* TEMT: FIFO and shift register empty, the last stop bit sent. */
bool line_transmitter_idle(const struct line_transmitter *tx, uint64_t now_ns);
/* Write `count` (< 2^32) bytes at now_ns, which must not go backwards between calls.
 * Returns how many of them did not fit in the FIFO (0 unless the caller ignored
 * THRE); those are scheduled anyway, as if the FIFO were deeper. */
uint64_t line_transmitter_write(struct line_transmitter *tx, uint64_t now_ns, uint64_t count);

#endif
