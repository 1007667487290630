/* A register-level model of a 16550 (TI PC16550D) and of a Synopsys DW APB UART, for
 * driving the real driver (drivers/uart/uart_16550.c) on the host. The driver reaches it
 * through its register-access seam: uart_model_attach() installs the model's accessors
 * in a struct uart_16550 before uart16550_setup.
 *
 * Modelled side effects: reading RBR pops the RX FIFO; reading IIR clears a THRE
 * interrupt it reports; reading LSR clears OE/PE/FE/BI; reading MSR clears its deltas;
 * DLAB switches registers 0 and 1 to DLL/DLM; FCR is write-only (register 2 reads
 * return IIR); FIFO reset bits; TX FIFO of 16 or 64 bytes that drains only when the wire
 * runs (uart_model_run_wire, or automatically every N register accesses); RX injection
 * with error bits. DW only: USR (BUSY, TFNF, TFE, RFNE, RFF), TFL, RFL, CPR; LCR, DLL
 * and DLH writes ignored while busy, raising the busy-detect interrupt (IIR 0x7) until
 * USR is read. Two DW quirks Linux's 8250_dw.c handles, each switched on by the test:
 * a character-timeout interrupt with an empty RX FIFO that only an RBR read clears
 * (`dw_rx_timeout_stuck`, dw8250_handle_irq), and a UART built with PSLVERR_RESP_EN,
 * which answers a read of an empty RBR with the FIFOs on with an APB error response
 * (`dw_pslverr`, dw8250_force_idle): the model counts that read as a violation, since
 * on the hart it is a load access fault.
 *
 * Driver misbehaviour the model catches (counted in `violations`, first one described
 * in `violation`): a read of register 2 outside an acknowledge() call (the driver
 * expecting FCR back), a THR write while the TX FIFO is full, an IER write with bit 7
 * (DW PTIME) set on a 16550 or on a DW UART without FIFO status (no TFL: with PTIME the
 * room could only come from LSR.THRE, which then means "FIFO full"), an access of the
 * wrong width or at an offset that is not a register.
 *
 * DW programmable THRE interrupt mode (PTIME, writable when the model is built with
 * dw_thre_mode_user): the THRE interrupt comes when the TX FIFO falls to the FCR TX
 * empty trigger (bits 4-5) and LSR.THRE means "FIFO full". */
#ifndef DUPLEX_TESTS_UART_MODEL_H
#define DUPLEX_TESTS_UART_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/uart/uart_16550.h"

#define UART_MODEL_MAX_FIFO 256
#define UART_MODEL_WIRE_MAX (1u << 20)
/* This many violations in one run: the driver is looping on a register it does not reach
 * (a wait for THRE at the wrong offset never ends); the model stops the program with a
 * message, exit status 1. A correct driver has none; the layout test's bounded waits
 * make about a million (1 048 585) (a starting state's, seen in tests/host/test_uart_layout). */
#define UART_MODEL_STUCK_VIOLATIONS 2000000u

enum uart_model_kind {
	UART_MODEL_16550,
	UART_MODEL_DW_APB,
};

struct uart_model_rx_entry {
	uint8_t byte;
	uint8_t errors; /* LSR bits PE/FE/BI that belong to this character */
};

struct uart_model {
	/* Configuration: set by uart_model_init, may be changed by the test. */
	enum uart_model_kind kind;
	uint32_t reg_shift;
	uint32_t reg_io_width;
	uint32_t fifo_depth;      /* TX and RX FIFO depth with FIFOs enabled */
	bool dw_fifo_status;      /* DW built with FIFO_STAT: USR bits 1-4, TFL, RFL */
	bool dw_thre_mode_user;   /* DW built with THRE_MODE_USER: IER.PTIME writable */
	uint32_t dw_cpr;          /* what CPR reads (0: not built in) */
	uint32_t auto_wire_every; /* run one character on the wire every N accesses; 0 = off */

	/* Registers. */
	uint8_t ier, lcr, mcr, msr, scr, dll, dlm;
	uint8_t last_fcr; /* last value written to FCR (tests look; the driver must not) */
	bool fifo_enabled;
	uint8_t lsr_errors;   /* OE/PE/FE/BI latched until LSR is read */
	bool thre_pending;    /* THRE interrupt source armed */
	bool timeout_pending; /* character timeout (set by the test), cleared by RBR read */
	bool busy_detect_pending;

	/* Transmitter: FIFO (or the THR alone with FIFOs off) and the shift register. */
	uint8_t tx_fifo[UART_MODEL_MAX_FIFO];
	uint32_t tx_head, tx_count;
	bool shifting;
	uint8_t shift_register;
	uint8_t wire[UART_MODEL_WIRE_MAX]; /* every byte that went out, in order */
	size_t wire_length;

	/* Receiver FIFO. */
	struct uart_model_rx_entry rx_fifo[UART_MODEL_MAX_FIFO];
	uint32_t rx_head, rx_count;

	/* DW busy: the next `busy_usr_reads` USR reads say BUSY, and LCR/DLL/DLH writes are
	 * ignored until they have been read. Bit n of drop_lcr_write_mask ignores LCR write
	 * number n (from 0) even when USR said idle, as if a character arrived between the
	 * USR read and the write; drop_divisor_write_mask does the same for DLL writes.
	 * With `stuck_busy` the UART never stops being busy. */
	uint32_t busy_usr_reads;
	uint32_t drop_lcr_write_mask;
	uint32_t drop_divisor_write_mask;
	bool stuck_busy;

	/* DW quirks (see the header comment). */
	bool dw_rx_timeout_stuck; /* IIR says 0xc with the FIFO empty until RBR is read */
	bool dw_pslverr;          /* an empty-RBR read with FIFOs on is an error response */
	uint32_t rbr_reads;

	/* What the test asserts on. */
	bool in_acknowledge; /* set by the test around ops->acknowledge */
	bool quiet;          /* a test that provokes violations on purpose: do not print */
	uint32_t accesses;
	uint32_t usr_reads, iir_reads, lcr_writes, dll_writes;
	uint32_t lcr_writes_dropped, divisor_writes_dropped;
	uint32_t max_tx_fill; /* highest TX FIFO fill seen */
	uint32_t violations;
	char violation[160];
};

/* Reset the model to power-on state (PC16550D "UART Reset Configuration"): IER, LCR,
 * MCR 0, FIFOs off, transmitter empty (LSR THRE|TEMT). */
void uart_model_init(struct uart_model *model, enum uart_model_kind kind, uint32_t reg_shift,
                     uint32_t reg_io_width, uint32_t fifo_depth);
/* Make `state`'s register accesses go to the model (call before uart16550_setup). */
void uart_model_attach(struct uart_model *model, struct uart_16550 *state);
/* Let `characters` character times pass on the wire: each finishes the byte in the
 * shift register and moves the next one from the FIFO into it. */
void uart_model_run_wire(struct uart_model *model, uint32_t characters);
/* Run the wire until the transmitter is idle. */
void uart_model_drain(struct uart_model *model);
/* A character arrives with `errors` (UART_ERROR_PARITY/FRAMING/BREAK). With the RX FIFO
 * full it is lost and OE set. */
void uart_model_receive(struct uart_model *model, uint8_t byte, uint8_t errors);
/* The interrupt ID IIR would show now (without the side effects of reading it). */
uint8_t uart_model_interrupt_id(const struct uart_model *model);
/* The FIFO level at or below which the THRE interrupt comes: 0 unless DW PTIME is on. */
uint32_t uart_model_tx_threshold(const struct uart_model *model);
/* Is the DW UART busy right now (for an LCR write)? */
bool uart_model_busy(const struct uart_model *model);

#endif
