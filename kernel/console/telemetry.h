/* Console telemetry: counters every backend keeps (a backend leaves the ones that do
 * not apply to it at zero), read by the CONSOLE_TELEMETRY ioctl and printed by
 * /bin/consolestat; the benchmark's S40 section reads them per section. */
#ifndef DUPLEX_CONSOLE_TELEMETRY_H
#define DUPLEX_CONSOLE_TELEMETRY_H

#include <stdint.h>

struct console_telemetry {
	uint64_t write_calls;     /* backend write() calls */
	uint64_t bytes_written;   /* bytes accepted from writers */
	uint64_t ring_pushes;     /* ring_push calls that moved bytes */
	uint64_t ring_pops;       /* ring_pop calls that moved bytes */
	uint64_t thr_bytes;       /* bytes written to the UART's THR */
	uint64_t thre_interrupts; /* TX-ready interrupts handled */
	uint64_t fifo_loads;      /* put_bytes calls (one per THRE wait or interrupt) */
	uint64_t idle_kicks;      /* TX started by a writer because the UART was idle */
	uint64_t wakeups;         /* tasks woken (writers for room, drainers, readers) */
	uint64_t drain_waits;     /* drains that had to wait */
	uint64_t ring_high_water; /* most bytes ever queued */
	uint64_t rx_bytes;        /* bytes received */
	uint64_t rx_overruns;     /* bytes lost: RX ring full or UART overrun */
	uint64_t rx_errors;       /* parity/framing/break errors reported */
	uint64_t log_dropped;     /* kernel-log bytes dropped (never slept for) */
	uint64_t tx_busy_polls;   /* polling backends: LSR reads that found no room */
};

/* ioctl numbers, Linux _IOR/_IO encoding with type 'D' (Duplex):
 * dir << 30 | size << 16 | type << 8 | number. */
#define CONSOLE_IOCTL_TELEMETRY                                                                    \
	((2u << 30) | ((uint32_t)sizeof(struct console_telemetry) << 16) | ('D' << 8) | 1)
#define CONSOLE_IOCTL_RESET_TELEMETRY (('D' << 8) | 2)

#endif
