/* A terminal's input side and its line discipline's home (input.c): what a port's
 * received bytes go through on their way to read(), and the settings the write path's
 * OPOST processing reads. Used by console.c only. */
#ifndef DUPLEX_CONSOLE_INPUT_H
#define DUPLEX_CONSOLE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/console/tty.h"
#include "uapi/termios.h"

/* The terminal a port belongs to. Any context. */
static inline struct console_tty *console_tty_of(struct console_port *port)
{
	return (struct console_tty *)((char *)port - __builtin_offsetof(struct console_tty, port));
}

/* Once per terminal at boot, before its port can receive: the line discipline and its
 * lock. Task context. */
void console_input_init(struct console_tty *tty);
/* The ports' receiver (console_receive_fn): any context, never sleeps. */
void console_receive(struct console_port *port, const uint8_t *bytes, const uint8_t *errors,
                     size_t count, uint64_t received_ticks);
/* read(): canonical lines, or VMIN/VTIME. Task context; sleeps unless nonblocking.
 * The caller serialises readers. */
long console_input_read(struct console_tty *tty, uint8_t *buffer, size_t length, bool nonblocking);
/* ppoll/pselect6: whether a read would find input now (canonical mode: a whole line or
 * an end of file), after naming in `table` what announces a change (the readers' queue,
 * or on a port without an RX interrupt a look again shortly). Any context; never sleeps. */
struct poll_table;
bool console_input_poll(struct console_tty *tty, struct poll_table *table);
/* FIONREAD / TIOCINQ. Task context. */
uint32_t console_input_readable(struct console_tty *tty);
/* TCIFLUSH. Any context. */
void console_input_flush(struct console_tty *tty);
/* TCGETS (the speed is the caller's) and TCSETS (after the caller's checks). */
void console_input_get_termios(struct console_tty *tty, struct kernel_termios *out);
void console_input_set_termios(struct console_tty *tty, const struct kernel_termios *wanted);
/* TCXONC: TCOOFF, TCOON, TCIOFF, TCION. Returns 0 or -EINVAL. Any context. */
long console_input_flow(struct console_tty *tty, uint64_t action);
/* Send echo that waited (tty->echo_pending). Any context. */
void console_flush_echo(struct console_tty *tty);
/* The line discipline's counters into the telemetry / zero them. */
void console_input_telemetry(struct console_tty *tty, struct console_telemetry *out);
void console_input_reset_telemetry(struct console_tty *tty);
/* From console_start (task context, timers running): the RX watch begins. A port
 * without an RX interrupt (the polling policy) is looked at every RX_WATCH_NS from a
 * kernel timer while the read buffer has room, so that a ^C typed while nobody reads
 * still reaches the foreground job, as Linux's 8250 driver polls a port without an
 * interrupt from a timer (serial8250_timeout). Nothing for a port with an RX
 * interrupt. Off unless the boot asks (`console.rx_watch`): under QEMU -icount its
 * 10 ms wake-ups alone, with no look at the UART, made sleepers on other harts wake up
 * to 6 ms late while a polling writer spins (bench S43 p99 5.8 ms, the polling-fifo
 * lab's reference failing its lateness test): QEMU 7.2's round-robin gives the writer's
 * hart whole turns to the next timer deadline (docs/design.md, "Whose turn it is under
 * QEMU -icount"). */
void console_input_start_watch(struct console_tty *tty);
/* ISIG: a VINTR, VQUIT or VSUSP (or a BRKINT break) typed at the terminal, for the
 * foreground process group. Any context (the RX interrupt); never sleeps. */
void console_signal_foreground(struct console_tty *tty, int signal);

#endif
