/* 16550-family UART; see uart_16550.h.
 * Register numbers and bits: TI PC16550D datasheet (SNLS378C), table 2 "Register
 * Summary"; the DesignWare APB UART keeps them (DW_apb_uart databook 4.03a). Register
 * n sits at base + (n << reg-shift), accessed reg-io-width bytes wide (DT binding
 * Documentation/devicetree/bindings/serial/8250.yaml). */
#include "uart/uart_16550.h"

#include "lib/string.h"
#include "mm/vm.h"

#define UART_RBR 0 /* read: receive buffer */
#define UART_THR 0 /* write: transmit holding */
#define UART_DLL 0 /* with LCR.DLAB: divisor low */
#define UART_IER 1
#define UART_DLM 1 /* with LCR.DLAB: divisor high */
#define UART_FCR 2 /* write-only (reads return IIR): never read it */
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5

#define LCR_8N1      0x03
#define LCR_DLAB     0x80
#define FCR_ENABLE   0x01
#define FCR_CLEAR_RX 0x02
#define FCR_CLEAR_TX 0x04
#define MCR_DTR      0x01
#define MCR_RTS      0x02
#define MCR_OUT2     0x08 /* gates the interrupt line on PC-style 16550 wiring */
#define LSR_DR       0x01 /* data ready */
#define LSR_ERRORS   0x1e /* overrun, parity, framing, break */
#define LSR_THRE     0x20 /* THR (the TX FIFO with FIFOs on) empty */
#define LSR_TEMT     0x40 /* THR and shift register empty */

/* FIFO depth when the DT gives no fifo-size: 16 bytes on a 16550A (PC16550D 8.6). */
#define DEFAULT_FIFO_DEPTH 16

static uint32_t read_register(struct uart_16550 *uart, int reg)
{
	volatile uint8_t *address = uart->base + (reg << uart->reg_shift);
	if (uart->reg_io_width == 4)
		return *(volatile uint32_t *)address;
	return *address;
}

static void write_register(struct uart_16550 *uart, int reg, uint32_t value)
{
	volatile uint8_t *address = uart->base + (reg << uart->reg_shift);
	if (uart->reg_io_width == 4)
		*(volatile uint32_t *)address = value;
	else
		*address = (uint8_t)value;
}

static uint8_t read_lsr(struct uart_16550 *uart)
{
	uint8_t lsr = (uint8_t)read_register(uart, UART_LSR);
	uart->lsr_errors |= lsr & LSR_ERRORS; /* reading LSR clears them: keep them */
	return lsr;
}

int uart16550_init(struct uart_16550 *uart, const struct uart_desc *desc, uint32_t baud)
{
	if (!desc->present || (desc->reg_io_width != 1 && desc->reg_io_width != 4))
		return -1;
	memset(uart, 0, sizeof *uart);
	uart->base = vm_map_device(desc->base, desc->size ? desc->size : 0x100);
	uart->reg_shift = desc->reg_shift;
	uart->reg_io_width = desc->reg_io_width;
	uart->clock_hz = desc->clock_hz;
	uart->fifo_depth = desc->fifo_size ? desc->fifo_size : DEFAULT_FIFO_DEPTH;

	write_register(uart, UART_IER, 0);
	if (uart->clock_hz && baud) {
		/* Nearest divisor: clock / (16 * baud), rounded. */
		uint32_t divisor = (uart->clock_hz + 8 * baud) / (16 * baud);
		if (divisor == 0)
			divisor = 1;
		write_register(uart, UART_LCR, LCR_DLAB | LCR_8N1);
		write_register(uart, UART_DLL, divisor & 0xff);
		write_register(uart, UART_DLM, (divisor >> 8) & 0xff);
		uart->divisor = divisor;
		uart->baud = uart->clock_hz / (16 * divisor);
	}
	write_register(uart, UART_LCR, LCR_8N1);
	uart->fcr = FCR_ENABLE | FCR_CLEAR_RX | FCR_CLEAR_TX;
	write_register(uart, UART_FCR, uart->fcr);
	uart->fcr = FCR_ENABLE; /* the clear bits self-reset */
	write_register(uart, UART_MCR, MCR_DTR | MCR_RTS | MCR_OUT2);
	return 0;
}

uint32_t uart16550_tx_room(struct uart_16550 *uart)
{
	return (read_lsr(uart) & LSR_THRE) ? uart->fifo_depth : 0;
}

bool uart16550_tx_idle(struct uart_16550 *uart)
{
	return (read_lsr(uart) & LSR_TEMT) != 0;
}

void uart16550_put_byte(struct uart_16550 *uart, uint8_t byte)
{
	write_register(uart, UART_THR, byte);
}

bool uart16550_rx_ready(struct uart_16550 *uart)
{
	return (read_lsr(uart) & LSR_DR) != 0;
}

uint8_t uart16550_get_byte(struct uart_16550 *uart)
{
	return (uint8_t)read_register(uart, UART_RBR);
}

void uart16550_write_polled(struct uart_16550 *uart, const char *text, size_t length)
{
	while (length > 0) {
		uint32_t room;
		while ((room = uart16550_tx_room(uart)) == 0)
			;
		for (; room > 0 && length > 0; room--, length--)
			uart16550_put_byte(uart, (uint8_t)*text++);
	}
}
