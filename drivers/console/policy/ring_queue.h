/* The port's TX ring as a queue: what the two async policies share (ring_queue.c). The
 * async policy (async.c) refills the FIFO from its TX interrupt, the async,thread
 * policy (async_thread.c) from a copier task; both queue writes and log lines in the
 * port's ring, move a FIFO's worth at a time out of it, and wait for a wire that has no
 * TEMT interrupt the same way. */
#ifndef DUPLEX_CONSOLE_POLICY_RING_QUEUE_H
#define DUPLEX_CONSOLE_POLICY_RING_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/console/port/port.h"
#include "kernel/trace/trace.h"

/* A policy's init: `options` may hold ring=N (TX ring bytes, a power of two, 8 KiB..16
 * MiB; default 16 KiB per hart, at least 64 KiB) and nothing else; the ring is
 * allocated, the UART's interrupt taken (port_use_interrupts) and port->description
 * written (`copier`: async,thread's). Returns 0, -1 for an option it does not know, -2
 * when the policy cannot run (logged). Task context, boot. */
int ring_queue_init(struct console_port *port, const char *options, bool copier);

/* Move up to one FIFO's worth (with a TX threshold: the free space) from the ring to the
 * UART, a waiting STOP/START first, and note the load (port_note_load) for `path`.
 * Returns the bytes moved. Called by the TX interrupt's refill, the copier and the idle
 * kick, holding port->lock; never waits for room. */
uint32_t refill_fifo(struct console_port *port, enum trace_load_path path);

/* After a refill: the TX interrupt off once the ring is empty and no STOP/START waits
 * (Linux's stop_tx in serial8250_tx_chars), tx_running false so that the next push
 * kicks. Caller holds port->lock. */
void stop_tx_if_emptied(struct console_port *port);

/* A write through the ring: as much as fits straight into an idle FIFO when `direct`
 * (nothing queued, nothing sending), the rest pushed into the ring, waiting for room
 * unless `nonblocking`; the policy's kick starts TX. Entered holding port->writer and
 * port->lock when `holding_locks` (the async policy's fast path took them), else it takes
 * them; it lets both go. Returns length or -errno (-EAGAIN, -ERESTARTSYS), or the count
 * that went direct when a signal ended the wait for room. Task context; may sleep. */
long ring_queue_write(struct console_port *port, const uint8_t *data, size_t length,
                      bool nonblocking, bool holding_locks, bool direct);

/* tcdrain: 0 once the ring is empty and the UART has sent its last stop bit (TEMT, which
 * has no interrupt: looked at 8 times per character time, bounded), -ERESTARTSYS when a
 * signal ends the wait, -EIO when the transmitter stays busy with nothing queued.
 * `wire_estimate`: sleep until the ring and the last load should be on the wire before
 * looking (the async policy; the copier's wire has gaps no estimate sees). Task context;
 * sleeps. */
int ring_queue_drain(struct console_port *port, bool wire_estimate);

/* A kernel log line or echo: into the ring if it fits, else false; the log keeps it and
 * the next refill offers it again (port_wake). Any context; never sleeps. */
bool ring_queue_log_write(struct console_port *port, const char *text, size_t length);

#endif
