/* The async TX policy: write() copies into the port's TX ring and returns; the UART's
 * TX interrupt refills the FIFO from the ring; wakers finish the job. What it shares with
 * async,thread (the ring as a queue: refill, writes that wait for room, tcdrain, log
 * lines) is in ring_queue.c; what every console shares is the port's.
 *
 * Options (console=async,OPTION): ring=N  TX ring bytes (ring_queue.h).
 *
 * The races it is built against (PC16550D; NuttX issue 14662; docs/sources.md):
 *  - THRE behaves like an edge and can be swallowed (a polled IIR read, an interrupt
 *    that fired while TX was disabled): a writer that finds the transmitter idle loads
 *    the FIFO itself ("idle kick") instead of waiting for an interrupt that may never
 *    come.
 *  - TEMT has no interrupt: drain = sleep until the ring and the last FIFO load
 *    should be on the wire (parking until the ring is empty if it is not by then),
 *    then a bounded, sleeping wait for TEMT, an eighth of a character time per look.
 *  - Lost wake-ups: every park uses the waker protocol (WAIT_UNTIL), whose check is
 *    re-done after every wake.
 *  - Kernel log lines from any context: pushed without sleeping when they fit; when
 *    the ring is full they wait in the kernel log's buffer, and the TX interrupt offers
 *    them again after each refill, before writers get the room. Panic output bypasses
 *    the ring (the port's emergency path).
 *
 *  - The direct path: when nothing is queued or sending, a write goes straight into the
 *    FIFO for as long as the UART has room, and only the rest through the ring. A short
 *    write to an idle console then costs no ring copy and no interrupt (a TX interrupt
 *    that finds the ring empty is pure overhead; NuttX 13 takes one per write).
 *
 * Locking: the port's `lock` (spinlock) guards the ring producer side, the TX state and
 * the UART. Writers also hold the port's `writer` (a mutex) for a whole write so that
 * writers waiting for room are served in turn and a write goes in as one piece. */
#include "drivers/console/policy/policy.h"

#include "drivers/console/policy/ring_queue.h"

/* Start transmission if nothing will do it for us: load what fits now and enable the
 * TX interrupt, whose next THRE refills the rest. Enabling it even when the FIFO is
 * still busy matters: otherwise the bytes would wait for an edge nobody asked for
 * (tests/model/async_tx.pml finds that hang). Caller holds `lock`. */
static void kick_if_idle(struct console_port *port)
{
	if (port->tx_running || (ring_empty(&port->tx_ring) && !port->flow_char))
		return;
	refill_fifo(port, TRACE_LOAD_KICK);
	port->counters.idle_kicks++;
	port->tx_running = true;
	port->uart->ops->set_tx_interrupt(port->uart, true);
}

/* THRE, output not stopped (the port's interrupt handler, `lock` held): refill, and stop
 * once the ring is empty. */
static uint32_t async_tx_ready(struct console_port *port)
{
	refill_fifo(port, TRACE_LOAD_IRQ);
	stop_tx_if_emptied(port);
	return PORT_WAKE_ROOM | (ring_empty(&port->tx_ring) ? PORT_WAKE_DRAIN : 0);
}

static int async_init(struct console_port *port, const char *options)
{
	return ring_queue_init(port, options, false);
}

/* The console's write. The fast path is the common case: an idle console (nothing
 * queued, nothing sending) and a write that fits in the FIFO's room, which is every
 * short write on QEMU, whose UART sends at once, and a line at a time on a board. It
 * goes into the FIFO in one load, and is kept apart from ring_queue_write's loop so
 * that a 1-byte write saves few registers and makes no second look (about 30
 * instructions fewer under QEMU). Task context; may sleep unless `nonblocking`. */
static long async_write(struct console_port *port, const uint8_t *data, size_t length,
                        bool nonblocking)
{
	/* `writer` is held for a whole write, so another writer waits for it: EAGAIN under
	 * O_NONBLOCK, and a signal ends the wait (EINTR, nothing queued). */
	int locked = mutex_lock_for_call(&port->writer, nonblocking);
	if (locked)
		return locked;
	spin_lock(&port->lock);
	struct uart *uart = port->uart;
	if (!port->tx_running && ring_empty(&port->tx_ring) && !trace_enabled(TRACE_CONSOLE)) {
		uint32_t room = uart->ops->tx_room(uart);
		if (length <= room) {
			uart->ops->put_bytes(uart, data, (uint32_t)length);
			port_note_load(port, (uint32_t)length, room);
			port->counters.direct_writes++;
			port->counters.write_calls++;
			port->counters.bytes_written += length;
			spin_unlock(&port->lock);
			mutex_unlock(&port->writer);
			return (long)length;
		}
	}
	return ring_queue_write(port, data, length, nonblocking, true, true);
}

/* tcdrain. Most drains find the console idle already (on QEMU, whose UART sends at
 * once, every one after a direct write): one look under the lock, no sleeping. Else sleep
 * until the ring and the last load should be on the wire, then look for TEMT
 * (ring_queue_drain). Task context; may sleep. */
static int async_drain(struct console_port *port)
{
	return ring_queue_drain(port, true);
}

const struct console_policy console_async_policy = {
    .name = "async",
    .init = async_init,
    .write = async_write,
    .log_write = ring_queue_log_write,
    .kick = kick_if_idle,
    .tx_ready = async_tx_ready,
    .drain = async_drain,
};
