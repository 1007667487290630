/* Magic SysRq on the serial console, as Linux's serial core recognises it
 * (uart_handle_break, uart_handle_sysrq_char; drivers/tty/sysrq.c): a BREAK on the line,
 * then within SYSRQ_TIMEOUT_NS one key, which is a command and not input:
 *   t  every task (kernel/proc/task_dump.h)
 *   w  the blocked tasks only
 *   anything else: a help line
 * While on, the first BREAK is taken for SysRq and not received (a second BREAK within
 * the timeout is received as termios says, again as Linux does), which is why it is off
 * unless the kernel command line has `console.sysrq`. Called by console_receive under
 * the console input lock. */
#ifndef DUPLEX_CONSOLE_SYSRQ_H
#define DUPLEX_CONSOLE_SYSRQ_H

#include <stdbool.h>
#include <stdint.h>

/* Linux's SYSRQ_TIMEOUT (HZ * 5, include/linux/serial_core.h). */
#define SYSRQ_TIMEOUT_NS 5000000000ull

/* One terminal's SysRq state (struct console_tty). */
struct sysrq_state {
	bool enabled;            /* `console.sysrq` (atomic) */
	uint64_t armed_until_ns; /* a BREAK came; the key is awaited until then */
};

/* Turn SysRq on (console_sysrq_enable, for `console.sysrq`). Any context. */
void sysrq_enable(struct sysrq_state *state);

/* Look at one received byte and its UART_ERROR_* bits first: true if SysRq took it (a
 * BREAK that arms it, or the key after; the key, or 0 for the break, in *key). Caller
 * holds the terminal's input lock; any context. */
bool console_sysrq_filter(struct sysrq_state *state, uint8_t byte, uint8_t errors, char *key);

/* Run the command for `key` (never 0). Call it after dropping the input lock: it
 * prints many log lines. Any context; never sleeps. */
void console_sysrq_run(char key);

#endif
