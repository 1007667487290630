/* A console port's receive path, the same for every policy: everything the receiver
 * holds goes to the core's line discipline, a batch at a time, in order — from the RX
 * interrupt, or, on a port without one, from whoever looks (a reader, a writer waiting
 * for room, the core's RX watch). */
#include "drivers/console/port/port.h"

#include "kernel/hart/csr.h"

#define RX_BATCH 64 /* bytes taken from the receiver per hand-over */

/* Each batch is taken under `lock` and handed over after letting go of it (the receiver
 * echoes through the log path, which takes `lock`); `receiving` keeps two lookers from
 * handing their batches over out of order. `received_ticks` 0: the kernel learns of
 * the bytes now (a poll), else when the interrupt was dispatched. */
void port_receive(struct console_port *port, bool may_wait, bool until_throttled,
                  uint64_t received_ticks)
{
	struct uart *uart = port->uart;
	uint8_t bytes[RX_BATCH], errors[RX_BATCH];
	if (may_wait)
		spin_lock(&port->receiving);
	else if (!spin_trylock(&port->receiving))
		return;
	for (;;) {
		size_t count = 0;
		if (may_wait)
			spin_lock(&port->lock);
		else if (!spin_trylock(&port->lock))
			break;
		while (count < RX_BATCH && uart->ops->rx_ready(uart)) {
			errors[count] = 0;
			bytes[count] = uart->ops->get_byte(uart, &errors[count]);
			if (errors[count] & UART_ERROR_OVERRUN)
				port->counters.rx_overruns++;
			if (errors[count] & ~UART_ERROR_OVERRUN)
				port->counters.rx_errors++;
			count++;
		}
		port->counters.rx_bytes += count;
		spin_unlock(&port->lock);
		if (count)
			port->deliver(port, bytes, errors, count,
			              received_ticks ? received_ticks : read_time());
		if (count < RX_BATCH ||
		    (until_throttled &&
		     __atomic_load_n(&port->receive_throttled, __ATOMIC_RELAXED)))
			break;
	}
	spin_unlock(&port->receiving);
}

void port_poll_receive(struct console_port *port, bool may_wait)
{
	port_receive(port, may_wait, false, 0);
}
