/* The polling TX policy: write() runs in the caller and returns when every
 * byte is in the UART; tcdrain spins until TEMT; a signal for the caller ends either
 * (looked for where the spin waits: see send and drain). The receiver is looked at
 * only when the core asks (poll_receive: a read looking for input, every millisecond
 * while it waits, and the core's RX watch every 10 ms while its buffer has room), while
 * a writer is stopped by ^S, and once each time a writer waits for room (a ^C typed
 * during a long write would otherwise reach nobody).
 *
 * Options (console=polling,OPTION):
 *   fifo  (default) wait for THRE once, then load a whole FIFO's worth — the Linux
 *         8250 console since the "Use fifo in 8250 console driver" patch
 *         (linux-serial, v5, 2022);
 *   byte  wait for THRE before every byte, as the 8250 console did before it.
 *
 * Locking: writers take the port's `writer` (a sleeping mutex) for a whole write, so
 * a write is never interleaved with another; each look at the UART and the FIFO load it
 * allows happen under the port's `lock` (a spinlock: interrupts masked for that only,
 * never while waiting for the wire, never for a whole write). Kernel log lines cannot
 * sleep: when a writer holds the mutex they stay in the kernel log's buffer, and the
 * writer offers them again when it is done (log_flush_console).
 *
 * Everything else — the receive path, STOP/START, break, the counters, the panic path —
 * is the port's (drivers/console/port/). */
#include "drivers/console/policy/policy.h"

#include "kernel/hart/csr.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/sleep.h"
#include "kernel/sync/mutex.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"
#include "kernel/trace/trace.h"

#define RX_POLL_NS 1000000 /* a writer stopped by ^S looks for ^Q this often */

/* console=polling[,fifo|byte]. */
static int polling_init(struct console_port *port, const char *options)
{
	port->byte_mode = strcmp(options, "byte") == 0;
	if (!port->byte_mode && options[0] && strcmp(options, "fifo") != 0)
		return -1;
	if (port->byte_mode)
		format_buffer(port->description, sizeof port->description,
		              "polling,byte (one byte per THRE wait)");
	else
		format_buffer(port->description, sizeof port->description,
		              "polling,fifo (up to %u bytes per THRE wait)",
		              port->uart->fifo_depth);
	return 0;
}

/* One load: take `lock`, look for room and put what fits (byte mode: byte by byte,
 * looking before each, up to a FIFO's worth). Returns how many bytes went; 0 when there
 * was no room, after letting go of the lock, so interrupts are on between looks: a
 * writer waiting for the wire must not keep its hart deaf for a whole FIFO's drain (under
 * QEMU -icount that made sleepers on other harts wake up to 10 ms late, bench S43). */
static inline size_t load_once(struct console_port *port, const uint8_t *data, size_t length,
                               bool traced)
{
	struct uart *uart = port->uart;
	size_t sent;
	spin_lock(&port->lock);
	if (port->byte_mode) {
		uint32_t step = length < uart->fifo_depth ? (uint32_t)length : uart->fifo_depth;
		sent = uart_put_each_byte(uart, data, step);
		port->counters.fifo_loads += sent; /* one THR load per byte */
	} else {
		uint32_t room = uart->ops->tx_room(uart);
		sent = room < length ? room : length;
		if (sent) {
			uart->ops->put_bytes(uart, data, (uint32_t)sent);
			port->counters.fifo_loads++;
		}
	}
	if (sent) {
		port->counters.thr_bytes += sent;
		if (traced)
			trace_emit(TRACE_FIFO_LOAD, (uint32_t)sent,
			           port->byte_mode ? TRACE_LOAD_POLL_BYTE : TRACE_LOAD_POLL, 0, 0);
	} else
		port->counters.tx_busy_polls++;
	spin_unlock(&port->lock);
	return sent;
}

/* ^S came (IXON) or TCOOFF: wait, looking at the receiver for the ^Q that nothing else
 * would see (this policy has no RX interrupt). True once output may go on; false when a
 * signal for the caller ended the wait (sched.h's "Interruptible waits", as the async
 * policy's wait for ring room). Task context; sleeps. */
static bool __attribute__((noinline)) wait_while_stopped(struct console_port *port)
{
	while (__atomic_load_n(&port->output_stopped, __ATOMIC_ACQUIRE)) {
		port_poll_receive(port, true);
		if (__atomic_load_n(&port->output_stopped, __ATOMIC_ACQUIRE) &&
		    sleep_until_interruptible(clock_now_ns() + RX_POLL_NS))
			return false;
	}
	return true;
}

/* The writer's wait for room, once per wait (on a line, once a FIFO): look at the
 * receiver, since a ^C or ^S typed during a long write would otherwise wait for a reader
 * or the RX watch (unless the core's read buffer is nearly full: the bytes then wait in
 * the UART, port_set_receive_throttled), then say whether the write should stop here: a
 * signal for the caller is pending (Linux n_tty_write looks for one before each wait for
 * room too), or ^S stopped output and a signal ended that wait. Out of line: a write the
 * UART takes at once never comes here. Task context; may sleep (^S). */
static bool __attribute__((noinline)) writer_should_stop(struct console_port *port, bool first_look)
{
	if (first_look && !__atomic_load_n(&port->receive_throttled, __ATOMIC_RELAXED))
		port_receive(port, true, true, 0);
	if (sched_signal_pending())
		return true;
	return __atomic_load_n(&port->output_stopped, __ATOMIC_RELAXED) &&
	       !wait_while_stopped(port);
}

/* `writer_context`: a write, which waits while output is stopped and which a signal
 * for the caller ends at the next wait for room (the UART full: on a line, about once a
 * FIFO; a write the UART takes at once, QEMU's without the line model, never looks);
 * kernel log lines and echo (any context) never wait, and go out whole even then.
 * Returns how many bytes went: all of them unless a signal stopped a write. One load
 * per lock hold; whether the tracer records the console is looked at once per write.
 * Out of line: a short write to an idle UART is done by polling_write's first load. */
static size_t __attribute__((noinline))
send(struct console_port *port, const uint8_t *data, size_t length, bool writer_context)
{
	bool traced = trace_enabled(TRACE_CONSOLE);
	const uint8_t *start = data, *end = data + length;
	const uint8_t *looked_at = 0; /* where the last wait for room began */
	if (writer_context && __atomic_load_n(&port->output_stopped, __ATOMIC_RELAXED) &&
	    !wait_while_stopped(port))
		return 0;
	while (data < end) {
		size_t sent = load_once(port, data, (size_t)(end - data), traced);
		data += sent;
		/* No room. ^S and signals are looked for here, not per load: a write the
		 * UART takes at once pays nothing, and is stopped at its start
		 * (polling_write) if it comes after the ^S. The receiver is looked at once
		 * per wait (`looked_at`), not per look. */
		if (!sent && writer_context) {
			bool first_look = looked_at != data;
			looked_at = data;
			if (writer_should_stop(port, first_look))
				break;
		}
	}
	return (size_t)(data - start);
}

/* The console's write: every byte is in the UART when it returns, unless a signal for
 * the caller came while it waited for room: then the count of bytes already in the UART,
 * or -ERESTARTSYS when none were (EINTR, or a restart under SA_RESTART), as POSIX's
 * write and Linux's n_tty_write. Task context; sleeps when output is stopped or another
 * writer has the UART. */
static long polling_write(struct console_port *port, const uint8_t *data, size_t length,
                          bool nonblocking)
{
	/* O_NONBLOCK cannot avoid the wait for the wire here: a polled write always
	 * completes; only another writer's write is not waited for. A signal ends the wait
	 * for that writer, before any byte went. */
	int locked = mutex_lock_for_call(&port->writer, nonblocking);
	if (locked)
		return locked;
	/* The first load here, outside send's loop: for a write that fits in the room the
	 * UART has (every short write on QEMU, whose UART sends at once) it is the only one,
	 * and this way costs about 30 instructions fewer. */
	size_t sent =
	    trace_enabled(TRACE_CONSOLE) || __atomic_load_n(&port->output_stopped, __ATOMIC_RELAXED)
	        ? 0
	        : load_once(port, data, length, false);
	if (sent < length)
		sent += send(port, data + sent, length - sent, true);
	port->counters.write_calls++;
	port->counters.bytes_written += sent;
	mutex_unlock(&port->writer);
	/* Log lines that found `writer` taken while we wrote: print them now. A line logged
	 * after this look found `writer` free and went out itself. */
	if (port->kernel_console && log_console_behind())
		log_flush_console();
	if (sent == 0 && length > 0) /* a signal before any byte went */
		return -ERESTARTSYS;
	return (long)sent;
}

/* tcdrain, TCSETSW, TCSETSF, tcsendbreak: spin until TEMT; interrupts are masked only
 * around each look at the UART. A signal for the caller ends the spin with -ERESTARTSYS
 * (tcdrain's EINTR, or a restart under SA_RESTART; Linux tty_wait_until_sent waits
 * interruptibly too), looked for between looks. Task context. */
static int polling_drain(struct console_port *port)
{
	bool waited = false;
	for (uint32_t looks = 1;; looks++) {
		spin_lock(&port->lock);
		bool idle = port->uart->ops->tx_idle(port->uart);
		if (!idle && !waited) {
			port->counters.drain_waits++;
			waited = true;
		}
		spin_unlock(&port->lock);
		if (idle) {
			trace_event(TRACE_TEMT_SEEN, looks, 0, 0, 0);
			return 0;
		}
		if (sched_signal_pending())
			return -ERESTARTSYS;
	}
}

/* A kernel log line: sent polled now, unless a writer is mid-write; then false, and
 * that writer offers the line again when it is done (polling_write). Any context. */
static bool polling_log_write(struct console_port *port, const char *text, size_t length)
{
	if (!mutex_trylock(&port->writer))
		return false;
	send(port, (const uint8_t *)text, length, false);
	mutex_unlock(&port->writer);
	return true;
}

const struct console_policy console_polling_policy = {
    .name = "polling",
    .init = polling_init,
    .write = polling_write,
    .log_write = polling_log_write,
    .drain = polling_drain,
};
