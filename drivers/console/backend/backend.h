/* The console core's view of a backend: one small ops table (Linux's struct
 * uart_ops / NuttX's upper-half vs lower-half split). The core (console.c) owns the
 * file interface, termios and output post-processing; a backend owns how bytes get
 * to and from the UART (drivers/console/backend/polling.c, drivers/console/backend/async.c). Adding
 * a backend means adding one file and one line in console.c's table. Backends reach the hardware
 * only through the UART interface (drivers/uart/uart.h). */
#ifndef DUPLEX_CONSOLE_BACKEND_H
#define DUPLEX_CONSOLE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/uart/uart.h"
#include "uapi/console_telemetry.h"

/* Largest single write the core hands a backend; it must come out whole. Twice the
 * user-visible atomic size, because "\n" -> "\r\n" can double a 4096-byte write. */
#define CONSOLE_ATOMIC_MAX 8192

struct wait_queue;

/* The core's receiver (its line discipline, drivers/console/input.c): a backend hands
 * it every received byte with that byte's UART_ERROR_* bits, in order, never while
 * holding its own locks (the receiver echoes through log_write and may call
 * set_output_stopped and flush_output), with `received_ticks`: the `time` CSR when the
 * kernel first knew of the bytes (the RX interrupt's dispatch, irq_entered_ticks, or
 * the poll that found them). Any context; never sleeps. */
typedef void (*console_receive_fn)(const uint8_t *bytes, const uint8_t *errors, size_t count,
                                   uint64_t received_ticks);

struct console_backend_ops {
	const char *name;
	/* Called once at boot. `options` is what followed "name," on the command line
	 * ("" if nothing); returns 0, -1 for options it does not understand, or -2 when
	 * it cannot run on this UART (and has logged why). Received bytes go to `receive`
	 * (from the RX interrupt, or from poll_receive). */
	int (*init)(struct uart *uart, const char *options, console_receive_fn receive);
	/* Optional: called once from the first task, when tasks can be created (e.g. a
	 * backend's own kernel task). Output queued before it must wait for it. */
	void (*start)(void);
	/* Describe the options in force, for the boot log. */
	void (*describe)(char *buffer, size_t size);
	/* Task context. Write all `length` (<= CONSOLE_ATOMIC_MAX) bytes as one piece;
	 * with `nonblocking`, return -EAGAIN instead of waiting. Returns length or -errno;
	 * a signal during a wait for room may end it with -ERESTARTSYS, or with the count
	 * of bytes already sent if some were. */
	long (*write)(const uint8_t *data, size_t length, bool nonblocking);
	/* Task context; may sleep. Return when everything written has left the UART (0), or
	 * -ERESTARTSYS when a signal for the caller ended the wait, or -EIO. */
	int (*drain)(void);
	/* Task context; may sleep. Change the line rate (TCSETS): hold off writers, let
	 * everything queued leave the UART at the old rate, then ask the UART
	 * (uart_set_baud). Returns the baud now in force, -EINVAL when the UART cannot run
	 * at `baud` (nothing changed), -EIO when the transmitter never went idle. */
	long (*set_baud)(uint32_t baud);
	/* Optional, for a backend without an RX interrupt: look at the receiver now and
	 * hand what it holds to `receive`. The core calls it before a read looks for
	 * input, while a read waits, and when a poller looks. Task context; never sleeps. */
	void (*poll_receive)(void);
	/* Optional, beside poll_receive: the same look from the core's RX watch timer
	 * (interrupt context), which gives up at once when a writer or another poller holds
	 * the UART: spinning there, with interrupts masked, against a polling writer's
	 * lock-look-unlock loop made other harts' timers milliseconds late (bench S43). */
	void (*try_poll_receive)(void);
	/* Optional: how many bytes a write could queue now without waiting for room, and the
	 * queue woken when room appears; NULL for a backend whose writes never wait for room
	 * (polling: it spins on the UART). Any context. */
	size_t (*output_room)(void);
	struct wait_queue *output_waiters;
	/* Bytes still queued for output. Any context. */
	size_t (*output_queued)(void);
	/* IXON's ^S / ^Q and TCXONC: stop sending (writers wait, or queue without the
	 * queue draining) or go on. Any context; never sleeps. */
	void (*set_output_stopped)(bool stopped);
	/* Optional. The core's read buffer is nearly full (true) or has room again: a
	 * backend that looks at the receiver on its own (polling's writer) leaves the bytes
	 * in the UART meanwhile, as Linux's uart_ops->throttle. Any context; never sleeps. */
	void (*set_receive_throttled)(bool throttled);
	/* TCOFLUSH and ISIG: discard output queued and not yet in the UART. Any context. */
	void (*flush_output)(void);
	/* Hold the line in the break condition or release it (uart_set_break); false when
	 * the UART cannot. Task context; the caller has drained the output. */
	bool (*set_break)(bool on);
	/* IXOFF's, TCIOFF's and TCION's STOP / START: `byte` goes out ahead of everything
	 * queued and even while output is stopped (Linux uart_ops.send_xchar; the 8250
	 * sends port->x_char before its ring, serial8250_tx_chars). The backend keeps one
	 * such byte, a newer one replacing it; never dropped. Any context; never sleeps. */
	void (*send_flow_char)(uint8_t byte);
	/* The kernel log: any context, never sleeps. Send the whole line now, or return
	 * false when there is no room; the backend then calls log_flush_console once
	 * there is (the log keeps the line). */
	bool (*log_write)(const char *text, size_t length);
	/* Panic output: synchronous, works with interrupts off and locks possibly held by
	 * a dead hart; must leave the interrupt-driven path able to continue. */
	void (*emergency_write)(const char *text, size_t length);
	void (*telemetry)(struct console_telemetry *out);
	void (*reset_telemetry)(void);
	/* Optional, for a backend that depends on the TX interrupt. From the first task,
	 * after start: ask the UART for a TX interrupt and wait, sleeping, up to
	 * `patience_ns` for it; true if it came. */
	bool (*tx_interrupt_check)(uint64_t patience_ns);
	/* Optional, with tx_interrupt_check: stop using the UART's interrupts and send
	 * what is queued, polled, so that another backend can take the UART over. Task
	 * context, before any program runs. */
	void (*stop)(void);
};

extern const struct console_backend_ops console_polling_backend;
extern const struct console_backend_ops console_async_backend;

#endif
