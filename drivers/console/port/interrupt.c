/* A console port's UART interrupt: taking it for a policy that uses it (the async
 * policies: the messages below name them), dispatching it
 * (RX to the receive path, THRE to the policy's refill), checking at boot that TX
 * interrupts really come, and giving the interrupt up when they do not. */
#include "drivers/console/port/port.h"

#include "kernel/irq/irq.h"
#include "kernel/log/log.h"
#include "kernel/mm/page.h"
#include "kernel/sched/sleep.h"
#include "kernel/timer/clock.h"
#include "kernel/trace/trace.h"

/* The UART interrupt, on the hart the PLIC routes it to. A THRE that finds output
 * stopped turns the TX interrupt off (port_set_output_stopped holds tx_running); else
 * the policy refills, after a waiting STOP/START, which goes even while stopped. */
static void port_interrupt(void *context)
{
	struct console_port *port = context;
	struct uart *uart = port->uart;
	uint32_t wake = 0;

	spin_lock(&port->lock);
	uint32_t events = uart->ops->acknowledge(uart);
	trace_event(TRACE_UART_IRQ, events, 0, 0, 0);
	if (events & UART_EVENT_TX_READY) {
		port->counters.thre_interrupts++;
		port_put_flow_char(port);
		if (port->output_stopped)
			uart->ops->set_tx_interrupt(uart, false);
		else
			wake = port->policy->tx_ready(port);
	}
	spin_unlock(&port->lock);
	port_wake(port, wake);
	if (events & (UART_EVENT_RX_READY | UART_EVENT_LINE))
		port_receive(port, true, false, irq_entered_ticks());
}

int port_use_interrupts(struct console_port *port, uint32_t ring_size)
{
	struct uart *uart = port->uart;
	if (port->tx_ring.capacity != ring_size) {
		uint8_t *memory = page_alloc_pages(ring_size / PAGE_SIZE);
		if (!memory) {
			log_printf("console: async: no memory for its ring\n");
			return -2;
		}
		ring_init(&port->tx_ring, memory, ring_size);
	}
	/* A tree whose UART interrupt Duplex could not read (irq 0) is not an option
	 * problem: say so, so that the fallback to polling is explained. */
	if (uart->irq == 0) {
		log_printf("console: async: the UART has no interrupt in the device tree "
		           "(neither interrupts nor interrupts-extended)\n");
		return -2;
	}
	if (irq_register(uart->irq, port_interrupt, port, 0) != 0) {
		log_printf("console: async: irq %u cannot be registered\n", uart->irq);
		return -2;
	}
	/* The last firmware-console print (the "UART up" breadcrumb) is behind us: from here
	 * Duplex alone drives the UART, so the driver may use its TX threshold (DW PTIME).
	 * kernel/boot hands it back before any later SBI console or reset call. */
	uart_set_sole_driver(uart, true);
	uart->ops->set_rx_interrupt(uart, true);
	port->rx_interrupt = true;
	return 0;
}

/* With nothing in flight, enabling the TX interrupt while the transmitter is empty
 * raises it at once [PC16550D table 4, THRE]; with output in flight it comes when the
 * FIFO drains. Either way the handler counts it. Polls with sleeps, so as not to depend
 * on a wake-up from the interrupt under test. The patience counts only time in which
 * the UART has room (THRE): before that the interrupt is not due. Under QEMU the UART
 * holds its bytes while the host is slow to take them from the serial socket, and with
 * -icount sleep=off the guest's sleeps skip ahead meanwhile, so 200 ms of guest time
 * can pass before the boot log's last bytes leave; counting that time failed the check
 * on a loaded host. A UART that never has room keeps every other path mute too (the
 * polled log spins on THRE as well). */
bool port_tx_interrupt_check(struct console_port *port, uint64_t patience_ns)
{
	struct uart *uart = port->uart;
	spin_lock(&port->lock);
	uint64_t before = port->counters.thre_interrupts;
	if (!port->tx_running) {
		port->tx_running = true;
		uart->ops->set_tx_interrupt(uart, true);
	}
	spin_unlock(&port->lock);
	uint64_t waited_with_room = 0, waited = 0, last = clock_now_ns();
	while (__atomic_load_n(&port->counters.thre_interrupts, __ATOMIC_RELAXED) == before) {
		spin_lock(&port->lock);
		bool room = uart->ops->tx_room(uart) > 0;
		spin_unlock(&port->lock);
		sleep_for(1000000);
		uint64_t now = clock_now_ns();
		waited += now - last;
		if (room)
			waited_with_room += now - last;
		last = now;
		if (waited_with_room >= patience_ns) {
			spin_lock(&port->lock);
			bool idle = uart->ops->tx_idle(uart);
			spin_unlock(&port->lock);
			log_printf("console: async: %lu ms with room in the UART (THRE) and no TX "
			           "interrupt counted (%lu ms in all); irq %u handled %lu times "
			           "since boot; the UART is %s\n",
			           (unsigned long)(waited_with_room / 1000000),
			           (unsigned long)(waited / 1000000), uart->irq,
			           (unsigned long)irq_count(uart->irq),
			           idle ? "idle (TEMT)" : "still sending");
			return false;
		}
	}
	return true;
}

/* Received bytes are the line discipline's already, so none is lost. */
void port_stop_interrupts(struct console_port *port)
{
	struct uart *uart = port->uart;
	spin_lock(&port->lock);
	uart->ops->set_tx_interrupt(uart, false);
	uart->ops->set_rx_interrupt(uart, false);
	uart_set_sole_driver(uart, false); /* the polling policy needs no TX threshold */
	port->tx_running = false;
	port->rx_interrupt = false;
	if (port->flow_char) {
		uart_write_polled(uart, (const char *)&port->flow_char, 1);
		port->flow_char = 0;
	}
	uint8_t bytes[256];
	uint32_t count;
	while ((count = ring_pop(&port->tx_ring, bytes, sizeof bytes)) > 0)
		uart_write_polled(uart, (const char *)bytes, count);
	spin_unlock(&port->lock);
}
