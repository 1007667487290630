/* The async,thread TX policy: write() copies into the port's TX ring and returns, as
 * async does, but a kernel task, the copier, moves bytes from the ring to the FIFO; the
 * TX interrupt only wakes it. The design of the StarryOS async UART driver and of Linux's
 * threaded consoles (nbcon's printer kthreads): every write goes through the ring, and
 * each FIFO load costs a wake-up and a context switch (docs/async-vs-polling.md measures
 * what that costs). The ring as a queue is ring_queue.c's, as for async.
 *
 * Options (console=async,thread[,OPTION]): ring=N  TX ring bytes (ring_queue.h).
 *
 * Locking: the port's `lock` guards the ring, the TX state and the UART; the copier
 * takes it for each refill. A task cannot be woken from inside the kick (the kernel log
 * calls it from any context, scheduler code included), so the kick only enables the TX
 * interrupt, and the interrupt wakes the copier. */
#include "drivers/console/policy/policy.h"

#include "drivers/console/policy/ring_queue.h"
#include "kernel/log/log.h"
#include "kernel/sched/sched.h"

/* Bytes are queued and nothing is sending: enable the TX interrupt, whose THRE (at once
 * with the FIFO empty, else when it drains) wakes the copier. Caller holds `lock`. */
static void kick_copier(struct console_port *port)
{
	if (port->tx_running || (ring_empty(&port->tx_ring) && !port->flow_char))
		return;
	port->counters.idle_kicks++;
	port->tx_running = true;
	port->uart->ops->set_tx_interrupt(port->uart, true);
}

/* THRE, output not stopped (the port's interrupt handler, `lock` held): the interrupt
 * stays off until the copier has loaded the FIFO; the copier is woken, or, the ring
 * empty, TX stops. */
static uint32_t thread_tx_ready(struct console_port *port)
{
	port->uart->ops->set_tx_interrupt(port->uart, false);
	if (ring_empty(&port->tx_ring)) {
		port->tx_running = false;
		return PORT_WAKE_DRAIN;
	}
	port->fifo_wanted = true;
	return PORT_WAKE_COPIER;
}

static bool copier_has_work(struct console_port *port)
{
	return __atomic_load_n(&port->fifo_wanted, __ATOMIC_ACQUIRE);
}

/* console=async,thread: the copier. Woken by the TX interrupt (fifo_wanted), it loads
 * one FIFO's worth, re-enables the interrupt for the next THRE (unless that load emptied
 * the ring: stop_tx_if_emptied) and wakes writers waiting for room and, once the ring is
 * empty, drainers. Any hart; sleeps. */
static void copier_main(void *argument)
{
	struct console_port *port = argument;
	waker_init(&port->copier);
	for (;;) {
		trace_event(TRACE_COPIER_SLEEP, 0, 0, 0, 0);
		WAIT_UNTIL(copier_has_work(port));
		trace_event(TRACE_COPIER_WAKE, 0, 0, 0, 0);
		spin_lock(&port->lock);
		port->fifo_wanted = false;
		if (!port->output_stopped) /* woken before ^S came: load nothing */
			refill_fifo(port, TRACE_LOAD_COPIER);
		bool drained = ring_empty(&port->tx_ring);
		if (port->output_stopped || !drained || port->flow_char)
			port->uart->ops->set_tx_interrupt(port->uart, true);
		else /* as stop_tx_if_emptied: the interrupt is off already */
			port->tx_running = false;
		spin_unlock(&port->lock);
		port_wake(port, PORT_WAKE_ROOM | (drained ? PORT_WAKE_DRAIN : 0));
	}
}

/* From the init task: the copier. Bytes logged before it runs wait in the ring (the
 * interrupt leaves fifo_wanted set for it). */
static void thread_start(struct console_port *port)
{
	if (!task_create("console copier", copier_main, port, ALL_HARTS))
		log_printf("console: no memory for the copier task; output will stop\n");
}

static int thread_init(struct console_port *port, const char *options)
{
	return ring_queue_init(port, options, true);
}

/* Every write through the ring: no direct path, the copier sends it all. */
static long thread_write(struct console_port *port, const uint8_t *data, size_t length,
                         bool nonblocking)
{
	return ring_queue_write(port, data, length, nonblocking, false, false);
}

/* Park until the ring is empty, then look for TEMT (no wire estimate: the copier loads
 * each FIFO a wake-up after THRE). */
static int thread_drain(struct console_port *port)
{
	return ring_queue_drain(port, false);
}

const struct console_policy console_async_thread_policy = {
    .name = "async,thread",
    .init = thread_init,
    .start = thread_start,
    .write = thread_write,
    .log_write = ring_queue_log_write,
    .kick = kick_copier,
    .tx_ready = thread_tx_ready,
    .drain = thread_drain,
};
