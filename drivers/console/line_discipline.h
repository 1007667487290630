/* The line discipline: what a terminal does between the bytes a UART receives and the
 * bytes read() returns, and to the bytes write() sends (Linux drivers/tty/n_tty.c is the
 * anchor, NuttX drivers/serial/serial.c the small model). Pure logic over one buffer:
 * no locks, no sleeping, no hardware, so that tests/host/test_line_discipline.c runs it
 * on the host. The console's input side (drivers/console/input.c) owns one, guards it
 * with its spinlock, feeds it received bytes and sends what it leaves in `flow_char`
 * (first) and `echo`.
 *
 *   receive: errors (IGNBRK, BRKINT, PARMRK, IGNPAR, INPCK) -> ISTRIP -> IXON (VSTART,
 *            VSTOP, IXANY) -> ISIG (VINTR, VQUIT, VSUSP) -> VLNEXT -> IGNCR, ICRNL,
 *            INLCR -> ICANON editing (VERASE, VWERASE, VKILL, VREPRINT, VEOF, VEOL,
 *            VEOL2, '\n') -> the buffer, echoed per ECHO, ECHOE, ECHOK, ECHONL, ECHOCTL,
 *            ECHOKE; IXOFF asks for STOP / START as the buffer fills and empties
 *   read:    canonical: one line (a VEOF at the start of one is end of file, 0 bytes);
 *            else what is there (VMIN/VTIME are the caller's: they are about waiting)
 *   output:  OPOST with ONLCR, OCRNL, ONOCR, ONLRET, OLCUC, keeping the column that
 *            erasing a tab needs */
#ifndef DUPLEX_CONSOLE_LINE_DISCIPLINE_H
#define DUPLEX_CONSOLE_LINE_DISCIPLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/termios.h"

/* The read buffer: N_TTY_BUF_SIZE in Linux. A power of two (indices are masked). */
#define LINE_BUFFER_SIZE 4096
/* Echo waiting to be sent. */
#define LINE_ECHO_SIZE 512
/* IXOFF: STOP when fewer than this many bytes are free, START again when a read has
 * left fewer than this many queued (Linux TTY_THRESHOLD_THROTTLE / _UNTHROTTLE). */
#define LINE_THROTTLE_ROOM 128

/* What line_discipline_receive asks its caller to do (bits). */
#define LINE_EVENT_INPUT        0x01 /* a reader may now have something: wake readers */
#define LINE_EVENT_FLOW         0x02 /* output_stopped changed: tell the backend */
#define LINE_EVENT_SIGNAL       0x04 /* `signal` holds a signal for the foreground */
#define LINE_EVENT_FLUSH_OUTPUT 0x08 /* ISIG without NOFLSH: discard queued output */

/* Signal numbers ISIG raises (Linux asm-generic/signal.h). */
#define LINE_SIGINT  2
#define LINE_SIGQUIT 3
#define LINE_SIGTSTP 20

struct line_counters {
	uint64_t received;      /* bytes handed to line_discipline_receive */
	uint64_t lines;         /* canonical lines ended ('\n', VEOL, VEOL2, VEOF) */
	uint64_t edits;         /* VERASE, VWERASE and VKILL that removed something */
	uint64_t signals;       /* VINTR, VQUIT, VSUSP (and BRKINT breaks) recognised */
	uint64_t echoed;        /* bytes put into `echo` */
	uint64_t echo_dropped;  /* echo bytes lost: `echo` was full */
	uint64_t input_dropped; /* received bytes lost: the read buffer was full */
	uint64_t flow_stops;    /* output stopped by VSTOP (IXON) */
	uint64_t throttles;     /* STOP characters sent for IXOFF */
	uint64_t breaks;        /* breaks received (UART_ERROR_BREAK) */
	uint64_t bad_bytes;     /* bytes received with a parity or framing error */
};

struct line_discipline {
	struct kernel_termios termios;
	uint8_t buffer[LINE_BUFFER_SIZE];
	/* One bit per buffer slot: it ends a canonical line / it is a VEOF marker (a
	 * marker is never returned to read(), as n_tty's __DISABLED_CHAR). */
	uint8_t line_end[LINE_BUFFER_SIZE / 8];
	uint8_t end_of_file[LINE_BUFFER_SIZE / 8];
	/* Free-running indices: tail <= committed <= head. Canonical: [committed, head) is
	 * the line being edited and read() takes only from [tail, committed); otherwise
	 * committed == head. */
	uint32_t tail, committed, head;
	uint32_t column;      /* output column, for erasing tabs and ^X */
	uint32_t line_column; /* the column the line being edited started at */
	bool literal_next;    /* VLNEXT came: take the next byte as it is */
	bool output_stopped;  /* VSTOP (IXON) or TCOOFF: the backend sends nothing */
	bool throttled;       /* IXOFF: STOP was sent, START not yet */
	int signal;           /* with LINE_EVENT_SIGNAL: which */
	/* STOP or START (IXOFF, TCIOFF, TCION) not yet handed to the backend, 0 if none:
	 * one slot apart from `echo`, sent ahead of echo and of queued output, and never
	 * dropped, as Linux's tty->x_char (uart_send_xchar); a newer one replaces it. */
	uint8_t flow_char;
	uint8_t echo[LINE_ECHO_SIZE];
	uint32_t echo_length;
	struct line_counters counters;
};

/* Linux's tty_std_termios (drivers/tty/tty_io.c) with `speed_code` for the speed and
 * CLOCAL (a console has no modem lines), an empty buffer. Any context. */
void line_discipline_init(struct line_discipline *line, uint32_t speed_code);
/* One received byte with its UART_ERROR_* bits. Returns LINE_EVENT_* bits. */
uint32_t line_discipline_receive(struct line_discipline *line, uint8_t byte, uint8_t errors);
/* New settings (TCSETS): switching ICANON on makes what is already buffered one line,
 * switching it off hands out the line being edited, as n_tty_set_termios does. */
void line_discipline_set_termios(struct line_discipline *line, const struct kernel_termios *t);
/* Bytes read() could take now (canonical: complete lines only; FIONREAD). */
uint32_t line_discipline_readable(const struct line_discipline *line);
/* True when a read would return now: readable bytes, or a VEOF marker. */
bool line_discipline_input_ready(const struct line_discipline *line);
/* Take up to `length` bytes (canonical: at most one line, never a VEOF marker; a
 * marker alone is consumed and 0 returned with *end_of_file set). Returns the count.
 * Under IXOFF it may put START in `flow_char`. */
uint32_t line_discipline_read(struct line_discipline *line, uint8_t *out, uint32_t length,
                              bool *end_of_file);
/* TCIFLUSH: drop everything buffered and the line being edited. */
void line_discipline_flush_input(struct line_discipline *line);
/* OPOST processing of `length` bytes into `out` (room for 2 * length); returns the
 * bytes put there. Updates the column. */
size_t line_discipline_process_output(struct line_discipline *line, const uint8_t *in,
                                      size_t length, uint8_t *out);
/* After a write the backend took only `sent` bytes of (a signal: POSIX write's count):
 * how many of the `length` input bytes process_output turned into bytes all within the
 * first `sent`, processing again from `start_column` (the column before it). A byte whose
 * "\r\n" was cut after the "\r" counts as not written, so a retry sends it whole (a
 * second "\r", never a lost "\n"). Leaves the column as after those bytes. */
size_t line_discipline_output_taken(struct line_discipline *line, uint32_t start_column,
                                    const uint8_t *in, size_t length, size_t sent);
/* TCIOFF/TCION's STOP/START, and IXOFF's: into `flow_char`, replacing one not yet
 * sent. */
void line_discipline_send_flow_char(struct line_discipline *line, uint8_t byte);

#endif
