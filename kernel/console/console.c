/* The console core: every console system call comes through here (/dev/console's file
 * operations), and so does the kernel log. It owns what is the same for every
 * backend — termios settings, "\n" -> "\r\n" output processing, splitting writes into
 * atomic pieces, serialising readers, the telemetry ioctls — and hands bytes to the
 * backend chosen on the command line (console=polling|async[,options]) through its
 * ops table (backend.h). */
#include "kernel/console/console.h"

#include <stdbool.h>
#include <stdint.h>

#include "kernel/console/backend.h"
#include "kernel/console/termios.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/mm/heap.h"
#include "kernel/sync/mutex.h"

static const struct console_backend_ops *const backends[] = {
    &console_polling_backend,
    &console_async_backend,
};

static const struct console_backend_ops *backend;
static struct uart *console_uart;
static char backend_options[32]; /* as given on the command line, for CONSOLE_IOCTL_INFO */
static struct mutex reader = MUTEX_INIT("console reader");
static struct kernel_termios settings = {
    .c_oflag = OPOST | ONLCR,
    .c_cflag = B115200 | CS8 | CREAD | CLOCAL,
};

/* Before console_init (and if it fails) the log goes out polled. */
static void early_log_write(const char *text, size_t length)
{
	if (console_uart)
		uart_write_polled(console_uart, text, length);
}

void console_early_init(struct uart *uart)
{
	console_uart = uart;
}

/* Copy a NUL-terminated string into a fixed field, cut to fit, always terminated. */
static void copy_name(char *field, size_t size, const char *text)
{
	size_t length = strlen(text);
	if (length > size - 1)
		length = size - 1;
	memcpy(field, text, length);
	field[length] = 0;
}

int console_init(const char *choice)
{
	struct uart *uart = console_uart;
	if (!uart)
		return -1;
	if (!choice || !choice[0])
		choice = "async";
	char name[16];
	size_t length = 0;
	while (choice[length] && choice[length] != ',' && length < sizeof name - 1) {
		name[length] = choice[length];
		length++;
	}
	name[length] = 0;
	const char *options = choice[length] == ',' ? choice + length + 1 : "";
	for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++) {
		if (strcmp(backends[i]->name, name) != 0)
			continue;
		if (backends[i]->init(uart, options) != 0) {
			log_printf("console: %s: bad options '%s'\n", name, options);
			return -1;
		}
		backend = backends[i];
		copy_name(backend_options, sizeof backend_options, options);
		char description[128];
		backend->describe(description, sizeof description);
		log_printf("console: %s\n", description);
		return 0;
	}
	log_printf("console: no backend named '%s' (polling, async)\n", name);
	return -1;
}

/* Kernel log text: "\n" becomes "\r\n" whatever termios says (the log is for
 * people). `line` must hold twice `length`; returns the new length. */
static size_t expand_log_line(char *line, const char *text, size_t length)
{
	size_t out = 0;
	for (size_t i = 0; i < length; i++) {
		if (text[i] == '\n')
			line[out++] = '\r';
		line[out++] = text[i];
	}
	return out;
}

/* Expand and send a log line through the backend's log path or its emergency path. */
static void send_log_line(const char *text, size_t length, bool emergency)
{
	char line[2 * LOG_LINE_MAX];
	if (length > LOG_LINE_MAX)
		length = LOG_LINE_MAX;
	size_t out = expand_log_line(line, text, length);
	if (!backend)
		early_log_write(line, out);
	else if (emergency)
		backend->emergency_write(line, out);
	else
		backend->log_write(line, out);
}

void console_log_write(const char *text, size_t length)
{
	send_log_line(text, length, false);
}

void console_emergency_write(const char *text, size_t length)
{
	send_log_line(text, length, true);
}

void console_start(void)
{
	if (backend && backend->start)
		backend->start();
}

void console_sync(void)
{
	if (backend)
		backend->drain();
}

static bool contains_newline(const uint8_t *data, size_t length)
{
	for (size_t i = 0; i < length; i++) {
		if (data[i] == '\n')
			return true;
	}
	return false;
}

static bool translating(void)
{
	return (settings.c_oflag & (OPOST | ONLCR)) == (OPOST | ONLCR);
}

/* console_write's piece with "\n"s in it under ONLCR: expanded into a kernel buffer
 * first. Out of line, so that the common raw or newline-free write saves no registers
 * for it. Task context; may sleep. */
static long __attribute__((noinline))
write_expanded(const uint8_t *bytes, size_t length, bool nonblocking)
{
	uint8_t *expanded = kmalloc(CONSOLE_ATOMIC_MAX);
	if (!expanded)
		return -ENOMEM;
	size_t out = 0;
	for (size_t i = 0; i < length; i++) {
		if (bytes[i] == '\n')
			expanded[out++] = '\r';
		expanded[out++] = bytes[i];
	}
	long result = backend->write(expanded, out, nonblocking);
	kfree(expanded);
	return result < 0 ? result : (long)length;
}

/* write(): the syscall layer hands at most FILE_CHUNK (4096) bytes at a time; each
 * piece goes to the backend whole, "\n"s expanded first. Task context; may sleep
 * unless the file is O_NONBLOCK; the backend takes its own locks. */
static long console_write(struct file *file, const void *data, size_t length)
{
	bool nonblocking = file->flags & O_NONBLOCK;
	if (translating() && contains_newline(data, length))
		return write_expanded(data, length, nonblocking);
	return backend->write(data, length, nonblocking);
}

static long console_read(struct file *file, void *buffer, size_t length)
{
	bool nonblocking = file->flags & O_NONBLOCK;
	if (nonblocking) {
		if (!mutex_trylock(&reader))
			return -EAGAIN;
	} else {
		mutex_lock(&reader);
	}
	long result = backend->read(buffer, length, nonblocking);
	mutex_unlock(&reader);
	return result;
}

/* CONSOLE_IOCTL_INFO: which backend, over what. The line model is a UART like any
 * other to the backends; only here is it asked about (through the UART interface's
 * wire_model), so that results can be labelled as coming from a simulated wire. Task
 * context. */
static void console_describe(struct console_info *info)
{
	memset(info, 0, sizeof *info);
	copy_name(info->backend, sizeof info->backend, backend->name);
	copy_name(info->options, sizeof info->options, backend_options);
	info->baud = console_uart->baud;
	info->fifo_depth = console_uart->fifo_depth;
	info->tx_threshold = console_uart->tx_threshold;
	info->bits_per_byte = UART_BITS_PER_BYTE;
	if (info->baud)
		info->byte_ps = info->bits_per_byte * 1000000000000ull / info->baud;
	struct uart_wire_model model;
	bool modelled = uart_wire_model(console_uart, &model);
	struct uart *real = modelled ? model.real : console_uart;
	info->uart_baud = real->baud;
	info->uart_clock_hz = real->clock_hz;
	if (modelled) {
		info->line_model = 1;
		info->byte_ps = model.byte_ps;
		info->line_overruns = model.overrun_bytes;
		info->line_tx_events = model.tx_events;
		info->requested_baud = model.requested_baud;
	}
}

/* console_ioctl's requests other than TCSBRK. Task context; may sleep (TCSETSW). */
static long __attribute__((noinline)) console_ioctl_other(unsigned long request, void *argument)
{
	switch (request) {
	case TCGETS:
		memcpy(argument, &settings, sizeof settings);
		return 0;
	case TCSETSW:
	case TCSETSF:
		backend->drain(); /* "after all output is transmitted" (termios(3)) */
		                  /* fall through */
	case TCSETS:
		memcpy(&settings, argument, sizeof settings);
		settings.c_lflag = 0; /* input is always raw on this console */
		return 0;
	case FIONREAD:
		*(int *)argument = (int)backend->readable();
		return 0;
	case TIOCOUTQ:
		*(int *)argument = (int)backend->output_queued();
		return 0;
	case CONSOLE_IOCTL_TELEMETRY:
		backend->telemetry(argument);
		return 0;
	case CONSOLE_IOCTL_RESET_TELEMETRY:
		backend->reset_telemetry();
		return 0;
	case CONSOLE_IOCTL_INFO:
		console_describe(argument);
		return 0;
	default:
		return -ENOTTY;
	}
}

/* /dev/console's ioctl: the syscall layer has copied any argument structure in. Task
 * context; may sleep. tcdrain (TCSBRK), the frequent one, is looked at first. */
static long console_ioctl(struct file *file, unsigned long request, void *argument, uint64_t value)
{
	(void)file;
	if (request == TCSBRK) /* value != 0 is tcdrain(); 0 asks for a break: unsupported */
		return value ? backend->drain() : -EINVAL;
	return console_ioctl_other(request, argument);
}

static const struct file_ops console_ops = {
    .read = console_read,
    .write = console_write,
    .ioctl = console_ioctl,
};

const struct file_ops *console_file_ops(void)
{
	return &console_ops;
}
