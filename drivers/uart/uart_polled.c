/* Polled output over any struct uart; see uart_write_polled in uart.h. */
#include "drivers/uart/uart.h"

/* Spin until the FIFO has room, load as much as it takes, repeat: per THRE a whole
 * FIFO's worth rather than one byte (the Linux 8250 console's FIFO loading,
 * docs/sources.md), and never more than tx_room allows. */
void uart_write_polled(struct uart *uart, const char *text, size_t length)
{
	const uint8_t *bytes = (const uint8_t *)text;
	while (length > 0) {
		uint32_t room = uart->ops->tx_room(uart);
		if (room == 0)
			continue;
		uint32_t count = length < room ? (uint32_t)length : room;
		uart->ops->put_bytes(uart, bytes, count);
		bytes += count;
		length -= count;
	}
}

uint32_t uart_put_each_byte(struct uart *uart, const uint8_t *bytes, uint32_t count)
{
	if (uart->ops->put_each_byte)
		return uart->ops->put_each_byte(uart, bytes, count);
	return uart_put_each_byte_by_ops(uart, bytes, count);
}

uint32_t uart_put_each_byte_by_ops(struct uart *uart, const uint8_t *bytes, uint32_t count)
{
	uint32_t sent = 0;
	while (sent < count && uart->ops->tx_room(uart) > 0) {
		uart->ops->put_bytes(uart, bytes + sent, 1);
		sent++;
	}
	return sent;
}

bool uart_wire_model(struct uart *uart, struct uart_wire_model *model)
{
	return uart->ops->wire_model && uart->ops->wire_model(uart, model);
}

bool uart_set_break(struct uart *uart, bool on)
{
	return uart->ops->set_break && uart->ops->set_break(uart, on);
}

uint32_t uart_set_baud(struct uart *uart, uint32_t baud)
{
	if (uart->ops->set_baud)
		return uart->ops->set_baud(uart, baud);
	return baud != 0 && baud == uart->baud ? baud : 0;
}

void uart_set_sole_driver(struct uart *uart, bool sole)
{
	if (uart->ops->set_sole_driver)
		uart->ops->set_sole_driver(uart, sole);
}

/* |num / den - wanted| <= wanted / 50, in integers: |num - wanted * den| * 50 <=
 * wanted * den (num and wanted * den stay far below 2^57 for any clock and rate). */
bool uart_baud_close(uint64_t actual_num, uint64_t actual_den, uint32_t wanted)
{
	uint64_t target = (uint64_t)wanted * actual_den;
	uint64_t difference = actual_num > target ? actual_num - target : target - actual_num;
	return wanted != 0 && difference * (1000000 / UART_BAUD_TOLERANCE_PPM) <= target;
}
