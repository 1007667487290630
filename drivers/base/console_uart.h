/* The console's UART, as bring-up gets it: the node /chosen stdout-path names, bound
 * through the driver table at the baud the command line asks for (uart.baud=), and,
 * with uart.line=, wrapped in the line model (drivers/uart/line_model.c), a simulated
 * wire under it. */
#ifndef DUPLEX_DRIVERS_BASE_CONSOLE_UART_H
#define DUPLEX_DRIVERS_BASE_CONSOLE_UART_H

#include "drivers/uart/uart.h"
#include "kernel/cmdline/cmdline.h"
#include "kernel/fdt/platform.h"

/* Called once by kernel_main on the boot hart, before console_early_init: the UART the
 * console is to use (the node console=ttySN, stdout-path or the serial0 alias names, else
 * the first UART a driver takes; platform->uart then describes it), or null when none. Logs nothing
 * (the log still goes to SBI): console_uart_report says what happened. */
struct uart *console_uart_bind(struct platform *platform, const struct cmdline *cmdline);
/* N of the console's Linux name, ttySN: the serialN alias of its node, else 0. After
 * console_uart_bind. */
int console_uart_port_number(void);

/* The UART driver's firmware-compatible mode back on (uart.h set_sole_driver false):
 * kernel_main hands this to kernel/sbi, which calls it before every SBI call after
 * which the firmware may write to the UART (its console putchar, reset, shutdown).
 * Any context; the console's other users are idle or stopped by then (power-off
 * after console_sync, panic after stopping the other harts, breadcrumbs before the
 * console backend starts). Never sleeps, takes no lock. */
void console_uart_hand_back(void);

/* Called by kernel_main once the log goes out through the console: the UART's and the
 * line model's boot log lines, and why a bad uart.baud= or uart.line= was ignored. */
void console_uart_report(const struct platform *platform);

#endif
