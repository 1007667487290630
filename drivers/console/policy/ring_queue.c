/* The port's TX ring as a queue: what the two async policies share (policy/async.c, whose
 * TX interrupt refills the FIFO, and policy/async_thread.c, whose copier task does): the
 * ring's size from ring=N, the refill that moves a FIFO's worth from the ring to the
 * UART, a write that queues and waits for room, tcdrain's wait for a wire with no TEMT
 * interrupt, and a log line pushed without sleeping. Where TX must start, each calls the
 * policy's kick (port->policy->kick). ring_queue.h says who calls what. */
#include "drivers/console/policy/ring_queue.h"

#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/sched/sleep.h"
#include "kernel/timer/clock.h"

/* Without ring=N: 16 KiB per hart the device tree names, at least 64 KiB, rounded up
 * to a power of two (1-4 harts: 64 KiB; 5-8: 128 KiB). Every hart can run a writer, so
 * the bursts a ring must absorb without blocking grow with the harts: bench S44's 8
 * writers offer 8 x 12.8 KiB at once. Linux sizes its printk buffer the same way
 * (kernel/printk/printk.c, log_buf_add_cpu: CONFIG_LOG_CPU_MAX_BUF_SHIFT per CPU). */
#define DEFAULT_RING_SIZE (64 * 1024)
#define RING_PER_HART     (16 * 1024)
#define MAX_RING_SIZE     (16u << 20)
/* tcdrain looks for TEMT this often per character time: it returns at most 1/8 of a
 * character late (11 us at 115200), for a few more short sleeps at the end of a drain. */
#define LOOKS_PER_CHARACTER 8
/* ... but across the instant TEMT is due it spins, from this long before to this long
 * after, because waking from a timer costs more: on the line model at 115200 (QEMU
 * -icount) a drain that slept to the instant returned 2.5 us after it, one that slept to
 * 2 us before and spun returned 0.8 us after, as polling does; a longer window only
 * burns more CPU. */
#define DRAIN_SPIN_NS 2000

/* One option: "ring=N" (into *ring_size). Returns false for anything else. */
static bool parse_option(const char *option, size_t length, uint32_t *ring_size)
{
	if (length <= 5 || strncmp(option, "ring=", 5) != 0)
		return false;
	uint64_t size = 0;
	for (size_t i = 5; i < length; i++) {
		if (option[i] < '0' || option[i] > '9')
			return false;
		size = size * 10 + (uint64_t)(option[i] - '0');
		if (size > MAX_RING_SIZE)
			return false;
	}
	if (size < CONSOLE_ATOMIC_MAX || (size & (size - 1)))
		return false;
	*ring_size = (uint32_t)size;
	return true;
}

/* The ring's size without ring=N: see DEFAULT_RING_SIZE. */
static uint32_t default_ring_size(int harts)
{
	uint64_t wanted = (uint64_t)RING_PER_HART * (uint64_t)(harts > 0 ? harts : 1);
	uint32_t size = DEFAULT_RING_SIZE;
	while (size < wanted && size < MAX_RING_SIZE)
		size <<= 1;
	return size;
}

int ring_queue_init(struct console_port *port, const char *options, bool copier)
{
	uint32_t ring_size = 0;
	while (*options) {
		size_t length = 0;
		while (options[length] && options[length] != ',')
			length++;
		if (!parse_option(options, length, &ring_size))
			return -1;
		options += length;
		if (*options == ',')
			options++;
	}
	if (!ring_size)
		ring_size = default_ring_size(hart_count());
	int status = port_use_interrupts(port, ring_size);
	if (status != 0)
		return status;
	/* The boot log's line: with a TX threshold the interrupt comes while the FIFO still
	 * holds that many. */
	struct uart *uart = port->uart;
	char when[40] = "";
	if (uart->tx_threshold)
		format_buffer(when, sizeof when, " at <= %u queued", uart->tx_threshold);
	uint32_t refill = uart->fifo_depth - uart->tx_threshold;
	if (copier)
		format_buffer(port->description, sizeof port->description,
		              "async,thread,ring=%u (a kernel task refills up to %u bytes per TX "
		              "interrupt%s, irq %u)",
		              port->tx_ring.capacity, refill, when, uart->irq);
	else
		format_buffer(port->description, sizeof port->description,
		              "async,ring=%u (TX interrupt%s refills up to %u bytes, irq %u)",
		              port->tx_ring.capacity, when, refill, uart->irq);
	return 0;
}

/* The tracer's records of a refill: the pop (with the ring's fill after it) and the
 * load. Out of line: refill_fifo calls it only while the console class is recorded.
 * Caller holds `lock`. */
static void __attribute__((noinline))
trace_refill(struct console_port *port, uint32_t count, enum trace_load_path path)
{
	trace_emit(TRACE_RING_POP, count, ring_used(&port->tx_ring), 0, 0);
	trace_emit(TRACE_FIFO_LOAD, count, path, 0, 0);
}

/* Move up to one FIFO's worth (with a TX threshold: the free space) from the ring to
 * the UART, for `path`, a waiting STOP/START first. Caller holds `lock`. */
uint32_t refill_fifo(struct console_port *port, enum trace_load_path path)
{
	struct uart *uart = port->uart;
	uint8_t bytes[256];
	uint32_t sent_flow_char = port_put_flow_char(port);
	uint32_t room = uart->ops->tx_room(uart);
	if (room > sizeof bytes)
		room = sizeof bytes;
	uint32_t count = ring_pop(&port->tx_ring, bytes, room);
	if (count) {
		uart->ops->put_bytes(uart, bytes, count);
		port->counters.ring_pops++;
		port_note_load(port, count, room);
		/* A TX interrupt comes while the last byte before it is still in the shift
		 * register (THRE: the FIFO has emptied into it; a threshold: more are
		 * queued), so tcdrain's wait counts that byte too. A late interrupt makes
		 * the drain at most one character late, never early. */
		if (path == TRACE_LOAD_IRQ)
			port->last_load_bytes++;
		if (trace_enabled(TRACE_CONSOLE))
			trace_refill(port, count, path);
	}
	return count + sent_flow_char;
}

/* After a refill: stop the TX interrupt once nothing is left to send after the bytes
 * just loaded (Linux's serial8250_tx_chars calls __stop_tx when uart_circ_empty after
 * filling the FIFO), instead of taking one more interrupt only to find the ring empty.
 * Decided from this refill's own result under `lock`, which every ring push also holds,
 * so no push can slip in between; the next push finds tx_running false and kicks, and
 * its kick enables the interrupt again, whose THRE comes when the FIFO drains (uart.h).
 * Caller holds `lock`. */
void stop_tx_if_emptied(struct console_port *port)
{
	if (!ring_empty(&port->tx_ring) || port->flow_char)
		return;
	port->tx_running = false;
	port->uart->ops->set_tx_interrupt(port->uart, false);
}

struct room_wanted {
	struct console_port *port;
	uint32_t length;
};

static bool room_for(void *argument)
{
	struct room_wanted *wanted = argument;
	return ring_free(&wanted->port->tx_ring) >= wanted->length;
}
/* The direct path: load the FIFO from `data` for as long as the UART takes bytes (on
 * QEMU, whose UART sends at once, the whole write; on a real one, a FIFO's worth).
 * Returns the bytes loaded. Caller holds `lock`, has checked that the ring is empty and
 * TX not running. `traced` is a constant in each caller below, so the untraced loop has
 * no tracer test in it. */
static inline __attribute__((always_inline)) size_t
load_direct(struct console_port *port, const uint8_t *data, size_t length, bool traced)
{
	struct uart *uart = port->uart;
	size_t done = 0;
	while (done < length) {
		uint32_t room = uart->ops->tx_room(uart);
		if (room == 0)
			break;
		uint32_t count = room < length - done ? room : (uint32_t)(length - done);
		uart->ops->put_bytes(uart, data + done, count);
		port_note_load(port, count, room);
		if (traced)
			trace_emit(TRACE_FIFO_LOAD, count, TRACE_LOAD_DIRECT, 0, 0);
		done += count;
	}
	if (done)
		port->counters.direct_writes++;
	return done;
}

/* load_direct while the tracer records the console: one record per load. */
static size_t __attribute__((noinline))
put_direct_traced(struct console_port *port, const uint8_t *data, size_t length)
{
	return load_direct(port, data, length, true);
}

static size_t put_direct(struct console_port *port, const uint8_t *data, size_t length)
{
	if (trace_enabled(TRACE_CONSOLE))
		return put_direct_traced(port, data, length);
	return load_direct(port, data, length, false);
}

long __attribute__((noinline))
ring_queue_write(struct console_port *port, const uint8_t *data, size_t length, bool nonblocking,
                 bool holding_locks, bool direct)
{
	size_t written_direct = 0;
	if (!holding_locks) {
		int locked = mutex_lock_for_call(&port->writer, nonblocking);
		if (locked)
			return locked;
		spin_lock(&port->lock);
	}
	for (;;) { /* holding `lock` */
		if (direct && !port->tx_running && ring_empty(&port->tx_ring)) {
			/* Nothing queued, nothing sending: straight into the FIFO while it has
			 * room, no ring and no interrupt; what does not fit goes through the
			 * ring as usual. The order of bytes cannot change, since the ring is
			 * empty and every other path takes `lock`. */
			size_t done = put_direct(port, data, length);
			if (done == length) {
				port->counters.write_calls++;
				port->counters.bytes_written += length;
				spin_unlock(&port->lock);
				mutex_unlock(&port->writer);
				return (long)length;
			}
			if (done) {
				/* The rest fits, since the ring is empty (length <=
				 * CONSOLE_ATOMIC_MAX <= the ring): queue it below. */
				port->counters.bytes_written += done;
				data += done;
				length -= done;
				written_direct = done;
			}
		}
		if (ring_free(&port->tx_ring) >= length)
			break;
		port->policy->kick(port); /* make sure the ring is draining while we wait */
		spin_unlock(&port->lock);
		if (nonblocking) {
			mutex_unlock(&port->writer);
			return -EAGAIN;
		}
		/* A signal ends the wait (POSIX write: EINTR before any byte went, else the
		 * count; SA_RESTART restarts the call when none did). */
		struct room_wanted wanted = {port, (uint32_t)length};
		if (wait_queue_wait_interruptible(&port->room_waiters, room_for, &wanted)) {
			mutex_unlock(&port->writer);
			return written_direct ? (long)written_direct : -ERESTARTSYS;
		}
		spin_lock(&port->lock);
	}
	ring_push(&port->tx_ring, data, (uint32_t)length);
	if (trace_enabled(TRACE_CONSOLE)) /* ring_used is an atomic load: only when recorded */
		trace_emit(TRACE_RING_PUSH, (uint32_t)length, ring_used(&port->tx_ring), 0, 0);
	port->counters.write_calls++;
	port->counters.bytes_written += length;
	port->counters.ring_pushes++;
	port->policy->kick(port);
	spin_unlock(&port->lock);
	mutex_unlock(&port->writer);
	return (long)(length + written_direct);
}

static bool ring_drained(void *argument)
{
	struct console_port *port = argument;
	return ring_empty(&port->tx_ring);
}

/* ring_queue_drain's waiting part: the ring still holds bytes or the UART is still
 * sending. `wire_estimate`: sleep straight to when the ring and the last load should be
 * on the wire (the async policy), else park until the ring is empty (the copier's,
 * whose wire has gaps no estimate sees).
 * A signal for the caller ends it with -ERESTARTSYS (tcdrain's EINTR, or a restart under
 * SA_RESTART; Linux tty_wait_until_sent waits interruptibly too); the short looks for
 * TEMT at the end are not interrupted. Task context; sleeps. */
static int __attribute__((noinline)) drain_wait(struct console_port *port, bool wire_estimate)
{
	struct uart *uart = port->uart;
	uint64_t character_ns = uart->baud ? 10ull * 1000000000ull / uart->baud : 100000;
	uint64_t look_ns = character_ns / LOOKS_PER_CHARACTER;
	for (;;) {
		if (!ring_empty(&port->tx_ring)) {
			port->counters.drain_waits++;
			spin_lock(&port->lock);
			port->policy->kick(port);
			uint64_t load_ticks = port->last_load_ticks;
			uint64_t queued =
			    (uint64_t)port->last_load_bytes + ring_used(&port->tx_ring);
			spin_unlock(&port->lock);
			/* The ring and the last load leave back to back: sleep straight to just
			 * before they should all be on the wire, instead of parking until the
			 * refill that empties the ring wakes us only to sleep again (a wake-up
			 * and two switches per drain). Woken while the ring still holds bytes
			 * (the wire slower than its baud, or more written meanwhile), park
			 * for it as before. Not without `wire_estimate` (the copier loads each
			 * FIFO a wake-up after THRE, so the wire has gaps the estimate cannot
			 * see). */
			uint64_t done_ns = clock_ticks_to_ns(load_ticks) + queued * character_ns;
			if (wire_estimate && done_ns > clock_now_ns() + DRAIN_SPIN_NS) {
				trace_event(TRACE_DRAIN_PARK, TRACE_DRAIN_WIRE, 0, 0, 0);
				int interrupted =
				    sleep_until_interruptible(done_ns - DRAIN_SPIN_NS);
				trace_event(TRACE_DRAIN_WAKE, 0, 0, 0, 0);
				if (interrupted)
					return -ERESTARTSYS;
			}
			if (!ring_empty(&port->tx_ring)) {
				trace_event(TRACE_DRAIN_PARK, TRACE_DRAIN_RING, 0, 0, 0);
				int interrupted = wait_queue_wait_interruptible(
				    &port->drain_waiters, ring_drained, port);
				trace_event(TRACE_DRAIN_WAKE, 0, 0, 0, 0);
				if (interrupted)
					return -ERESTARTSYS;
			}
		}
		/* TEMT has no interrupt. Look now (a UART that sends at once, as QEMU's,
		 * is done already). Otherwise the last load's bytes cannot be gone before
		 * `expected` (one more may have been in the shift register): sleep until
		 * just before, then look LOOKS_PER_CHARACTER times per character time, for at
		 * most a FIFO's worth of characters plus the shift register. Other writers
		 * may refill the ring meanwhile: then wait for it again. Only a transmitter
		 * that stays busy with nothing queued is stuck. */
		bool refilled = false;
		uint32_t looks = (uart->fifo_depth + 2) * LOOKS_PER_CHARACTER;
		for (uint32_t look = 0; look <= looks;) {
			spin_lock(&port->lock);
			bool idle = uart->ops->tx_idle(uart);
			refilled = !ring_empty(&port->tx_ring);
			uint64_t load_ticks = port->last_load_ticks;
			uint32_t load_bytes = port->last_load_bytes;
			spin_unlock(&port->lock);
			uint64_t expected =
			    clock_ticks_to_ns(load_ticks) + (uint64_t)load_bytes * character_ns;
			if (idle && !refilled) {
				trace_event(TRACE_TEMT_SEEN, look + 1, 0, 0, 0);
				return 0;
			}
			if (refilled)
				break;
			/* Sleep to just before TEMT is due, spin across the moment itself (a
			 * timer wake-up costs more than DRAIN_SPIN_NS), then, if the UART is
			 * still busy, look every look_ns (those looks are what is bounded). */
			uint64_t now = clock_now_ns();
			if (expected > now + DRAIN_SPIN_NS) {
				trace_event(TRACE_DRAIN_PARK, TRACE_DRAIN_WIRE, 0, 0, 0);
				int interrupted =
				    sleep_until_interruptible(expected - DRAIN_SPIN_NS);
				trace_event(TRACE_DRAIN_WAKE, 0, 0, 0, 0);
				if (interrupted)
					return -ERESTARTSYS;
			} else if (now < expected + DRAIN_SPIN_NS) {
				cpu_relax();
			} else {
				trace_event(TRACE_DRAIN_PARK, TRACE_DRAIN_LOOK, 0, 0, 0);
				sleep_for(look_ns);
				trace_event(TRACE_DRAIN_WAKE, 0, 0, 0, 0);
				look++;
			}
		}
		if (!refilled)
			return -EIO;
	}
}

int ring_queue_drain(struct console_port *port, bool wire_estimate)
{
	struct uart *uart = port->uart;
	spin_lock(&port->lock);
	bool idle = ring_empty(&port->tx_ring) && uart->ops->tx_idle(uart);
	spin_unlock(&port->lock);
	if (!idle)
		return drain_wait(port, wire_estimate);
	trace_event(TRACE_TEMT_SEEN, 1, 0, 0, 0);
	return 0;
}

bool ring_queue_log_write(struct console_port *port, const char *text, size_t length)
{
	spin_lock(&port->lock);
	bool fits = ring_free(&port->tx_ring) >= length;
	if (fits) {
		ring_push(&port->tx_ring, (const uint8_t *)text, (uint32_t)length);
		if (trace_enabled(TRACE_CONSOLE))
			trace_emit(TRACE_RING_PUSH, (uint32_t)length, ring_used(&port->tx_ring), 0,
			           0);
		port->counters.ring_pushes++;
	}
	port->policy->kick(port); /* a full ring is draining, so room will come */
	spin_unlock(&port->lock);
	return fits;
}
