/* A console port's shared half: what every TX policy needs, once per UART (port.h).
 * The receive path is in receive.c, the TX interrupt's checks in interrupt.c. */
#include "drivers/console/port/port.h"

#include "kernel/hart/csr.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/timer/clock.h"

void console_port_open(struct console_port *port, const char *name, struct uart *uart,
                       console_receive_fn deliver)
{
	memset(port, 0, sizeof *port);
	copy_string(port->name, sizeof port->name, name);
	port->uart = uart;
	port->deliver = deliver;
	spinlock_init(&port->lock, "console port");
	spinlock_init(&port->receiving, "console port rx");
	port->writer = (struct mutex)MUTEX_INIT("console writer");
	wait_queue_init(&port->room_waiters, "console room");
	wait_queue_init(&port->drain_waiters, "console drain");
}

int console_port_choose(struct console_port *port, const struct console_policy *policy,
                        const char *options)
{
	int status = policy->init(port, options);
	if (status != 0)
		return status;
	copy_string(port->options, sizeof port->options, options);
	__atomic_store_n(&port->policy, policy, __ATOMIC_RELEASE);
	return 0;
}

/* Before a policy runs (and while the fallback swaps one), the line goes out polled:
 * the boot hart alone uses the UART then. */
bool port_log_write(struct console_port *port, const char *text, size_t length)
{
	const struct console_policy *policy = __atomic_load_n(&port->policy, __ATOMIC_ACQUIRE);
	if (!policy) {
		uart_write_polled(port->uart, text, length);
		return true;
	}
	return policy->log_write(port, text, length);
}

uint32_t port_put_flow_char(struct console_port *port)
{
	if (!port->flow_char)
		return 0;
	uint32_t room = port->uart->ops->tx_room(port->uart);
	if (room == 0)
		return 0;
	port->uart->ops->put_bytes(port->uart, &port->flow_char, 1);
	port_note_load(port, 1, room);
	port->counters.flow_chars++;
	port->flow_char = 0;
	return 1;
}

/* Does the running policy send from the TX interrupt (async, async,thread), rather than
 * from the writer (polling)? Caller holds `lock`, or the policy cannot change. */
static bool uses_tx_interrupt(const struct console_port *port)
{
	return port->policy && port->policy->tx_ready;
}

/* Stopping holds tx_running true, so every write queues in the ring (the fast path
 * needs no look at output_stopped) and the next TX interrupt turns itself off. Going
 * on lets go of the hold and kicks the transmitter as an idle one. A policy without a
 * TX interrupt has its writers look at output_stopped. */
void port_set_output_stopped(struct console_port *port, bool stopped)
{
	spin_lock(&port->lock);
	bool interrupt_driven = uses_tx_interrupt(port);
	if (stopped && !port->output_stopped) {
		__atomic_store_n(&port->output_stopped, true, __ATOMIC_RELEASE);
		if (interrupt_driven)
			port->tx_running = true;
	} else if (!stopped && port->output_stopped) {
		__atomic_store_n(&port->output_stopped, false, __ATOMIC_RELEASE);
		if (interrupt_driven) {
			port->tx_running = false;
			/* a fresh 0 -> 1 for the kick (uart.h: QEMU raises THRE only then) */
			port->uart->ops->set_tx_interrupt(port->uart, false);
			port->policy->kick(port);
		}
	}
	spin_unlock(&port->lock);
}

/* Into the FIFO now if it has room. Else, with a TX interrupt, kept for the next THRE,
 * which sends it before any ring byte (the interrupt turned on for it if nothing else
 * keeps it on); without one, polled here, `lock` let go between looks: at most until
 * one byte has left the FIFO. */
void port_send_flow_char(struct console_port *port, uint8_t byte)
{
	spin_lock(&port->lock);
	port->flow_char = byte;
	bool sent = port_put_flow_char(port);
	bool interrupt_driven = uses_tx_interrupt(port);
	if (!sent && interrupt_driven && (!port->tx_running || port->output_stopped)) {
		port->tx_running = true;
		port->uart->ops->set_tx_interrupt(port->uart, true);
	}
	spin_unlock(&port->lock);
	while (!sent && !interrupt_driven) {
		cpu_relax();
		spin_lock(&port->lock);
		sent = !port->flow_char || port_put_flow_char(port);
		if (!sent)
			port->counters.tx_busy_polls++;
		spin_unlock(&port->lock);
	}
}

void port_wake(struct console_port *port, uint32_t wake)
{
	/* Room first for kernel log lines waiting in the log buffer, then for writers. */
	if ((wake & PORT_WAKE_ROOM) && port->kernel_console && log_console_behind())
		log_flush_console();
	if (wake & PORT_WAKE_COPIER) {
		waker_wake(&port->copier);
		port->counters.wakeups++;
	}
	if (wake & PORT_WAKE_ROOM)
		port->counters.wakeups += (uint64_t)wait_queue_wake_all(&port->room_waiters);
	if (wake & PORT_WAKE_DRAIN)
		port->counters.wakeups += (uint64_t)wait_queue_wake_all(&port->drain_waiters);
}

/* What is in the FIFO still goes; the ring's bytes are dropped. */
void port_flush_output(struct console_port *port)
{
	spin_lock(&port->lock);
	if (port->tx_ring.capacity)
		ring_discard(&port->tx_ring);
	spin_unlock(&port->lock);
	port_wake(port, PORT_WAKE_ROOM | PORT_WAKE_DRAIN);
}

void port_set_receive_throttled(struct console_port *port, bool throttled)
{
	__atomic_store_n(&port->receive_throttled, throttled, __ATOMIC_RELAXED);
}

bool port_set_break(struct console_port *port, bool on)
{
	spin_lock(&port->lock);
	bool done = uart_set_break(port->uart, on);
	spin_unlock(&port->lock);
	return done;
}

/* Ring bytes, plus one while the UART itself still holds some (it cannot say how
 * many), so that 0 means "all sent" as after tcdrain. */
size_t port_output_queued(struct console_port *port)
{
	spin_lock(&port->lock);
	size_t queued = ring_used(&port->tx_ring) + (port->uart->ops->tx_idle(port->uart) ? 0 : 1);
	spin_unlock(&port->lock);
	return queued;
}

/* An onlooker's snapshot (ring_used is safe against both sides). */
size_t port_output_room(struct console_port *port)
{
	if (!port->tx_ring.capacity)
		return SIZE_MAX;
	return port->tx_ring.capacity - ring_used(&port->tx_ring);
}

/* Writers wait on `writer`; a kernel log line can still be queued between the drain and
 * the lock, so the last look is under the lock, and the drain is repeated until the ring
 * and the UART are both empty there. Log lines wait in the log buffer meanwhile. */
long port_set_baud(struct console_port *port, uint32_t baud)
{
	long result;
	mutex_lock(&port->writer);
	for (;;) {
		int drained = port->policy->drain(port);
		spin_lock(&port->lock);
		if (ring_empty(&port->tx_ring) && port->uart->ops->tx_idle(port->uart)) {
			uint32_t in_force = uart_set_baud(port->uart, baud);
			spin_unlock(&port->lock);
			result = in_force ? (long)in_force : -EINVAL;
			break;
		}
		spin_unlock(&port->lock);
		if (drained != 0) {
			result = drained;
			break;
		}
	}
	mutex_unlock(&port->writer);
	if (port->kernel_console && log_console_behind())
		log_flush_console();
	return result;
}

void port_telemetry(struct console_port *port, struct console_telemetry *out)
{
	*out = port->counters;
	out->ring_high_water = port->tx_ring.high_water;
}

void port_reset_telemetry(struct console_port *port)
{
	memset(&port->counters, 0, sizeof port->counters);
	port->tx_ring.high_water = ring_used(&port->tx_ring);
}

/* How long an emergency write waits for `lock` before deciding its holder is dead. A
 * live holder keeps it for one refill or one ring push (microseconds): spinlocks mask
 * interrupts, so even a hart that panic's IPI_STOP is on its way to releases the lock
 * before it stops. */
#define EMERGENCY_LOCK_PATIENCE_NS 10000000ull

/* Take `lock` for an emergency write, unless this hart already holds it (a panic inside
 * the port) or its holder has not let go within EMERGENCY_LOCK_PATIENCE_NS (it faulted
 * while holding it); the later lines of the same report then go straight out. Returns
 * whether it was taken. Any context. */
static bool emergency_lock(struct console_port *port)
{
	if (port->emergency_gave_up_lock || spin_is_held_here(&port->lock))
		return false;
	uint64_t give_up = clock_now_ns() + EMERGENCY_LOCK_PATIENCE_NS;
	while (!spin_trylock(&port->lock)) {
		if (clock_now_ns() >= give_up) {
			port->emergency_gave_up_lock = true;
			return false;
		}
	}
	return true;
}

/* The ring has one consumer at a time: under the lock when it can be had, since another
 * hart's TX interrupt or copier may be popping it at this moment (two consumers would
 * send bytes twice or skip them); without it only when its holder is dead. The TX
 * interrupt stays as it was, so the ring path can carry on. A port without a ring
 * writes polled without the lock, whose holder may be dead. */
void port_emergency_write(struct console_port *port, const char *text, size_t length)
{
	if (!port->tx_ring.capacity) {
		uart_write_polled(port->uart, text, length);
		return;
	}
	bool locked = emergency_lock(port);
	uint8_t bytes[256];
	uint32_t count;
	while ((count = ring_pop(&port->tx_ring, bytes, sizeof bytes)) > 0)
		uart_write_polled(port->uart, (const char *)bytes, count);
	uart_write_polled(port->uart, text, length);
	if (locked)
		spin_unlock(&port->lock);
}
