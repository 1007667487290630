/* The polling console backend: write() runs in the caller and returns when every
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
 * Locking: writers take `writer` (a sleeping mutex) for a whole write, so a write
 * is never interleaved with another; each look at the UART and the FIFO load it allows
 * happen under `hardware` (a spinlock: interrupts masked for that only, never while
 * waiting for the wire, never for a whole write). Kernel log
 * lines cannot sleep: when a writer holds the mutex they stay in the kernel log's
 * buffer, and the writer offers them again when it is done (log_flush_console). */
#include "drivers/console/backend/backend.h"

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
#define RX_BATCH   64      /* bytes taken from the receiver per hand-over */

static struct uart *uart;
static bool byte_mode;
static console_receive_fn deliver;
static bool output_stopped; /* IXON ^S / TCOOFF: writers wait (atomic accesses) */
/* Serialises taking bytes from the receiver with handing them over, so that two
 * pollers (a reader and a stopped writer) cannot hand batches over out of order. */
static struct spinlock receiving = SPINLOCK_INIT("console polling rx");
static struct mutex writer = MUTEX_INIT("console writer");
static struct spinlock hardware = SPINLOCK_INIT("console uart");
static struct console_telemetry counters;

static int polling_init(struct uart *console_uart, const char *options, console_receive_fn receive)
{
	uart = console_uart;
	deliver = receive;
	if (strcmp(options, "byte") == 0)
		byte_mode = true;
	else if (options[0] && strcmp(options, "fifo") != 0)
		return -1;
	return 0;
}

static void polling_describe(char *buffer, size_t size)
{
	if (byte_mode)
		format_buffer(buffer, size, "polling,byte (one byte per THRE wait)");
	else
		format_buffer(buffer, size, "polling,fifo (up to %u bytes per THRE wait)",
		              uart->fifo_depth);
}

/* One load: take `hardware`, look for room and put what fits (byte mode: byte by byte,
 * looking before each, up to a FIFO's worth). Returns how many bytes went; 0 when there
 * was no room, after letting go of the lock, so interrupts are on between looks: a
 * writer waiting for the wire must not keep its hart deaf for a whole FIFO's drain (under
 * QEMU -icount that made sleepers on other harts wake up to 10 ms late, bench S43). */
static inline size_t load_once(const uint8_t *data, size_t length, bool traced)
{
	size_t sent;
	spin_lock(&hardware);
	if (byte_mode) {
		uint32_t step = length < uart->fifo_depth ? (uint32_t)length : uart->fifo_depth;
		sent = uart_put_each_byte(uart, data, step);
		counters.fifo_loads += sent; /* one THR load per byte */
	} else {
		uint32_t room = uart->ops->tx_room(uart);
		sent = room < length ? room : length;
		if (sent) {
			uart->ops->put_bytes(uart, data, (uint32_t)sent);
			counters.fifo_loads++;
		}
	}
	if (sent) {
		counters.thr_bytes += sent;
		if (traced)
			trace_emit(TRACE_FIFO_LOAD, (uint32_t)sent,
			           byte_mode ? TRACE_LOAD_POLL_BYTE : TRACE_LOAD_POLL, 0, 0);
	} else
		counters.tx_busy_polls++;
	spin_unlock(&hardware);
	return sent;
}

static void polling_poll_receive(void);
static void receive_batches(bool may_wait, bool until_throttled);

/* The core's read buffer is nearly full (ops->set_receive_throttled): a writer's look
 * then leaves the bytes in the UART, where QEMU holds back the rest and a real line
 * overruns its FIFO, counted, rather than the core dropping them. A reader's look and
 * the RX watch take them still (the watch keeps its own margin). */
static bool receive_throttled;

/* ^S came (IXON) or TCOOFF: wait, looking at the receiver for the ^Q that nothing else
 * would see (this backend has no RX interrupt). True once output may go on; false when a
 * signal for the caller ended the wait (sched.h's "Interruptible waits", as the async
 * backend's wait for ring room). Task context; sleeps. */
static bool __attribute__((noinline)) wait_while_stopped(void)
{
	while (__atomic_load_n(&output_stopped, __ATOMIC_ACQUIRE)) {
		polling_poll_receive();
		if (__atomic_load_n(&output_stopped, __ATOMIC_ACQUIRE) &&
		    sleep_until_interruptible(clock_now_ns() + RX_POLL_NS))
			return false;
	}
	return true;
}

/* The writer's wait for room, once per wait (on a line, once a FIFO): look at the
 * receiver, since a ^C or ^S typed during a long write would otherwise wait for a reader
 * or the RX watch, then say whether the write should stop here: a signal for the caller
 * is pending (Linux n_tty_write looks for one before each wait for room too), or ^S
 * stopped output and a signal ended that wait. Out of line: a write the UART takes at
 * once never comes here. Task context; may sleep (^S). */
static bool __attribute__((noinline)) writer_should_stop(bool first_look)
{
	if (first_look && !__atomic_load_n(&receive_throttled, __ATOMIC_RELAXED))
		receive_batches(true, true);
	if (sched_signal_pending())
		return true;
	return __atomic_load_n(&output_stopped, __ATOMIC_RELAXED) && !wait_while_stopped();
}

/* `writer_context`: a write, which waits while output is stopped and which a signal
 * for the caller ends at the next wait for room (the UART full: on a line, about once a
 * FIFO; a write the UART takes at once, QEMU's without the line model, never looks);
 * kernel log lines and echo (any context) never wait, and go out whole even then.
 * Returns how many bytes went: all of them unless a signal stopped a write. One load
 * per lock hold; whether the tracer records the console is looked at once per write.
 * Out of line: a short write to an idle UART is done by polling_write's first load. */
static size_t __attribute__((noinline))
send(const uint8_t *data, size_t length, bool writer_context)
{
	bool traced = trace_enabled(TRACE_CONSOLE);
	const uint8_t *start = data, *end = data + length;
	const uint8_t *looked_at = 0; /* where the last wait for room began */
	if (writer_context && __atomic_load_n(&output_stopped, __ATOMIC_RELAXED) &&
	    !wait_while_stopped())
		return 0;
	while (data < end) {
		size_t sent = load_once(data, (size_t)(end - data), traced);
		data += sent;
		/* No room. ^S and signals are looked for here, not per load: a write the
		 * UART takes at once pays nothing, and is stopped at its start
		 * (polling_write) if it comes after the ^S. The receiver is looked at once
		 * per wait (`looked_at`), not per look. */
		if (!sent && writer_context) {
			bool first_look = looked_at != data;
			looked_at = data;
			if (writer_should_stop(first_look))
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
static long polling_write(const uint8_t *data, size_t length, bool nonblocking)
{
	/* O_NONBLOCK cannot avoid the wait for the wire here: a polled write always
	 * completes; only another writer's write is not waited for. A signal ends the wait
	 * for that writer, before any byte went. */
	int locked = mutex_lock_for_call(&writer, nonblocking);
	if (locked)
		return locked;
	/* The first load here, outside send's loop: for a write that fits in the room the
	 * UART has (every short write on QEMU, whose UART sends at once) it is the only one,
	 * and this way costs about 30 instructions fewer. */
	size_t sent =
	    trace_enabled(TRACE_CONSOLE) || __atomic_load_n(&output_stopped, __ATOMIC_RELAXED)
	        ? 0
	        : load_once(data, length, false);
	if (sent < length)
		sent += send(data + sent, length - sent, true);
	counters.write_calls++;
	counters.bytes_written += sent;
	mutex_unlock(&writer);
	/* Log lines that found `writer` taken while we wrote: print them now. A line logged
	 * after this look found `writer` free and went out itself. */
	if (log_console_behind())
		log_flush_console();
	if (sent == 0 && length > 0) /* a signal before any byte went */
		return -ERESTARTSYS;
	return (long)sent;
}

/* Spin until TEMT; interrupts are masked only around each look at the UART. With
 * `interruptible`, a signal for the caller ends the spin with -ERESTARTSYS (tcdrain's
 * EINTR, or a restart under SA_RESTART; Linux tty_wait_until_sent waits interruptibly
 * too), looked for between looks. Task context. */
static inline __attribute__((always_inline)) int drain(bool interruptible)
{
	bool waited = false;
	for (uint32_t looks = 1;; looks++) {
		spin_lock(&hardware);
		bool idle = uart->ops->tx_idle(uart);
		if (!idle && !waited) {
			counters.drain_waits++;
			waited = true;
		}
		spin_unlock(&hardware);
		if (idle) {
			trace_event(TRACE_TEMT_SEEN, looks, 0, 0, 0);
			return 0;
		}
		if (interruptible && sched_signal_pending())
			return -ERESTARTSYS;
	}
}

/* ops->drain: tcdrain, TCSETSW, TCSETSF, tcsendbreak. */
static int polling_drain(void)
{
	return drain(true);
}

static long polling_set_baud(uint32_t baud)
{
	mutex_lock(&writer); /* log lines wait in the log buffer meanwhile */
	drain(false);        /* the old rate's bytes leave first, signal or not */
	spin_lock(&hardware);
	uint32_t in_force = uart_set_baud(uart, baud);
	spin_unlock(&hardware);
	mutex_unlock(&writer);
	if (log_console_behind())
		log_flush_console();
	return in_force ? (long)in_force : -EINVAL;
}

/* Everything the receiver holds, to the core's receiver, a batch at a time: taken
 * under `hardware`, handed over after letting go of it (the receiver echoes through
 * polling_log_write). `may_wait` false: give up at once, before any byte is taken, when
 * another poller or a writer holds a lock. `until_throttled`: a writer's look, which
 * stops after the batch that made the core throttle. Never sleeps. */
static void receive_batches(bool may_wait, bool until_throttled)
{
	uint8_t bytes[RX_BATCH], errors[RX_BATCH];
	if (may_wait)
		spin_lock(&receiving);
	else if (!spin_trylock(&receiving))
		return;
	for (;;) {
		size_t count = 0;
		if (may_wait)
			spin_lock(&hardware);
		else if (!spin_trylock(&hardware))
			break;
		while (count < RX_BATCH && uart->ops->rx_ready(uart)) {
			errors[count] = 0;
			bytes[count] = uart->ops->get_byte(uart, &errors[count]);
			if (errors[count] & UART_ERROR_OVERRUN)
				counters.rx_overruns++;
			if (errors[count] & ~UART_ERROR_OVERRUN)
				counters.rx_errors++;
			count++;
		}
		counters.rx_bytes += count;
		spin_unlock(&hardware);
		if (count) /* no interrupt: the kernel learns of them now */
			deliver(bytes, errors, count, read_time());
		if (count < RX_BATCH ||
		    (until_throttled && __atomic_load_n(&receive_throttled, __ATOMIC_RELAXED)))
			break;
	}
	spin_unlock(&receiving);
}

/* ops->poll_receive: task context, or a stopped writer's wait; waits for the locks. */
static void polling_poll_receive(void)
{
	receive_batches(true, false);
}

/* ops->try_poll_receive: the core's RX watch timer (drivers/console/input.c), interrupt
 * context: a busy UART is looked at next time. */
static void polling_try_poll_receive(void)
{
	receive_batches(false, false);
}

/* ops->set_receive_throttled: see receive_throttled. */
static void polling_set_receive_throttled(bool throttled)
{
	__atomic_store_n(&receive_throttled, throttled, __ATOMIC_RELAXED);
}

/* ops->set_output_stopped: writers look at the flag before each load. */
static void polling_set_output_stopped(bool stopped)
{
	__atomic_store_n(&output_stopped, stopped, __ATOMIC_RELEASE);
}

/* ops->send_flow_char: straight into the UART, between two loads of a write in progress
 * (each load takes `hardware` anew), and even while output is stopped, as Linux sends
 * x_char. Waits for room with `hardware` let go between looks: at most until one byte
 * has left the FIFO. Any context; never sleeps. */
static void polling_send_flow_char(uint8_t byte)
{
	for (;;) {
		spin_lock(&hardware);
		bool room = uart->ops->tx_room(uart) > 0;
		if (room) {
			uart->ops->put_bytes(uart, &byte, 1);
			counters.fifo_loads++;
			counters.thr_bytes++;
			counters.flow_chars++;
		} else {
			counters.tx_busy_polls++;
		}
		spin_unlock(&hardware);
		if (room)
			return;
		cpu_relax();
	}
}

/* ops->flush_output: nothing is queued outside the UART's FIFO here. */
static void polling_flush_output(void)
{
}

static bool polling_set_break(bool on)
{
	spin_lock(&hardware);
	bool done = uart_set_break(uart, on);
	spin_unlock(&hardware);
	return done;
}

static size_t polling_output_queued(void)
{
	spin_lock(&hardware);
	bool idle = uart->ops->tx_idle(uart);
	spin_unlock(&hardware);
	return idle ? 0 : 1;
}

/* A kernel log line: sent polled now, unless a writer is mid-write; then false, and
 * that writer offers the line again when it is done (polling_write). Any context. */
static bool polling_log_write(const char *text, size_t length)
{
	if (!mutex_trylock(&writer))
		return false;
	send((const uint8_t *)text, length, false);
	mutex_unlock(&writer);
	return true;
}

/* Panic: polled, without `hardware` (its holder may be dead). */
static void polling_emergency_write(const char *text, size_t length)
{
	uart_write_polled(uart, text, length);
}

static void polling_telemetry(struct console_telemetry *out)
{
	*out = counters;
}

static void polling_reset_telemetry(void)
{
	memset(&counters, 0, sizeof counters);
}

const struct console_backend_ops console_polling_backend = {
    .name = "polling",
    .init = polling_init,
    .describe = polling_describe,
    .write = polling_write,
    .drain = polling_drain,
    .set_baud = polling_set_baud,
    .poll_receive = polling_poll_receive,
    .try_poll_receive = polling_try_poll_receive,
    .output_queued = polling_output_queued,
    .set_output_stopped = polling_set_output_stopped,
    .set_receive_throttled = polling_set_receive_throttled,
    .send_flow_char = polling_send_flow_char,
    .flush_output = polling_flush_output,
    .set_break = polling_set_break,
    .log_write = polling_log_write,
    .emergency_write = polling_emergency_write,
    .telemetry = polling_telemetry,
    .reset_telemetry = polling_reset_telemetry,
};
