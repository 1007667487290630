/* The console: what /dev/console and the kernel log write to and read from.
 * The core (console.c) keeps a terminal per console UART (tty.h) and talks to its port
 * (port/port.h), which runs the TX policy chosen at boot (policy/). A write of up to FILE_CHUNK
 * (4096) bytes appears whole, never interleaved with another writer's bytes, on every backend. */
#ifndef DUPLEX_CONSOLE_H
#define DUPLEX_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/fs/file.h"
#include "drivers/uart/uart.h"

/* Called once at boot, as soon as the console's UART is probed (drivers/base/
 * console_uart.h says which): from then on the kernel log goes out through it, polled.
 * `number` is N of its Linux name, ttySN. */
void console_early_init(struct uart *uart, int number);
/* "/dev/ttySN", the console's port by its Linux name, after console_early_init; a
 * string that lives for ever (file_register_device keeps it). */
const char *console_device_path(void);
/* Called once at boot, after the interrupt controller is up, with the console= value
 * ("polling,byte", "async,ring=65536"; NULL or "" means async). Returns 0, or -1 (and
 * logs why) for an unknown backend or bad options, leaving the early polled mode. */
int console_init(const char *choice);
/* The kernel log's sink: any context, never sleeps; false when the backend has no room
 * now (it calls log_flush_console once it has). */
bool console_log_write(const char *text, size_t length);
/* The panic path's sink: synchronous, lock-free. */
void console_emergency_write(const char *text, size_t length);
/* Before power-off: print every kernel log record not printed yet and wait until
 * everything queued has left the UART; records a busy console never took room for go
 * out polled at the end. Task context; sleeps. */
void console_sync(void);
/* Called by the init task before anything else runs: start the backend's own tasks,
 * if it has any, and the RX watch if `watch_receiver` (the `console.rx_watch` boot
 * parameter; drivers/console/input.h says what it is for). Task context. */
void console_start(bool watch_receiver);
/* Magic SysRq on every console terminal (drivers/console/sysrq.h), for the
 * `console.sysrq` boot parameter. Called by the init task. */
void console_sysrq_enable(void);
/* Open-file operations for /dev/console (and /dev/ttyS0, the same terminal). */
const struct file_ops *console_file_ops(void);

#endif
