/* The console core: every console system call comes through here (/dev/console's file
 * operations), and so does the kernel log. It owns what is the same for every
 * backend — termios and the line discipline (input.c, line_discipline.c), OPOST output
 * processing, splitting writes into atomic pieces, serialising readers, break, the
 * window size, the telemetry ioctls — and hands bytes to the backend chosen on the
 * command line (console=polling|async[,options]) through its ops table (backend.h). */
#include "drivers/console/console.h"

#include <stdbool.h>
#include <stdint.h>

#include "drivers/console/backend/backend.h"
#include "drivers/console/input.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/proc/terminal.h"
#include "kernel/signal/signal.h"
#include "kernel/sched/sleep.h"
#include "kernel/sync/mutex.h"
#include "kernel/sync/spinlock.h"
#include "kernel/trace/trace.h"
#include "kernel/waker/poll_table.h"
#include "uapi/termios.h"

/* console_sync: how long it keeps offering the log to a busy console before it prints
 * the rest polled (at most SYNC_ROUNDS * SYNC_ROUND_NS of waiting, plus the drains). */
#define SYNC_ROUNDS   1000
#define SYNC_ROUND_NS 1000000

static const struct console_backend_ops *const backends[] = {
    &console_polling_backend,
    &console_async_backend,
};

static const struct console_backend_ops *backend;
static struct uart *console_uart;
static char backend_options[32]; /* as given on the command line, for CONSOLE_IOCTL_INFO */
static struct mutex reader = MUTEX_INIT("console reader");
static struct mutex expander = MUTEX_INIT("console expander"); /* write_processed's buffer */
static uint64_t log_skipped_at_reset; /* log_skipped_records() at the last telemetry reset */
/* TIOCGWINSZ: 80 x 24 until TIOCSWINSZ says otherwise (a serial line cannot know;
 * Linux reports 0 x 0 and programs assume 80 x 24). Under `window_lock`. */
static struct kernel_winsize window = {.ws_row = 24, .ws_col = 80};
static struct spinlock window_lock = SPINLOCK_INIT("console window size");
static uint64_t breaks_sent;
/* tcsendbreak's break (TCSBRK 0, TCSBRKP 0): 250 ms, as Linux's tty_send_break. */
#define BREAK_NS      250000000ull
#define DECISECOND_NS 100000000ull

/* Before console_init (and if it fails) the log goes out polled. */
static bool early_log_write(const char *text, size_t length)
{
	if (console_uart)
		uart_write_polled(console_uart, text, length);
	return true;
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
		console_input_attach(backends[i]);
		int status = backends[i]->init(uart, options, console_receive);
		if (status != 0) {
			if (status == -1)
				log_printf("console: %s: bad options '%s'\n", name, options);
			return -1;
		}
		backend = backends[i];
		console_input_attach(backend);
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

/* Expand and send a log line through the backend's log path or its emergency path.
 * Returns false when the log path had no room (nothing was sent). */
static bool send_log_line(const char *text, size_t length, bool emergency)
{
	char line[2 * LOG_LINE_MAX];
	if (length > LOG_LINE_MAX)
		length = LOG_LINE_MAX;
	size_t out = expand_log_line(line, text, length);
	if (!backend)
		return early_log_write(line, out);
	if (!emergency)
		return backend->log_write(line, out);
	backend->emergency_write(line, out);
	return true;
}

bool console_log_write(const char *text, size_t length)
{
	return send_log_line(text, length, false);
}

void console_emergency_write(const char *text, size_t length)
{
	send_log_line(text, length, true);
}

/* How long console_start waits for the first TX interrupt: long enough for a FIFO
 * in flight to drain four times over at the UART's baud, and never under 200 ms. */
static uint64_t tx_check_patience_ns(void)
{
	uint64_t patience = 200000000ull;
	if (console_uart->baud) {
		uint64_t fifo_ns =
		    (uint64_t)console_uart->fifo_depth * 10 * 1000000000ull / console_uart->baud;
		if (4 * fifo_ns > patience)
			patience = 4 * fifo_ns;
	}
	return patience;
}

void console_start(bool watch_receiver)
{
	if (backend && backend->start)
		backend->start();
	if (watch_receiver) /* a polling backend's: again after the fallback below */
		console_input_start_watch();
	if (!backend || !backend->tx_interrupt_check)
		return;
	/* A backend that waits for TX interrupts that never come stops all output for
	 * good (a wrong interrupt number, an interrupt not routed): on a board the
	 * screen would just stay dark. So ask for one, and if it does not come, say so
	 * synchronously and carry on polled. */
	uint64_t patience = tx_check_patience_ns();
	if (backend->tx_interrupt_check(patience)) {
		log_printf("console: TX interrupt check: PASS\n");
		return;
	}
	backend->stop();
	log_emergency("console: TX interrupt check: FAIL: no TX interrupt from the UART (irq "
	              "%u) within %lu ms; falling back to polling (console=polling)\n",
	              console_uart->irq, (unsigned long)(patience / 1000000));
	const struct console_backend_ops *failed = backend;
	backend = 0; /* the log is polled (early_log_write) until polling is in */
	if (console_init("polling") != 0) {
		backend = failed;
		console_input_attach(failed);
	}
	/* The polled receiver needs its watch now, as console=polling would have had from
	 * the start: without it a typed ^C or ^Z waits for the next read or write. */
	if (watch_receiver)
		console_input_start_watch();
}

void console_sync(void)
{
	/* Each round prints what the backend takes and waits until it has left; a console
	 * shared with busy writers can need several. */
	for (int round = 0; round < SYNC_ROUNDS; round++) {
		log_flush_console();
		if (backend)
			backend->drain();
		if (!log_console_behind()) {
			/* A TX interrupt may have queued the last records after that drain. */
			if (backend)
				backend->drain();
			return;
		}
		sleep_for(SYNC_ROUND_NS);
	}
	/* The log path never found room: print the rest polled. */
	log_flush_emergency();
}

static bool contains_newline(const uint8_t *data, size_t length)
{
	for (size_t i = 0; i < length; i++) {
		if (data[i] == '\n')
			return true;
	}
	return false;
}

/* The OPOST flags that change bytes (c_oflag). */
#define OUTPUT_CHANGES (ONLCR | OCRNL | ONOCR | ONLRET | OLCUC)

/* console_write's piece when OPOST changes it: processed into `processed` first (the
 * line discipline's OPOST: ONLCR, OCRNL, ...), which the `expander` mutex owns (the
 * backend writes one piece at a time anyway), so that a console write never depends on
 * free memory. Out of line, so that the common raw or newline-free write saves no
 * registers for it. Task context; may sleep unless `nonblocking` (then -EAGAIN while
 * another writer expands); a signal ends the wait for that writer. */
static long __attribute__((noinline))
write_processed(const uint8_t *bytes, size_t length, bool nonblocking)
{
	static uint8_t processed[CONSOLE_ATOMIC_MAX];
	int locked = mutex_lock_for_call(&expander, nonblocking);
	if (locked)
		return locked;
	uint32_t start_column = console_line.column;
	size_t out = line_discipline_process_output(&console_line, bytes, length, processed);
	long result = backend->write(processed, out, nonblocking);
	if (result >= 0 && (size_t)result < out) /* a signal: count what went of `bytes` */
		result = (long)line_discipline_output_taken(&console_line, start_column, bytes,
		                                            length, (size_t)result);
	else if (result >= 0)
		result = (long)length;
	mutex_unlock(&expander);
	return result;
}

/* write(): the syscall layer hands at most FILE_CHUNK (4096) bytes at a time; each
 * piece goes to the backend whole, through OPOST first when that changes it. The fast
 * path is the default OPOST|ONLCR on a piece with no "\n" (and OPOST off): the bytes go
 * as they are, and the output column the line discipline keeps for erasing tabs is not
 * updated (it is reset by every "\n"). Task context; may sleep unless the file is
 * O_NONBLOCK; the backend takes its own locks. */
static inline long write_piece(const void *data, size_t length, bool nonblocking)
{
	if (!backend)
		return -ENODEV; /* no UART: the boot log said why */
	uint32_t oflag = console_line.termios.c_oflag;
	uint32_t changes = oflag & OPOST ? oflag & OUTPUT_CHANGES : 0;
	if (changes && (changes != ONLCR || contains_newline(data, length)))
		return write_processed(data, length, nonblocking);
	return backend->write(data, length, nonblocking);
}

/* console_write while the tracer records the console: out of line, so that the untraced
 * path stays a tail call. Task context; may sleep. */
static long __attribute__((noinline))
write_traced(const void *data, size_t length, bool nonblocking)
{
	trace_emit(TRACE_WRITE_ENTER, (uint32_t)length, 0, 0, 0);
	long result = write_piece(data, length, nonblocking);
	trace_emit(TRACE_WRITE_EXIT, 0, (uint64_t)result, 0, 0);
	return result;
}

static long console_write(struct file *file, const void *data, size_t length)
{
	bool nonblocking = file->flags & O_NONBLOCK;
	/* TOSTOP: a background group's write gets SIGTTOU (Linux n_tty_write). */
	if (console_line.termios.c_lflag & TOSTOP) {
		int access = terminal_check_access(SIGTTOU);
		if (access)
			return access;
	}
	if (trace_enabled(TRACE_CONSOLE))
		return write_traced(data, length, nonblocking);
	return write_piece(data, length, nonblocking);
}

static long console_read(struct file *file, void *buffer, size_t length)
{
	bool nonblocking = file->flags & O_NONBLOCK;
	if (!backend)
		return -ENODEV;
	/* A background group's read gets SIGTTIN, or EIO (Linux n_tty_read's
	 * job_control). */
	int access = terminal_check_access(SIGTTIN);
	if (access)
		return access;
	/* One reader at a time; a signal ends the wait for the one before (Linux n_tty_read
	 * takes its atomic_read_lock with mutex_lock_interruptible). */
	int locked = mutex_lock_for_call(&reader, nonblocking);
	if (locked)
		return locked;
	long result = console_input_read(buffer, length, nonblocking);
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

/* The B* speed codes of c_cflag's CBAUD field and their rates
 * (include/uapi/asm-generic/termbits.h). */
static const struct {
	uint32_t code;
	uint32_t baud;
} speeds[] = {
    {0000001, 50},      {0000002, 75},      {0000003, 110},     {0000004, 134},
    {0000005, 150},     {0000006, 200},     {0000007, 300},     {0000010, 600},
    {0000011, 1200},    {0000012, 1800},    {0000013, 2400},    {0000014, 4800},
    {0000015, 9600},    {0000016, 19200},   {0000017, 38400},   {0010001, 57600},
    {0010002, 115200},  {0010003, 230400},  {0010004, 460800},  {0010005, 500000},
    {0010006, 576000},  {0010007, 921600},  {0010010, 1000000}, {0010011, 1152000},
    {0010012, 1500000}, {0010013, 2000000}, {0010014, 2500000}, {0010015, 3000000},
    {0010016, 3500000}, {0010017, 4000000},
};
#define SPEED_COUNT (sizeof speeds / sizeof speeds[0])

/* The rate a CBAUD code names, 0 for B0, BOTHER and codes that name none. */
static uint32_t baud_of_code(uint32_t code)
{
	for (size_t i = 0; i < SPEED_COUNT; i++)
		if (speeds[i].code == code)
			return speeds[i].baud;
	return 0;
}

/* The CBAUD code for the rate the UART really runs at: the standard rate it is within
 * 2 % of (as Linux's tty_termios_encode_baud_rate names it: the D1's 24 MHz / (16 * 13)
 * = 115384 baud is B115200), else BOTHER, since struct termios has no field for the
 * number itself. */
static uint32_t code_of_current_speed(void)
{
	for (size_t i = 0; i < SPEED_COUNT; i++)
		if (uart_baud_close(console_uart->baud, 1, speeds[i].baud))
			return speeds[i].code;
	return BOTHER;
}

/* TCGETS: the settings, with the speed the line really has now. Task context. */
static void get_termios(struct kernel_termios *out)
{
	console_input_get_termios(out);
	out->c_cflag = (out->c_cflag & ~(uint32_t)(CBAUD | CIBAUD)) | code_of_current_speed();
}

#define SOFT_CFLAGS (CREAD | CLOCAL | HUPCL)

/* TCSETS: a new speed is applied (after the output drains: the backend's set_baud) or
 * refused with -EINVAL when the UART cannot run at it, leaving everything as it was; the
 * rest goes to the line discipline, but the framing (CSIZE, CSTOPB, PARENB...) stays
 * the 8N1 in force.
 * -EINVAL also for B0 (hang up: a console cannot), BOTHER (the rate is
 * only in termios2) and an input speed other than the output's (one divisor serves
 * both). Task context; may sleep. */
static long set_termios(const struct kernel_termios *wanted)
{
	uint32_t code = wanted->c_cflag & CBAUD;
	uint32_t input_code = (wanted->c_cflag & CIBAUD) >> 16; /* IBSHIFT */
	if (input_code != 0 && input_code != code)
		return -EINVAL;
	if (code != code_of_current_speed()) { /* what TCGETS gave is always taken back */
		uint32_t baud = baud_of_code(code);
		if (baud == 0)
			return -EINVAL;
		long in_force = backend->set_baud(baud);
		if (in_force < 0)
			return in_force;
	}
	/* c_cflag: the speed is the UART's (get_termios); of the rest only CREAD, CLOCAL
	 * and HUPCL are not hardware: the framing stays the 8N1 the UART runs (Linux keeps
	 * the old hardware bits for a driver that cannot change them, tty_termios_copy_hw). */
	struct kernel_termios settings;
	console_input_get_termios(&settings);
	uint32_t hardware = settings.c_cflag & ~(uint32_t)(CBAUD | CIBAUD | SOFT_CFLAGS);
	settings = *wanted;
	settings.c_cflag = (wanted->c_cflag & SOFT_CFLAGS) | hardware;
	console_input_set_termios(&settings);
	return 0;
}

/* A break on the line for `duration_ns` (tcsendbreak), after the output has drained,
 * as Linux's tty_send_break; a UART that cannot send one makes it a no-op, as Linux
 * does for a driver without break_ctl. Task context; sleeps. */
static long send_break(uint64_t duration_ns)
{
	if (!backend->set_break)
		return 0;
	int drained = backend->drain();
	if (drained < 0)
		return drained;
	if (!backend->set_break(true))
		return 0;
	__atomic_fetch_add(&breaks_sent, 1, __ATOMIC_RELAXED);
	sleep_for(duration_ns);
	backend->set_break(false);
	return 0;
}

/* TIOCSBRK / TIOCCBRK: the break condition on or off until told otherwise. */
static long hold_break(bool on)
{
	if (!backend->set_break)
		return 0;
	if (backend->set_break(on) && on)
		__atomic_fetch_add(&breaks_sent, 1, __ATOMIC_RELAXED);
	return 0;
}

/* TCFLSH: TCIFLUSH, TCOFLUSH, TCIOFLUSH (tcflush(3)). */
static long flush_queues(uint64_t which)
{
	if (which > TCIOFLUSH)
		return -EINVAL;
	if (which != TCOFLUSH)
		console_input_flush();
	if (which != TCIFLUSH && backend->flush_output)
		backend->flush_output();
	return 0;
}

/* Does `request` change the terminal, so that a background group must not make it
 * unless it ignores or blocks SIGTTOU? Linux tty_ioctl and set_termios call
 * tty_check_change for these; TIOCSPGRP checks in terminal_set_foreground_group. */
static bool changes_terminal(unsigned long request)
{
	switch (request) {
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
	case TCSBRK:
	case TCSBRKP:
	case TIOCSBRK:
	case TIOCCBRK:
	case TCFLSH:
	case TCXONC:
		return true;
	default:
		return false;
	}
}

/* The job-control requests (kernel/proc/terminal.h): their result, or 1 for a request
 * that is not one of them. */
static long job_control_ioctl(unsigned long request, void *argument, uint64_t value)
{
	int result;
	switch (request) {
	case TIOCSCTTY:
		return terminal_acquire(value == 1);
	case TIOCNOTTY:
		return terminal_release();
	case TIOCGPGRP:
	case TIOCGSID:
		result = request == TIOCGPGRP ? terminal_foreground_group() : terminal_session();
		if (result < 0)
			return result;
		if (request == TIOCGSID && result == 0)
			return -ENOTTY; /* Linux tiocgsid: no session */
		*(int *)argument = result;
		return 0;
	case TIOCSPGRP:
		return terminal_set_foreground_group(*(const int *)argument);
	default:
		return 1;
	}
}

/* console_ioctl's requests other than tcdrain. `value` is the raw argument of the
 * requests that take an int by value. Task context; may sleep (TCSETSW, TCSETSF,
 * TCSETS with a new speed, a break). */
static long __attribute__((noinline))
console_ioctl_other(unsigned long request, void *argument, uint64_t value)
{
	if (changes_terminal(request)) {
		int access = terminal_check_access(SIGTTOU);
		if (access)
			return access;
	}
	long job_control = job_control_ioctl(request, argument, value);
	if (job_control != 1)
		return job_control;
	switch (request) {
	case TCGETS:
		get_termios(argument);
		return 0;
	case TCSETSF: { /* drain, then discard pending input (termios(3) TCSAFLUSH) */
		int drained = backend->drain(); /* a signal: nothing changed, as Linux */
		if (drained < 0)
			return drained;
		console_input_flush();
		return set_termios(argument);
	}
	case TCSETSW: {
		int drained = backend->drain(); /* "after all output is transmitted" */
		if (drained < 0)
			return drained;
		return set_termios(argument);
	}
	case TCSETS:
		return set_termios(argument);
	case TCSBRK: /* 0: tcsendbreak */
		return send_break(BREAK_NS);
	case TCSBRKP: /* in tenths of a second; 0 is tcsendbreak's (Linux tty_ioctl) */
		return send_break(value ? value * DECISECOND_NS : BREAK_NS);
	case TIOCSBRK:
	case TIOCCBRK:
		return hold_break(request == TIOCSBRK);
	case TCFLSH:
		return flush_queues(value);
	case TCXONC:
		return console_input_flow(value);
	case TIOCGWINSZ:
		spin_lock(&window_lock);
		*(struct kernel_winsize *)argument = window;
		spin_unlock(&window_lock);
		return 0;
	case TIOCSWINSZ:
		spin_lock(&window_lock);
		window = *(const struct kernel_winsize *)argument;
		spin_unlock(&window_lock);
		return 0;
	case FIONREAD: /* = TIOCINQ */
		*(int *)argument = (int)console_input_readable();
		return 0;
	case TIOCOUTQ:
		*(int *)argument = (int)backend->output_queued();
		return 0;
	case CONSOLE_IOCTL_TELEMETRY: {
		struct console_telemetry *counters = argument;
		backend->telemetry(counters);
		console_input_telemetry(counters);
		counters->breaks_sent = __atomic_load_n(&breaks_sent, __ATOMIC_RELAXED);
		counters->log_skipped = log_skipped_records() - log_skipped_at_reset;
		struct uart_wire_model model;
		counters->tx_wire_end_ns =
		    uart_wire_model(console_uart, &model) ? model.idle_ns : 0;
		return 0;
	}
	case CONSOLE_IOCTL_RESET_TELEMETRY:
		backend->reset_telemetry();
		console_input_reset_telemetry();
		__atomic_store_n(&breaks_sent, 0, __ATOMIC_RELAXED);
		log_skipped_at_reset = log_skipped_records();
		return 0;
	case CONSOLE_IOCTL_INFO:
		console_describe(argument);
		return 0;
	default:
		return -ENOTTY;
	}
}

/* tcdrain while the tracer records the console (see write_traced). Task context; sleeps. */
static int __attribute__((noinline)) drain_traced(void)
{
	trace_emit(TRACE_DRAIN_ENTER, 0, 0, 0, 0);
	int result = backend->drain();
	trace_emit(TRACE_DRAIN_EXIT, 0, (uint64_t)result, 0, 0);
	return result;
}

/* /dev/console's ioctl: the syscall layer has copied any argument structure in. Task
 * context; may sleep. tcdrain (TCSBRK), the frequent one, is looked at first. */
static long console_ioctl(struct file *file, unsigned long request, void *argument, uint64_t value)
{
	(void)file;
	if (!backend)
		return -ENODEV;
	if (request == TCSBRK && value) { /* tcdrain(); 0 asks for a break */
		int access = terminal_check_access(SIGTTOU);
		if (access)
			return access;
		return trace_enabled(TRACE_CONSOLE) ? drain_traced() : backend->drain();
	}
	return console_ioctl_other(request, argument, value);
}

/* fstat: a character device, 5:1 as Linux numbers /dev/console, with a tty's block
 * size (what stdio buffers by). */
static void console_status(const struct file *file, struct file_status *status)
{
	(void)file;
	*status = (struct file_status){.mode = FILE_MODE_CHARACTER | 0620,
	                               .device = FILE_DEVICE_DEVICES,
	                               .inode = 2,
	                               .special_device = 5 << 8 | 1,
	                               .block_size = 1024};
}

/* ppoll/pselect6 on /dev/console: readable when the line discipline has input for a
 * read (console_input_poll, which names the wait queue or the recheck), writable while
 * the backend has room for the largest piece a write hands it (CONSOLE_ATOMIC_MAX), so
 * a write of up to FILE_CHUNK bytes would not wait, woken by its output queue (a
 * backend without output_room never waits for room). Never sleeps. */
static unsigned console_poll(struct file *file, struct poll_table *table)
{
	(void)file;
	unsigned events = 0;
	if (!backend || !backend->output_room || backend->output_room() >= CONSOLE_ATOMIC_MAX)
		events |= POLLOUT | POLLWRNORM;
	else if (backend->output_waiters) /* only then: room_waiters wake at every refill */
		poll_table_wait(table, backend->output_waiters);
	if (console_input_poll(table))
		events |= POLLIN | POLLRDNORM;
	return events;
}

static const struct file_ops console_ops = {
    .read = console_read,
    .write = console_write,
    .ioctl = console_ioctl,
    .status = console_status,
    .poll = console_poll,
};

const struct file_ops *console_file_ops(void)
{
	return &console_ops;
}
