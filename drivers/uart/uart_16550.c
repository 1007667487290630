/* 16550-family UART driver; see uart_16550.h for the shape and uart/uart.h for the
 * operations it implements.
 *
 * Sources for every register fact below:
 *   [PC16550D]  TI PC16550D datasheet (SNLS378C): table 2 "Register Summary", table 4
 *               "Interrupt Control Functions" and the register descriptions.
 *   [DW]        Synopsys DW_apb_uart databook: the register map (USR, TFL, RFL, CPR),
 *               IER.PTIME, the busy-detect interrupt and LCR/DLL/DLH while busy.
 *   [8250.yaml] Linux Documentation/devicetree/bindings/serial/8250.yaml and
 *               snps-dw-apb-uart.yaml: reg-shift, reg-io-width, clock-frequency,
 *               fifo-size.
 *   [8250_dw]   Linux drivers/tty/serial/8250/8250_dw.c, as a description of what it
 *               does (dw8250_check_lcr, dw8250_force_idle, dw8250_handle_irq, the CPR
 *               probe).
 * Register n sits at base + (n << reg-shift) and is accessed reg-io-width bytes wide
 * [8250.yaml]. The DesignWare UART keeps the 16550 registers 0-7 and adds more above
 * them [DW]; the D1's manual and docs/sources.md give the DW ones
 * as byte offsets with reg-shift 2 already applied (USR 0x7c = register 31). */
#include "drivers/uart/uart_16550.h"

#include <stddef.h>

/* Register numbers [PC16550D table 2]. */
#define REG_RBR 0 /* read, DLAB=0: receiver buffer */
#define REG_THR 0 /* write, DLAB=0: transmitter holding */
#define REG_DLL 0 /* DLAB=1: divisor latch, low byte */
#define REG_IER 1 /* DLAB=0: interrupt enable */
#define REG_DLM 1 /* DLAB=1: divisor latch, high byte */
#define REG_IIR 2 /* read: interrupt identification */
#define REG_FCR 2 /* write: FIFO control. Write-only: a read returns IIR. */
#define REG_LCR 3 /* line control (readable) */
#define REG_MCR 4 /* modem control */
#define REG_LSR 5 /* line status; reading clears bits 1-4 */
#define REG_MSR 6 /* modem status; reading clears the delta bits 0-3 */

/* DesignWare-only registers [DW register map], as register numbers (byte offset / 4). */
#define REG_DW_USR 31 /* 0x7c UART status; reading clears the busy-detect interrupt */
#define REG_DW_TFL 32 /* 0x80 transmit FIFO level (entries in the TX FIFO) */
#define REG_DW_CPR 61 /* 0xf4 component parameters; 0 when not built in */

/* IER [PC16550D, Interrupt Enable Register; DW for bit 7]. */
#define IER_RX_DATA     0x01 /* ERBFI: received data available (and RX timeout) */
#define IER_TX_EMPTY    0x02 /* ETBEI: transmitter holding register empty */
#define IER_LINE_STATUS 0x04 /* ELSI: receiver line status (errors, break) */
/* Bits 0-3 are all a 16550 has (4-7 read 0 [PC16550D]). On DW, bit 7 is PTIME
 * (programmable THRE interrupt mode [DW]; the D1 user manual's UART_IER bit 7): with it
 * set the THRE interrupt fires when the TX FIFO is at or below the FCR "TX empty
 * trigger" and LSR.THRE comes to mean "TX FIFO full", which would turn tx_room's
 * "THRE: a whole FIFO's worth of room" into overruns. So every IER write is masked with
 * IER_WRITABLE, and PTIME is added only by setup's decision (state->ptime), on a DW
 * UART whose room comes from TFL, and only while Duplex is the UART's sole driver
 * (set_sole_driver). PTIME is writable only in a UART built with THRE_MODE_USER [DW]:
 * setup writes it, reads it back and clears it. */
#define IER_WRITABLE 0x0f
#define IER_DW_PTIME 0x80

/* IIR [PC16550D table 4]: bit 0 clear = interrupt pending; bits 0-3 the interrupt ID;
 * bits 6-7 are set when FIFOs are enabled. */
#define IIR_ID_MASK      0x0f
#define IIR_MODEM_STATUS 0x00 /* cleared by reading MSR */
#define IIR_NONE         0x01 /* no interrupt pending */
#define IIR_TX_EMPTY     0x02 /* cleared by reading IIR (when it is the source) or THR write */
#define IIR_RX_DATA      0x04 /* cleared when the FIFO drops below its trigger level */
#define IIR_LINE_STATUS  0x06 /* cleared by reading LSR */
#define IIR_DW_BUSY      0x07 /* DW busy detect: cleared by reading USR [DW] */
#define IIR_RX_TIMEOUT   0x0c /* character timeout: cleared by reading RBR */

/* FCR [PC16550D, FIFO Control Register]. Bits 6-7 (RX trigger) left 00 = 1 byte: the
 * RX interrupt comes with the first byte, the character timeout covers bursts. */
#define FCR_FIFO_ENABLE 0x01 /* must be 1 for the other FCR bits to be written */
#define FCR_CLEAR_RX    0x02 /* self-clearing */
#define FCR_CLEAR_TX    0x04 /* self-clearing; the shift register is not affected */
/* DW only: bits 4-5 TET, the TX empty trigger for PTIME mode [DW; D1 user manual
 * UART_FCR "TFT"; Linux include/uapi/linux/serial_reg.h UART_FCR_T_TRIG_*]: 00 FIFO
 * empty, 01 2 characters, 10 FIFO 1/4 full, 11 FIFO 1/2 full. 1/4 full leaves a quarter
 * of the FIFO on the line while the interrupt is answered and refills three quarters
 * per interrupt (48 of the D1 UART0's 64 bytes). On a 16550 these bits are reserved. */
#define FCR_DW_TX_TRIGGER_QUARTER 0x20
#define DW_TX_TRIGGER_DIVIDER     4 /* the threshold FCR_DW_TX_TRIGGER_QUARTER sets */

/* LCR [PC16550D, Line Control Register]. */
#define LCR_8N1  0x03 /* WLS = 11 (8 bits), one stop bit (bit 2 = 0), no parity (bit 3 = 0) */
#define LCR_BREAK 0x40 /* set break: TX held at space (logic 0) while set */
#define LCR_DLAB  0x80 /* divisor latch access: registers 0 and 1 become DLL and DLM */

/* MCR [PC16550D, Modem Control Register]. */
#define MCR_DTR  0x01
#define MCR_RTS  0x02
#define MCR_OUT2 0x08 /* PC-style boards gate the interrupt line with OUT2 */

/* LSR [PC16550D, Line Status Register]. Bits 1-4 are cleared by the read that sees
 * them; in FIFO mode PE, FE and BI belong to the character at the top of the RX FIFO. */
#define LSR_DATA_READY 0x01
#define LSR_ERRORS     0x1e /* OE 0x02, PE 0x04, FE 0x08, BI 0x10: = UART_ERROR_* */
#define LSR_BREAK      0x10
#define LSR_THR_EMPTY  0x20 /* THRE: with FIFOs on, the whole TX FIFO is empty */
#define LSR_TX_IDLE    0x40 /* TEMT: TX FIFO and transmitter shift register empty */

/* USR [DW]. Bits 1-4 exist only in a UART built with FIFO status (FIFO_STAT); without
 * it they read 0, which is how setup tells whether TFL can be trusted. */
#define USR_BUSY          0x01 /* serial transfer in progress: LCR, DLL, DLH writes ignored */
#define USR_TX_FIFO_EMPTY 0x04 /* TFE */

/* CPR [DW]: FIFO_MODE in bits 16-23 is the FIFO depth / 16 (8250_dw reads it so). */
#define CPR_FIFO_MODE_SHIFT 16
#define CPR_FIFO_MODE_MASK  0xff

/* The 16550A's FIFO depth [PC16550D: 16-byte transmitter and receiver FIFOs]. */
#define DEFAULT_FIFO_DEPTH 16
/* Largest usable reg-shift: register 61 (CPR) << 4 is still under 1 KiB. */
#define MAX_REG_SHIFT 4
#define MAX_DIVISOR   0xffff /* DLL and DLM together are 16 bits */

/* Bounds for the waits below, in register reads, so that a wedged UART cannot hang
 * boot. An MMIO read of a UART takes well over 50 ns, so 1 << 20 reads outlast a
 * 64-byte FIFO draining at 9600 baud (67 ms), and 1 << 17 one character time at any
 * usual baud many times over. */
#define TX_DRAIN_SPINS   (1u << 20)
#define DW_BUSY_SPINS    (1u << 17)
#define DW_LINE_ATTEMPTS 16 /* writes of LCR or the divisor before giving up */

static const char designware_compatible[] = "snps,dw-apb-uart";

/* ---------------------------------------------------------------- register access */

/* The default accessors: plain MMIO, exactly reg-io-width wide (a DW UART on a 32-bit
 * APB bus must not see byte accesses [snps-dw-apb-uart.yaml reg-io-width]). */
static uint32_t mmio_read(struct uart_16550 *state, uint32_t offset, uint32_t width)
{
	volatile uint8_t *address = state->registers + offset;
	if (width == 4)
		return *(volatile uint32_t *)address;
	return *address;
}

static void mmio_write(struct uart_16550 *state, uint32_t offset, uint32_t width, uint32_t value)
{
	volatile uint8_t *address = state->registers + offset;
	if (width == 4)
		*(volatile uint32_t *)address = value;
	else
		*address = (uint8_t)value;
}

/* Every register read and write goes through these two, which place register `reg`
 * at reg << reg-shift. The registers are 8 bits wide (the DW ones used here too), so
 * a 4-byte read keeps the low byte. */
static uint8_t read_reg(struct uart_16550 *state, uint32_t reg)
{
	return (uint8_t)state->read_register(state, reg << state->reg_shift, state->reg_io_width);
}

static uint32_t read_reg_wide(struct uart_16550 *state, uint32_t reg)
{
	return state->read_register(state, reg << state->reg_shift, state->reg_io_width);
}

static void write_reg(struct uart_16550 *state, uint32_t reg, uint8_t value)
{
	state->write_register(state, reg << state->reg_shift, state->reg_io_width, value);
}

/* read_lsr through a register model's accessor (the host tests). Any context; the
 * caller holds whatever lock guards the UART. */
static uint8_t __attribute__((noinline)) read_lsr_by_accessor(struct uart_16550 *state)
{
	uint8_t lsr = read_reg(state, REG_LSR);
	state->pending_errors |= lsr & LSR_ERRORS;
	return lsr;
}

/* Read LSR and keep its error bits: the read clears them in the hardware, and a TX-side
 * caller (tx_room, tx_idle) has no use for them, so they wait here for get_byte. */
static inline __attribute__((always_inline)) uint8_t read_lsr(struct uart_16550 *state)
{
	/* Real MMIO is read in place, not through the accessor pointer (which exists for
	 * the host tests' register models): every write and tcdrain reads LSR. The model's
	 * path is out of line, so that the MMIO one needs no stack frame: tx_idle, which
	 * every tcdrain calls, went from 35 to 25 instructions (QEMU -icount). */
	if (state->read_register != mmio_read)
		return read_lsr_by_accessor(state);
	uint8_t lsr = (uint8_t)mmio_read(state, REG_LSR << state->reg_shift, state->reg_io_width);
	state->pending_errors |= lsr & LSR_ERRORS;
	return lsr;
}

/* The only IER writer: keeps the cache and lets PTIME (bit 7) through only while
 * set_sole_driver has threshold mode on. */
static void write_ier(struct uart_16550 *state, uint8_t value)
{
	state->ier = (value & IER_WRITABLE) | (state->ptime ? IER_DW_PTIME : 0);
	write_reg(state, REG_IER, state->ier);
}

static struct uart_16550 *state_of(struct uart *uart)
{
	return uart->hardware;
}

/* ---------------------------------------------------------------- the operations */

/* tx_room for any UART: a DW FIFO level, or THRE through whichever accessor. */
static uint32_t __attribute__((noinline)) tx_room_general(struct uart *uart)
{
	struct uart_16550 *state = state_of(uart);
	if (state->has_fifo_level) {
		uint32_t level = read_reg_wide(state, REG_DW_TFL);
		return level < uart->fifo_depth ? uart->fifo_depth - level : 0;
	}
	return (read_lsr(state) & LSR_THR_EMPTY) ? uart->fifo_depth : 0;
}

/* ops->tx_room. Without FIFO levels all we know is THRE: set means the TX FIFO is empty
 * and a whole FIFO's worth fits; clear means "some bytes still queued", so none may be
 * added (loading only on THRE is what keeps a short FIFO from being overrun; see the
 * Linux 8250 console FIFO patch, docs/sources.md). A DW UART with TFL tells the exact
 * fill, so the room is the rest of the FIFO. */
static uint32_t uart16550_tx_room(struct uart *uart)
{
	/* The common case (a 16550 on MMIO, QEMU's) without a stack frame: see read_lsr. */
	struct uart_16550 *state = state_of(uart);
	if (state->has_fifo_level || state->read_register != mmio_read)
		return tx_room_general(uart); /* out of line: see read_lsr */
	return (read_lsr(state) & LSR_THR_EMPTY) ? uart->fifo_depth : 0;
}

/* put_bytes through a register model's accessor (the host tests). */
static void __attribute__((noinline))
put_bytes_by_accessor(struct uart_16550 *state, const uint8_t *bytes, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		write_reg(state, REG_THR, bytes[i]);
}

/* ops->put_bytes: the caller got `count` from tx_room, so no check here. */
static void uart16550_put_bytes(struct uart *uart, const uint8_t *bytes, uint32_t count)
{
	struct uart_16550 *state = state_of(uart);
	if (state->write_register != mmio_write) {          /* a register model (host tests) */
		put_bytes_by_accessor(state, bytes, count); /* out of line: see read_lsr */
		return;
	}
	/* Real MMIO: the THR address once, then one store per byte (the per-byte cost of
	 * every console write). */
	volatile uint8_t *thr = state->registers + (REG_THR << state->reg_shift);
	if (state->reg_io_width == 4) {
		for (uint32_t i = 0; i < count; i++)
			*(volatile uint32_t *)thr = bytes[i];
	} else {
		for (uint32_t i = 0; i < count; i++)
			*thr = bytes[i];
	}
}

/* ops->put_each_byte: room looked for before every byte. On real MMIO without a FIFO
 * level register (a 16550, where room means THRE), LSR and THR are addressed once and
 * the loop is a load and a store per byte: polling,byte's per-byte cost. */
static uint32_t uart16550_put_each_byte(struct uart *uart, const uint8_t *bytes, uint32_t count)
{
	struct uart_16550 *state = state_of(uart);
	if (state->has_fifo_level || state->read_register != mmio_read ||
	    state->write_register != mmio_write)
		return uart_put_each_byte_by_ops(uart, bytes, count);
	uint32_t sent = 0;
	volatile uint8_t *lsr = state->registers + (REG_LSR << state->reg_shift);
	volatile uint8_t *thr = state->registers + (REG_THR << state->reg_shift);
	uint8_t seen = 0;
	if (state->reg_io_width == 4) {
		while (sent < count) {
			uint8_t status = (uint8_t) * (volatile uint32_t *)lsr;
			seen |= status;
			if (!(status & LSR_THR_EMPTY))
				break;
			*(volatile uint32_t *)thr = bytes[sent++];
		}
	} else {
		while (sent < count) {
			uint8_t status = *lsr;
			seen |= status;
			if (!(status & LSR_THR_EMPTY))
				break;
			*thr = bytes[sent++];
		}
	}
	state->pending_errors |= seen & LSR_ERRORS; /* as read_lsr keeps them for get_byte */
	return sent;
}

/* ops->tx_idle: TEMT, the last stop bit is on the wire. No interrupt reports it. */
static bool uart16550_tx_idle(struct uart *uart)
{
	return (read_lsr(state_of(uart)) & LSR_TX_IDLE) != 0;
}

static bool uart16550_rx_ready(struct uart *uart)
{
	return (read_lsr(state_of(uart)) & LSR_DATA_READY) != 0;
}

/* ops->get_byte. LSR is read before RBR so that the error bits of the character at the
 * top of the FIFO (the one about to be read) are collected with it; bits an earlier
 * LSR read saw are handed out too, and then forgotten. */
static uint8_t uart16550_get_byte(struct uart *uart, uint8_t *errors)
{
	struct uart_16550 *state = state_of(uart);
	read_lsr(state);
	uint8_t byte = read_reg(state, REG_RBR);
	if (errors)
		*errors = state->pending_errors;
	state->pending_errors = 0;
	return byte;
}

/* ops->set_tx_interrupt: ETBEI. On a 16550, setting it while THR is empty raises the
 * THRE interrupt at once [PC16550D table 4: THRE source]; QEMU re-evaluates THRE only
 * when this bit goes 0 -> 1 (QEMU hw/char/serial.c), so a backend that wants a
 * fresh interrupt disables and re-enables. */
static void uart16550_set_tx_interrupt(struct uart *uart, bool enable)
{
	struct uart_16550 *state = state_of(uart);
	enable = enable && !state->tx_interrupt_suppressed;
	uint8_t ier = enable ? state->ier | IER_TX_EMPTY : state->ier & ~IER_TX_EMPTY;
	write_ier(state, ier);
}

/* ops->set_rx_interrupt: received data (with the character timeout) and line status
 * together, so that an RX error always comes with an interrupt. */
static void uart16550_set_rx_interrupt(struct uart *uart, bool enable)
{
	struct uart_16550 *state = state_of(uart);
	uint8_t bits = IER_RX_DATA | IER_LINE_STATUS;
	write_ier(state, enable ? state->ier | bits : state->ier & ~bits);
}

/* ops->acknowledge, from the UART's interrupt handler. Reads IIR once and clears the
 * one cause it names [PC16550D table 4] (the line stays asserted while lower-priority
 * causes remain, so the handler is entered again for them). Reading IIR is itself what
 * clears a pending THRE interrupt: hence "swallowed THRE" in uart.h. */
static uint32_t uart16550_acknowledge(struct uart *uart)
{
	struct uart_16550 *state = state_of(uart);
	uint8_t id = read_reg(state, REG_IIR) & IIR_ID_MASK;

	switch (id) {
	case IIR_NONE:
		return 0;
	case IIR_LINE_STATUS: {
		uint8_t lsr = read_lsr(state); /* clears it; the errors wait for get_byte */
		return UART_EVENT_LINE | ((lsr & LSR_DATA_READY) ? UART_EVENT_RX_READY : 0);
	}
	case IIR_RX_DATA:
		return UART_EVENT_RX_READY; /* the backend's get_byte calls clear it */
	case IIR_RX_TIMEOUT:
		/* A DW UART can report a character timeout with nothing in the RX FIFO
		 * [8250_dw: dw8250_handle_irq]. Only an RBR read clears it, and a backend that
		 * finds no data never reads one, so the interrupt would fire for ever. As
		 * Linux does: when LSR shows neither data nor a break, read RBR once (nothing
		 * is lost: the FIFO is empty). */
		if (state->designware && !(read_lsr(state) & (LSR_DATA_READY | LSR_BREAK))) {
			read_reg(state, REG_RBR);
			return UART_EVENT_OTHER;
		}
		return UART_EVENT_RX_READY;
	case IIR_TX_EMPTY:
		return UART_EVENT_TX_READY; /* already cleared by the IIR read */
	case IIR_MODEM_STATUS:
		read_reg(state, REG_MSR); /* clears it; nothing here uses modem lines */
		return UART_EVENT_OTHER;
	case IIR_DW_BUSY:
		/* An LCR write met a busy UART [DW]. Only reading USR clears it; left alone
		 * it would keep the interrupt line asserted for ever. A plain 16550 never
		 * reports 0x7 and has no register 31, so it is not touched there. */
		if (state->designware)
			read_reg(state, REG_DW_USR);
		return UART_EVENT_OTHER;
	default:
		return UART_EVENT_OTHER; /* an ID no datasheet here defines: report, not ignore */
	}
}

static uint32_t uart16550_set_baud(struct uart *uart, uint32_t baud);
static void uart16550_set_sole_driver(struct uart *uart, bool sole);
static bool uart16550_set_break(struct uart *uart, bool on);

static const struct uart_ops uart16550_ops = {
    .tx_room = uart16550_tx_room,
    .put_bytes = uart16550_put_bytes,
    .put_each_byte = uart16550_put_each_byte,
    .tx_idle = uart16550_tx_idle,
    .rx_ready = uart16550_rx_ready,
    .get_byte = uart16550_get_byte,
    .set_tx_interrupt = uart16550_set_tx_interrupt,
    .set_rx_interrupt = uart16550_set_rx_interrupt,
    .acknowledge = uart16550_acknowledge,
    .set_baud = uart16550_set_baud,
    .set_sole_driver = uart16550_set_sole_driver,
    .set_break = uart16550_set_break,
};

/* ---------------------------------------------------------------- setup */

static bool same_string(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static void copy_string(char *to, size_t size, const char *from)
{
	size_t i = 0;
	for (; i + 1 < size && from[i]; i++)
		to[i] = from[i];
	to[i] = 0;
}

/* Spin, bounded, until a DW UART is not busy. The USR reads also clear a busy-detect
 * interrupt that an earlier, ignored LCR write raised. Returns false on timeout. */
static bool dw_wait_until_idle(struct uart_16550 *state)
{
	for (uint32_t spin = 0; spin < DW_BUSY_SPINS; spin++) {
		if (!(read_reg(state, REG_DW_USR) & USR_BUSY))
			return true;
	}
	return false;
}

/* Make a DW UART that will not stop being busy idle: empty both FIFOs and read RBR, as
 * 8250_dw's dw8250_force_idle does (BUSY stays set while received data waits). Only
 * used during setup, which enables the FIFOs anyway: they are left enabled here.
 * The RBR read is guarded as in Linux: a DW UART built with PSLVERR_RESP_EN answers a
 * read of an empty RBR with the FIFOs enabled with an APB error response [8250_dw:
 * dw8250_force_idle], which on the hart is a load access fault in the middle of
 * setup. So with the FIFOs on, RBR is read only when LSR says data is ready. */
static void dw_force_idle(struct uart_16550 *state)
{
	write_reg(state, REG_FCR, FCR_FIFO_ENABLE | FCR_CLEAR_RX | FCR_CLEAR_TX);
	state->fcr = FCR_FIFO_ENABLE;
	if (read_lsr(state) & LSR_DATA_READY)
		read_reg(state, REG_RBR);
}

/* Write LCR so that it sticks. A 16550 takes every write. A DW UART ignores LCR writes
 * while USR.BUSY is set [DW], and BUSY can come back between our USR read and the write
 * (a character arriving), so: wait for idle, write, read LCR back, and on a mismatch
 * force idle and try again, a bounded number of times (8250_dw's dw8250_check_lcr
 * follows the same idea). Returns false if the value never stuck. */
static bool write_line_control(struct uart_16550 *state, uint8_t value)
{
	if (!state->designware) {
		write_reg(state, REG_LCR, value);
		return true;
	}
	for (int attempt = 0; attempt < DW_LINE_ATTEMPTS; attempt++) {
		if (attempt > 0) {
			state->line_control_retries++;
			dw_force_idle(state);
		}
		dw_wait_until_idle(state);
		write_reg(state, REG_LCR, value);
		if (read_reg(state, REG_LCR) == value)
			return true;
	}
	read_reg(state, REG_DW_USR); /* clear the busy-detect the last try raised */
	return false;
}

/* With DLAB set: the divisor latch as it stands. */
static uint32_t read_divisor(struct uart_16550 *state)
{
	return read_reg(state, REG_DLL) | (uint32_t)read_reg(state, REG_DLM) << 8;
}

/* With DLAB set: program the divisor. DW ignores DLL/DLH writes while busy, like LCR
 * writes [DW], so there the value is read back and the write retried. */
static bool write_divisor(struct uart_16550 *state, uint32_t divisor)
{
	for (int attempt = 0; attempt < DW_LINE_ATTEMPTS; attempt++) {
		if (state->designware) {
			if (attempt > 0) {
				state->line_control_retries++;
				dw_force_idle(state);
			}
			dw_wait_until_idle(state);
		}
		write_reg(state, REG_DLL, divisor & 0xff);
		write_reg(state, REG_DLM, (divisor >> 8) & 0xff);
		if (!state->designware || read_divisor(state) == divisor)
			return true;
	}
	return false;
}

/* The divisor nearest to clock / (16 * baud) [PC16550D: baud = clock / (16 * divisor)],
 * within the 16 bits DLL and DLM hold. 64-bit arithmetic: 16 * baud overflows 32 bits
 * above 268 Mbaud, and clock + 8 * baud near 4 GHz. */
static uint32_t nearest_divisor(uint32_t clock_hz, uint32_t baud)
{
	uint64_t divisor = ((uint64_t)clock_hz + 8ull * baud) / (16ull * baud);
	if (divisor < 1)
		return 1;
	if (divisor > MAX_DIVISOR)
		return MAX_DIVISOR;
	return (uint32_t)divisor;
}

/* Set 8N1 and the divisor (or learn the one firmware set), filling uart->divisor and
 * uart->baud. The baud reported is clock / (16 * divisor) in integer arithmetic, so it
 * is truncated: 24 MHz / (16 * 13) = 115384.6 is reported as 115384 (the D1 reference
 * rounds it to "115 385"). Returns false only if the UART was left with DLAB set. */
static bool program_line(struct uart *uart, struct uart_16550 *state, uint32_t baud)
{
	bool program = uart->clock_hz != 0 && baud != 0;
	uint32_t divisor = program ? nearest_divisor(uart->clock_hz, baud) : 0;

	if (write_line_control(state, LCR_DLAB | LCR_8N1)) {
		if (!program)
			divisor = read_divisor(state);
		else if (!write_divisor(state, divisor))
			state->line_settings_failed = true;
	} else {
		state->line_settings_failed = true;
		divisor = 0; /* unknown: DLAB never got set, so it could not be read */
	}
	if (!write_line_control(state, LCR_8N1)) {
		state->line_settings_failed = true;
		/* In DLAB mode THR writes would land in DLL: the UART is unusable. */
		if (read_reg(state, REG_LCR) & LCR_DLAB)
			return false;
	}
	if (state->line_settings_failed && program)
		divisor = 0; /* whatever is in force, it may not be what we computed */
	uart->divisor = divisor;
	uart->baud = (uart->clock_hz && divisor) ? uart->clock_hz / (16 * divisor) : 0;
	return true;
}

/* ops->set_baud: a new divisor, when the clock is known and gives `baud` within the
 * tolerance. The caller has the transmitter idle (TEMT) and serialises this with every
 * other op; interrupts stay as they were (IER is not touched: with DLAB set its address
 * is DLM, written only here). Never sleeps. */
static uint32_t uart16550_set_baud(struct uart *uart, uint32_t baud)
{
	struct uart_16550 *state = state_of(uart);
	if (uart->clock_hz == 0 || baud == 0)
		return 0;
	uint32_t divisor = nearest_divisor(uart->clock_hz, baud);
	if (!uart_baud_close(uart->clock_hz, 16ull * divisor, baud))
		return 0;
	if (divisor == uart->divisor)
		return uart->baud;
	uint32_t old_divisor = uart->divisor;
	bool failed_at_setup = state->line_settings_failed;
	state->line_settings_failed = false;
	bool done = program_line(uart, state, baud) && !state->line_settings_failed;
	if (!done) /* a DW UART that stayed busy: back to the old rate, or what stuck */
		program_line(uart, state, old_divisor ? uart->clock_hz / (16 * old_divisor) : 0);
	state->line_settings_failed = failed_at_setup;
	return done ? uart->baud : 0;
}

/* Bytes the TX FIFO holds: DT "fifo-size" [8250.yaml], else on DW the FIFO_MODE field of
 * CPR when the UART was built with it (0 otherwise) as 8250_dw does, else the 16550A's
 * 16. */
static uint32_t fifo_depth(struct uart_16550 *state, const struct uart_desc *desc)
{
	if (desc->fifo_size)
		return desc->fifo_size;
	if (state->designware) {
		uint32_t mode =
		    (read_reg_wide(state, REG_DW_CPR) >> CPR_FIFO_MODE_SHIFT) & CPR_FIFO_MODE_MASK;
		if (mode)
			return mode * 16;
	}
	return DEFAULT_FIFO_DEPTH;
}

/* DW with TFL: learn whether the programmable THRE interrupt mode exists, without
 * leaving it on. PTIME sticks only in a UART built with THRE_MODE_USER [DW]: written
 * with every interrupt off, read back, and cleared again at once. It must not stay on
 * here: with PTIME and the FIFOs on, LSR.THRE means "TX FIFO full" [DW; D1 user manual
 * UART_LSR bit 5], so a firmware console putc that waits for THRE before each byte
 * (OpenSBI lib/utils/serial/uart8250.c, uart8250_putc) would spin for ever in M-mode,
 * and the boot breadcrumb after setup goes out through exactly that putc. PTIME is
 * turned on only by set_sole_driver, when the async backend takes the UART over.
 * Without TFL, PTIME would leave tx_room nothing but "FIFO full / not full" to go on,
 * so it is not even tried. */
static void dw_probe_thre_mode(struct uart *uart, struct uart_16550 *state)
{
	if (!state->has_fifo_level || uart->fifo_depth / DW_TX_TRIGGER_DIVIDER == 0)
		return;
	write_reg(state, REG_IER, IER_DW_PTIME);
	state->ptime_capable = (read_reg(state, REG_IER) & IER_DW_PTIME) != 0;
	write_ier(state, 0); /* state->ptime is false: PTIME off again */
}

/* ops->set_sole_driver. sole: on a UART that has PTIME (dw_probe_thre_mode), the TX
 * interrupt at a quarter of the FIFO (FCR TET "1/4 full"), so that it comes while the
 * line still has bytes to send. Not sole: PTIME off and TET back to 00, THRE meaning
 * "FIFO empty" again as every firmware putc expects. Interrupt enables stay as they
 * were. The caller serialises this with the other ops (see uart.h). */
static void uart16550_set_sole_driver(struct uart *uart, bool sole)
{
	struct uart_16550 *state = state_of(uart);
	bool ptime = sole && state->ptime_capable;
	if (ptime == state->ptime)
		return;
	if (!ptime) { /* off first, so that THRE means "empty" before anything else */
		state->ptime = false;
		uart->tx_threshold = 0;
		write_ier(state, state->ier);
		state->fcr = FCR_FIFO_ENABLE;
		write_reg(state, REG_FCR, state->fcr);
		return;
	}
	state->fcr = FCR_FIFO_ENABLE | FCR_DW_TX_TRIGGER_QUARTER;
	write_reg(state, REG_FCR, state->fcr);
	state->ptime = true;
	uart->tx_threshold = uart->fifo_depth / DW_TX_TRIGGER_DIVIDER;
	write_ier(state, state->ier);
}

int uart16550_setup(struct uart *uart, struct uart_16550 *state, volatile void *registers,
                    const struct uart_desc *desc, uint32_t baud)
{
	if (desc->reg_io_width != 1 && desc->reg_io_width != 4)
		return -1;
	if (desc->reg_shift > MAX_REG_SHIFT)
		return -1;

	uart16550_read_fn read_register = state->read_register;
	uart16550_write_fn write_register = state->write_register;
	void *access_context = state->access_context;
	*state = (struct uart_16550){
	    .read_register = read_register ? read_register : mmio_read,
	    .write_register = write_register ? write_register : mmio_write,
	    .access_context = access_context,
	    .registers = registers,
	    .reg_shift = desc->reg_shift,
	    .reg_io_width = desc->reg_io_width,
	    .designware = desc->designware || same_string(desc->compatible, designware_compatible),
	};
	copy_string(state->compatible, sizeof state->compatible, desc->compatible);

	*uart = (struct uart){
	    .ops = &uart16550_ops,
	    .hardware = state,
	    .name = state->compatible,
	    .clock_hz = desc->clock_hz,
	    .irq = desc->irq,
	};

	/* Interrupts off first: nothing may fire while the UART is half set up. */
	write_ier(state, 0);

	/* Let firmware's last bytes leave before the divisor changes under them (and a DW
	 * UART stops being busy); bounded, a wedged transmitter must not stop boot. */
	for (uint32_t spin = 0; spin < TX_DRAIN_SPINS; spin++) {
		if (read_lsr(state) & LSR_TX_IDLE)
			break;
	}

	if (!program_line(uart, state, baud))
		return -2;

	/* FIFOs on and both emptied; the clear bits reset themselves, so the value in
	 * force (the cache) is just "enabled". */
	write_reg(state, REG_FCR, FCR_FIFO_ENABLE | FCR_CLEAR_RX | FCR_CLEAR_TX);
	state->fcr = FCR_FIFO_ENABLE;
	write_reg(state, REG_MCR, MCR_DTR | MCR_RTS | MCR_OUT2);

	uart->fifo_depth = fifo_depth(state, desc);
	if (state->designware) {
		/* TX FIFO just emptied: a UART with FIFO status says so in USR.TFE; one
		 * without reads 0 there, and then TFL is not to be trusted either. This
		 * read also clears any busy-detect interrupt setup caused. */
		state->has_fifo_level = (read_reg(state, REG_DW_USR) & USR_TX_FIFO_EMPTY) != 0;
		dw_probe_thre_mode(uart, state);
	}
	/* Clear what the old settings left: modem-status deltas, and RX errors that
	 * belonged to characters the FIFO reset threw away. */
	read_reg(state, REG_MSR);
	read_reg(state, REG_LSR);
	state->pending_errors = 0;
	return 0;
}

/* ops->set_break: LCR bit 6, "Set Break" [PC16550D, Line Control Register: the serial
 * output is forced to the spacing (logic 0) state while it is set]. Read-modify-write,
 * so the framing and DLAB (clear outside setup and set_baud) stay as they are; on a DW
 * UART through write_line_control, which retries an LCR write a busy UART ignored
 * [DW]. The caller has let the transmitter go idle (tcsendbreak drains first). Never
 * sleeps. */
static bool uart16550_set_break(struct uart *uart, bool on)
{
	struct uart_16550 *state = state_of(uart);
	uint8_t lcr = (uint8_t)read_reg(state, REG_LCR);
	lcr = on ? lcr | LCR_BREAK : lcr & (uint8_t)~LCR_BREAK;
	return write_line_control(state, lcr);
}
