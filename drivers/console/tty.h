/* A console terminal: one port (port/port.h, the UART's half) and what the core keeps
 * per terminal above it — the line discipline and its input side (input.c), the readers'
 * and OPOST's mutexes, the window size, Magic SysRq. Linux splits the same state between
 * struct uart_state / tty_port and struct tty_struct; Duplex keeps one per UART, in the
 * core's table of terminals (console.c), the only console state that is not in one. */
#ifndef DUPLEX_CONSOLE_TTY_H
#define DUPLEX_CONSOLE_TTY_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/console/line_discipline.h"
#include "drivers/console/port/port.h"
#include "drivers/console/sysrq.h"
#include "kernel/sync/mutex.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/timer.h"
#include "kernel/waker/wait_queue.h"
#include "uapi/termios.h"

struct console_tty {
	struct console_port port;
	char device_path[16]; /* "/dev/ttyS0": the port by its Linux name */

	/* Input (input.c). `input_lock` guards the line discipline; its termios is changed
	 * only under it, and the write path reads c_oflag without it. */
	struct line_discipline line;
	struct spinlock input_lock;
	struct wait_queue input_waiters;
	bool echo_pending;           /* echo that found no room in the port: a reader sends it */
	bool receive_throttled;      /* what the port was last told; under input_lock */
	uint64_t wakeups;            /* readers woken (added to the telemetry's wakeups) */
	uint64_t foreground_signals; /* console_signal_foreground calls */
	/* `time` ticks the last received byte, and the last ISIG byte, were first known;
	 * under input_lock. For the telemetry. */
	uint64_t last_rx_ticks, last_signal_rx_ticks;
	struct timer rx_watch;
	bool rx_watch_started;
	struct sysrq_state sysrq;

	/* The file interface (console.c). */
	struct mutex reader;   /* one reader at a time */
	struct mutex expander; /* owns `processed`, write_processed's OPOST buffer */
	uint8_t processed[CONSOLE_ATOMIC_MAX];
	/* TIOCGWINSZ: 80 x 24 until TIOCSWINSZ says otherwise (a serial line cannot know;
	 * Linux reports 0 x 0 and programs assume 80 x 24). Under `window_lock`. */
	struct kernel_winsize window;
	struct spinlock window_lock;
	uint64_t breaks_sent;
	uint64_t log_skipped_at_reset; /* log_skipped_records() at the last telemetry reset */
};

#endif
