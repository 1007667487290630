/* The console's input side and its line discipline's home (input.c): what the
 * backends' received bytes go through on their way to read(), and the settings the
 * write path's OPOST processing reads. Used by console.c only. */
#ifndef DUPLEX_CONSOLE_INPUT_H
#define DUPLEX_CONSOLE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/console/backend/backend.h"
#include "drivers/console/line_discipline.h"
#include "uapi/termios.h"

/* The console's one line discipline. Its termios is changed only under the input lock
 * (console_input_set_termios); the write path reads c_oflag without it. */
extern struct line_discipline console_line;
/* Echo that found no room in the backend: a reader sends it (input.c). */
extern bool console_echo_pending;

/* At console_init, and again when console_start falls back to polling: the backend
 * received bytes come from and echo goes to. Task context. */
void console_input_attach(const struct console_backend_ops *backend);
/* The backends' receiver (console_receive_fn): any context, never sleeps. */
void console_receive(const uint8_t *bytes, const uint8_t *errors, size_t count,
                     uint64_t received_ticks);
/* read(): canonical lines, or VMIN/VTIME. Task context; sleeps unless nonblocking.
 * The caller serialises readers. */
long console_input_read(uint8_t *buffer, size_t length, bool nonblocking);
/* ppoll/pselect6: whether a read would find input now (canonical mode: a whole line or
 * an end of file), after naming in `table` what announces a change (the readers' queue,
 * or with the polling backend a look again shortly). Any context; never sleeps. */
struct poll_table;
bool console_input_poll(struct poll_table *table);
/* FIONREAD / TIOCINQ. Task context. */
uint32_t console_input_readable(void);
/* TCIFLUSH. Any context. */
void console_input_flush(void);
/* TCGETS (the speed is the caller's) and TCSETS (after the caller's checks). */
void console_input_get_termios(struct kernel_termios *out);
void console_input_set_termios(const struct kernel_termios *wanted);
/* TCXONC: TCOOFF, TCOON, TCIOFF, TCION. Returns 0 or -EINVAL. Any context. */
long console_input_flow(uint64_t action);
/* Send echo that waited (console_echo_pending). Any context. */
void console_flush_echo(void);
/* The line discipline's counters into the telemetry / zero them. */
void console_input_telemetry(struct console_telemetry *out);
void console_input_reset_telemetry(void);
/* From console_start (task context, timers running): the RX watch begins. A backend
 * without an RX interrupt (poll_receive, the polling backend) is looked at every
 * RX_WATCH_NS from a kernel timer while the read buffer has room, so that a ^C typed
 * while nobody reads still reaches the foreground job, as Linux's 8250 driver polls a
 * port without an interrupt from a timer (serial8250_timeout). Nothing for a backend
 * with an RX interrupt. Off unless the boot asks (`console.rx_watch`): under QEMU
 * -icount its 10 ms wake-ups alone, with no look at the UART, made sleepers on other
 * harts wake up to 6 ms late while a polling writer spins (bench S43 p99 5.8 ms, the
 * polling-fifo lab's reference failing its lateness test): QEMU 7.2's round-robin gives
 * the writer's hart whole turns to the next timer deadline (docs/design.md, "Whose turn
 * it is under QEMU -icount"). */
void console_input_start_watch(void);
/* ISIG: a VINTR, VQUIT or VSUSP (or a BRKINT break) typed at the console, for the
 * foreground process group. Any context (the RX interrupt); never sleeps. */
void console_signal_foreground(int signal);

#endif
