/* Console telemetry: counters every backend keeps (a backend leaves the ones that do
 * not apply to it at zero), read by the CONSOLE_TELEMETRY ioctl and printed by
 * /bin/consolestat; the benchmark's S40 section reads them per section. Also the
 * console's description (CONSOLE_IOCTL_INFO). Duplex's own ABI (Linux has no such
 * ioctl); the request numbers use Linux's _IOR/_IO encoding
 * (include/uapi/asm-generic/ioctl.h). Plain declarations only. */
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
	uint64_t log_skipped;     /* kernel-log records the log buffer overwrote before the
	                           * console printed them (each range announced by a marker) */
	uint64_t tx_busy_polls;   /* polling backends: LSR reads that found no room */
	uint64_t direct_writes;   /* async: writes put straight into an idle FIFO */
	/* The line discipline (drivers/console/line_discipline.h), every backend: */
	uint64_t lines;           /* canonical lines ended ('\n', VEOL, VEOL2, VEOF) */
	uint64_t edits;           /* VERASE, VWERASE, VKILL that erased something */
	uint64_t signals;         /* VINTR/VQUIT/VSUSP (and BRKINT breaks) for the foreground */
	uint64_t echoed;          /* bytes echoed (STOP/START go apart) */
	uint64_t echo_dropped;    /* echo lost: the echo buffer was full */
	uint64_t input_dropped;   /* received bytes lost: the read buffer was full (also in
	                           * rx_overruns) */
	uint64_t flow_stops;      /* output stopped by ^S (IXON) */
	uint64_t throttles;       /* STOP sent because the read buffer was nearly full (IXOFF) */
	uint64_t breaks_received; /* breaks the UART reported */
	uint64_t breaks_sent;     /* tcsendbreak / TCSBRKP / TIOCSBRK breaks put on the line */
	uint64_t flow_chars;      /* STOP/START (IXOFF, TCIOFF, TCION) put into the UART ahead
	                           * of queued output and echo */
	/* Times (kernel clock ns, as clock_gettime(CLOCK_MONOTONIC); 0: none since the
	 * last reset), for the benchmark's echo and ^C sections (user/bench/terminal.c): */
	uint64_t rx_last_ns;     /* the kernel first knew of the last received byte: its RX
	                          * interrupt's dispatch (async), the poll that found it
	                          * (polling) */
	uint64_t signal_rx_ns;   /* the same, for the byte that last raised an ISIG signal */
	uint64_t tx_wire_end_ns; /* line model: when the last byte given to the UART has left
	                          * the modelled wire (its stop bit's end); else 0. Not reset */
};

/* What the console is and what it runs on, read by the CONSOLE_IOCTL_INFO ioctl: the
 * benchmark labels its results with it (environment "qemu+line" when line_model is
 * set, the backend and options, the line rate from `baud`). */
struct console_info {
	char backend[16];        /* "polling", "async" (NUL-terminated) */
	char options[32];        /* what followed "backend," on the command line, or "" */
	uint32_t baud;           /* what the backends see: the line model's when it is on */
	uint32_t fifo_depth;     /* TX FIFO bytes loadable per THRE */
	uint32_t uart_baud;      /* the real UART's baud, clock / (16 * divisor) */
	uint32_t uart_clock_hz;  /* the real UART's clock (0 if unknown) */
	uint32_t line_model;     /* 1: a simulated wire (uart.line=) is under the console */
	uint32_t bits_per_byte;  /* on the wire: 10 (8N1) */
	uint64_t byte_ps;        /* one byte time at `baud`, in picoseconds (rounded down) */
	uint64_t line_overruns;  /* line model: bytes put beyond the FIFO's room (must be 0) */
	uint64_t line_tx_events; /* line model: TX interrupts it delivered */
	uint32_t requested_baud; /* line model: the baud uart.line= asked for (else 0) */
	uint32_t tx_threshold;   /* TX interrupt at this many bytes queued or fewer (0: empty) */
};

/* ioctl numbers, Linux _IOR/_IO encoding with type 'D' (Duplex):
 * dir << 30 | size << 16 | type << 8 | number. */
#define CONSOLE_IOCTL_TELEMETRY                                                                    \
	((2u << 30) | ((uint32_t)sizeof(struct console_telemetry) << 16) | ('D' << 8) | 1)
#define CONSOLE_IOCTL_RESET_TELEMETRY (('D' << 8) | 2)
#define CONSOLE_IOCTL_INFO                                                                         \
	((2u << 30) | ((uint32_t)sizeof(struct console_info) << 16) | ('D' << 8) | 3)

#endif
