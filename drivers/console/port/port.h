/* A console port: one UART and everything a console needs from it, whatever the TX
 * policy — the upper half, as Linux's struct uart_port (serial_core.c) and NuttX's
 * uart_dev_t (drivers/serial/serial.c). The port owns the state every console has:
 * the UART and its lock, the writer mutex, the TX ring (or none), the flow-control
 * character slot (Linux's x_char), stopped and throttled output, the receive path into
 * the core, break, the counters, the kernel-log and panic paths, and the TX interrupt
 * when a policy uses it. A policy (struct console_policy, below) is only what differs
 * between the designs a class compares: how a write waits for room, who moves bytes
 * from the ring to the FIFO, and how drain knows the wire is idle.
 *
 *   console core (console.c, input.c)  -> port_* (port.c, receive.c, interrupt.c)
 *   port                               -> port->policy->op (policy/polling.c, async.c,
 *                                         async_thread.c)
 *   policy                             -> port helpers below, the UART interface
 *
 * Locking: `lock` (a spinlock, interrupts masked) guards the UART, the ring's producer
 * side, tx_running, flow_char and the drain anchor; `writer` (a sleeping mutex) is held
 * for a whole write, so writes never interleave; `receiving` orders received batches
 * when several pollers look. Lock order: the core's input lock, `receiving`, `lock`. */
#ifndef DUPLEX_CONSOLE_PORT_H
#define DUPLEX_CONSOLE_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/console/port/ring.h"
#include "drivers/uart/uart.h"
#include "kernel/hart/csr.h"
#include "kernel/sync/mutex.h"
#include "kernel/sync/spinlock.h"
#include "kernel/waker/wait_queue.h"
#include "kernel/waker/waker.h"
#include "uapi/console_telemetry.h"

/* Largest single write the core hands a port; it must come out whole. Twice the
 * user-visible atomic size, because "\n" -> "\r\n" can double a 4096-byte write. */
#define CONSOLE_ATOMIC_MAX 8192

struct console_port;

/* The core's receiver (its line discipline, drivers/console/input.c): the port hands it
 * every received byte with that byte's UART_ERROR_* bits, in order, never while
 * holding its own locks (the receiver echoes through the log path and may stop or
 * flush output), with `received_ticks`: the `time` CSR when the kernel first knew of
 * the bytes. Any context; never sleeps. */
typedef void (*console_receive_fn)(struct console_port *port, const uint8_t *bytes,
                                   const uint8_t *errors, size_t count, uint64_t received_ticks);

/* What a TX interrupt's refill asks the port to wake once it has let go of `lock`. */
#define PORT_WAKE_ROOM   0x1 /* writers waiting for ring room, and the kernel log */
#define PORT_WAKE_DRAIN  0x2 /* tcdrain: the ring is empty */
#define PORT_WAKE_COPIER 0x4 /* the policy's own task (async,thread's copier) */

/* A TX policy: what differs between polling and async. Eight entries; everything else
 * is the port's. */
struct console_policy {
	const char *name;
	/* Once, at boot (console_port_open), and at a fallback: read `options` (what followed
	 * "name," on the command line, "" if nothing), set up what the policy needs (a ring,
	 * the interrupt: port_use_interrupts) and write port->description for the boot log.
	 * Returns 0, -1 for options it does not understand, -2 when it cannot run on this
	 * UART (and has logged why). Task context, before any program runs. */
	int (*init)(struct console_port *port, const char *options);
	/* Optional: from the first task, when tasks can be created (a copier task). */
	void (*start)(struct console_port *port);
	/* Write all `length` (<= CONSOLE_ATOMIC_MAX) bytes as one piece: how a write waits
	 * for room. With `nonblocking`, -EAGAIN instead of waiting for another writer or for
	 * room. Returns length or -errno; a signal during a wait may end it with
	 * -ERESTARTSYS, or with the count of bytes already sent if some were. Task context. */
	long (*write)(struct console_port *port, const uint8_t *data, size_t length,
	              bool nonblocking);
	/* A kernel log line or echo: any context, never sleeps. Send the whole line now, or
	 * return false when there is no room; then the policy calls log_flush_console once
	 * there is (the log keeps the line). */
	bool (*log_write)(struct console_port *port, const char *text, size_t length);
	/* Optional, for a policy that sends from the TX interrupt: bytes are queued (ring
	 * or flow_char) and the transmitter may be idle; start it (Linux uart_ops
	 * start_tx). Caller holds port->lock. */
	void (*kick)(struct console_port *port);
	/* Optional (null: the policy uses no TX interrupt): THRE came and output is not
	 * stopped; the port has sent a waiting flow character already. Who refills the
	 * FIFO. Returns PORT_WAKE_* bits. Interrupt context, port->lock held. */
	uint32_t (*tx_ready)(struct console_port *port);
	/* tcdrain: return when everything written has left the UART (0), -ERESTARTSYS when
	 * a signal for the caller ended the wait, or -EIO. Task context; may sleep. */
	int (*drain)(struct console_port *port);
};

struct console_port {
	char name[8]; /* ttyS0, ttyS1, ... as Linux names 8250-family ports */
	struct uart *uart;
	const struct console_policy *policy;
	char options[32];      /* the policy's options as given, for CONSOLE_IOCTL_INFO */
	char description[128]; /* the policy and its options in force, for the boot log */
	bool kernel_console;   /* /dev/console: the kernel log goes out here */

	struct spinlock lock;
	struct mutex writer;
	struct spinlock receiving;

	/* TX. The ring is empty (capacity 0) for a policy that queues nothing. */
	struct ring tx_ring;
	bool tx_running;     /* the TX interrupt is enabled and will refill the FIFO */
	bool output_stopped; /* IXON ^S / TCOOFF: nothing goes to the FIFO but flow_char */
	uint8_t flow_char;   /* STOP/START waiting for FIFO room, 0 if none (x_char) */
	bool byte_mode;      /* polling,byte: one byte per THRE wait */
	bool fifo_wanted;    /* async,thread: THRE came and the ring has bytes */
	struct waker copier; /* async,thread: the copier task's waker (unbound until start) */
	struct wait_queue room_waiters;
	struct wait_queue drain_waiters;
	/* tcdrain's anchor: the latest FIFO load, when (raw `time` ticks) and how many bytes
	 * the FIFO held after it (port_note_load). Under `lock`. */
	uint64_t last_load_ticks;
	uint32_t last_load_bytes;
	bool emergency_gave_up_lock; /* a panic found `lock` held by a dead hart */

	/* RX. */
	console_receive_fn deliver;
	bool rx_interrupt;      /* received bytes arrive by interrupt; else pollers look */
	bool receive_throttled; /* the core's read buffer is nearly full (atomic) */

	struct console_telemetry counters;
};

/* ---------------------------------------------------------------- for the core */

/* At boot, once the UART is bound: the port named `name` over `uart`, its received
 * bytes to `deliver`. Nothing is sent but polled log lines until a policy is chosen.
 * Task context (the boot hart), before any other user. */
void console_port_open(struct console_port *port, const char *name, struct uart *uart,
                       console_receive_fn deliver);
/* Run `policy` with `options` (console_policy.init's return). Task context, before any
 * program runs, with nothing queued (at boot, or after port_stop_interrupts). */
int console_port_choose(struct console_port *port, const struct console_policy *policy,
                        const char *options);
/* From the init task, for a policy that waits for TX interrupts: ask the UART for one
 * and wait, sleeping, up to `patience_ns` of time in which it has room; true if it
 * came (false is logged with what was seen). Task context; sleeps. */
bool port_tx_interrupt_check(struct console_port *port, uint64_t patience_ns);
/* After a failed check: the UART's interrupts off, what is queued sent polled, so that
 * the polling policy can take the port over. Task context. */
void port_stop_interrupts(struct console_port *port);

/* The write path and the rest, each forwarding to the policy or doing what every
 * policy needs. Same context rules as the policy op of the same name. The two every
 * write and tcdrain take are inline: a 1-byte write and drain on QEMU is about a
 * thousand instructions, and a call layer here was a few percent of it (bench S20). */
static inline long port_write(struct console_port *port, const uint8_t *data, size_t length,
                              bool nonblocking)
{
	return port->policy->write(port, data, length, nonblocking);
}

static inline int port_drain(struct console_port *port)
{
	return port->policy->drain(port);
}

/* The kernel log's line or echo (any context, never sleeps); false: no room now. */
bool port_log_write(struct console_port *port, const char *text, size_t length);
/* Panic, power-off: send what is queued, then `text`, polled. Any context. */
void port_emergency_write(struct console_port *port, const char *text, size_t length);
/* TCSETS with a new speed: hold off writers, drain, change the UART's rate. Returns the
 * baud in force, -EINVAL (nothing changed), or the drain's error. Task context. */
long port_set_baud(struct console_port *port, uint32_t baud);
/* IXON's ^S / ^Q and TCXONC: stop sending or go on. Any context. */
void port_set_output_stopped(struct console_port *port, bool stopped);
/* IXOFF's STOP / START: `byte` ahead of everything queued, even while stopped; a newer
 * one replaces a waiting one; never dropped. Any context; never sleeps. */
void port_send_flow_char(struct console_port *port, uint8_t byte);
/* TCOFLUSH and ISIG: drop the ring's bytes, wake writers and drainers. Any context. */
void port_flush_output(struct console_port *port);
/* The core's read buffer is nearly full: a writer's look at the receiver leaves bytes
 * in the UART meanwhile (Linux uart_ops throttle). Any context. */
void port_set_receive_throttled(struct console_port *port, bool throttled);
/* Break on or off; false when the UART cannot. Task context, output drained. */
bool port_set_break(struct console_port *port, bool on);
/* Bytes not yet sent (+1 while the UART is busy). Room for a write without waiting
 * (SIZE_MAX: the policy never waits for room), and the queue woken when room comes. */
size_t port_output_queued(struct console_port *port);
size_t port_output_room(struct console_port *port);
/* A look at the receiver for a port without an RX interrupt: everything it holds to
 * the core. `may_wait` false: give up at once on a busy UART (the RX watch's timer).
 * Any context; never sleeps. */
void port_poll_receive(struct console_port *port, bool may_wait);
void port_telemetry(struct console_port *port, struct console_telemetry *out);
void port_reset_telemetry(struct console_port *port);

/* ---------------------------------------------------------------- for the policies */

/* Take the UART's interrupt (RX on; TX when a policy turns it on) and a TX ring of
 * `ring_size` bytes; from here Duplex alone drives the UART. Returns 0 or -2 (logged).
 * Called by a policy's init. */
int port_use_interrupts(struct console_port *port, uint32_t ring_size);
/* Note a FIFO load of `count` bytes into `room` free ones: tcdrain's anchor and the
 * counters. A UART with a TX threshold is refilled before it empties, so the FIFO then
 * holds fifo_depth - room more (with THRE alone room is the whole FIFO and that is 0).
 * Caller holds port->lock. Inline: the direct path calls it once per FIFO's worth (64
 * times for a 1 KiB write on QEMU; out of line it cost 6 % of S10's 1 KiB write). */
static inline void port_note_load(struct console_port *port, uint32_t count, uint32_t room)
{
	uint32_t depth = port->uart->fifo_depth;
	port->last_load_ticks = read_time();
	port->last_load_bytes = count + (room < depth ? depth - room : 0);
	port->counters.fifo_loads++;
	port->counters.thr_bytes += count;
}
/* A waiting STOP/START into the FIFO if it has room: 1 if it went. Caller holds
 * port->lock. */
uint32_t port_put_flow_char(struct console_port *port);
/* Everything the receiver holds, to the core, a batch at a time. `until_throttled`: a
 * writer's look, which stops once the core throttles. Never sleeps; takes `receiving`
 * and `lock`. */
void port_receive(struct console_port *port, bool may_wait, bool until_throttled,
                  uint64_t received_ticks);
/* Wake the queues `wake` names (PORT_WAKE_*), the kernel log first. Any context, no
 * port lock held. */
void port_wake(struct console_port *port, uint32_t wake);

#endif
