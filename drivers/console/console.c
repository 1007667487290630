/* The console core: every console system call comes through here (/dev/console's file
 * operations), and so does the kernel log. It owns what is the same for every
 * port — termios and the line discipline (input.c, line_discipline.c), OPOST output
 * processing, splitting writes into atomic pieces, serialising readers, break, the
 * window size, the telemetry ioctls — and hands bytes to its port (port/port.h), which
 * keeps what every UART console needs and runs the TX policy chosen on the command line
 * (console=polling|async[,options]; policy/). */
#include "drivers/console/console.h"

#include <stdbool.h>
#include <stdint.h>

#include "drivers/console/input.h"
#include "drivers/console/policy/policy.h"
#include "drivers/console/port/port.h"
#include "drivers/console/tty.h"
#include "kernel/hart/csr.h"
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

/* The TX policies console= can name. A name with a comma, "async,thread", is a variant:
 * chosen by its second word among the first one's options (find_policy). */
static const struct console_policy *const policies[] = {
    &console_polling_policy,
    &console_async_thread_policy,
    &console_async_policy,
};

/* The table of terminals, one per console UART: the only console state that is not in a
 * terminal or its port. ttys[0] is /dev/console and /dev/ttyS0, where the kernel log
 * goes, once console_early_init has bound it. */
static struct console_tty ttys[1];

/* The kernel console's terminal, or null before a UART is bound (and on a board without
 * one). Any context. */
static struct console_tty *kernel_tty(void)
{
	return __atomic_load_n(&ttys[0].port.uart, __ATOMIC_ACQUIRE) ? &ttys[0] : 0;
}

/* The terminal an open file is, with a policy running; null answers ENODEV. */
static struct console_tty *running_tty(void)
{
	struct console_tty *tty = kernel_tty();
	return tty && tty->port.policy ? tty : 0;
}
/* tcsendbreak's break (TCSBRK 0, TCSBRKP 0): 250 ms, as Linux's tty_send_break. */
#define BREAK_NS      250000000ull
#define DECISECOND_NS 100000000ull

/* Until a policy runs (and if none can) the port sends the log polled. */
void console_early_init(struct uart *uart, int number)
{
	struct console_tty *tty = &ttys[0];
	char name[sizeof tty->port.name];
	format_buffer(name, sizeof name, "ttyS%d", number);
	format_buffer(tty->device_path, sizeof tty->device_path, "/dev/%s", name);
	console_input_init(tty);
	tty->reader = (struct mutex)MUTEX_INIT("console reader");
	tty->expander = (struct mutex)MUTEX_INIT("console expander");
	tty->window = (struct kernel_winsize){.ws_row = 24, .ws_col = 80};
	spinlock_init(&tty->window_lock, "console window size");
	console_port_open(&tty->port, name, uart, console_receive);
	tty->port.kernel_console = true;
}

const char *console_device_path(void)
{
	return ttys[0].device_path;
}

void console_sysrq_enable(void)
{
	for (size_t i = 0; i < sizeof ttys / sizeof ttys[0]; i++)
		sysrq_enable(&ttys[i].sysrq);
}

/* console=ttyS0[,BAUD][,policy...]: Linux names the console by its port and may give
 * the line's rate after it (Documentation/admin-guide/serial-console.rst: ttyS0,115200n8,
 * where the letters after the digits, parity and bits, can only be n8 here: the UART
 * runs 8N1). The port's name and the rate are taken off `choice`; what is left names
 * the policy. A port that is not there is said, and ttyS0 kept. Task context, at boot. */
static const char *skip_port_name(struct console_port *port, const char *choice)
{
	if (strncmp(choice, "tty", 3) != 0)
		return choice;
	size_t length = 0;
	while (choice[length] && choice[length] != ',')
		length++;
	if (length != strlen(port->name) || strncmp(choice, port->name, length) != 0)
		log_printf("console: no port %.*s (%s is the only console port); using %s\n",
		           (int)length, choice, port->name, port->name);
	choice += length;
	if (*choice == ',')
		choice++;
	if (*choice < '0' || *choice > '9')
		return choice;
	uint64_t baud = 0;
	while (*choice >= '0' && *choice <= '9' && baud <= UINT32_MAX)
		baud = baud * 10 + (uint64_t)(*choice++ - '0');
	bool framing_8n1 = *choice == 0 || *choice == ',' || strncmp(choice, "n8", 2) == 0;
	while (*choice && *choice != ',')
		choice++;
	if (*choice == ',')
		choice++;
	uint32_t in_force = port->uart->baud;
	if (baud != in_force) {
		/* uart.h: a divisor changed mid-character garbles it; the boot log is polled */
		while (!port->uart->ops->tx_idle(port->uart))
			cpu_relax();
		in_force = baud <= UINT32_MAX ? uart_set_baud(port->uart, (uint32_t)baud) : 0;
	}
	if (!in_force || !framing_8n1)
		log_printf("console: %s: the line stays at %u baud 8N1 (asked for %lu%s)\n",
		           port->name, port->uart->baud, (unsigned long)baud,
		           framing_8n1 ? "" : " with other framing");
	return choice;
}

/* Is `word` (`length` bytes, not terminated) among the comma-separated `options`? */
static bool has_option(const char *options, const char *word, size_t length)
{
	while (*options) {
		size_t size = 0;
		while (options[size] && options[size] != ',')
			size++;
		if (size == length && strncmp(options, word, length) == 0)
			return true;
		options += size + (options[size] == ',');
	}
	return false;
}

/* The policy console=NAME[,options] names: the first of the table called NAME, or, for
 * a variant "NAME,WORD", NAME with WORD among its options (console=async,thread,ring=N
 * and console=async,ring=N,thread alike). The options the policy reads go to `rest`:
 * all of them but the variant's word (it must hold all of `options`: the caller checks).
 * Null for a name no policy has. Boot, task context. */
static const struct console_policy *find_policy(const char *name, const char *options, char *rest)
{
	size_t length = strlen(name);
	for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++) {
		const char *policy = policies[i]->name;
		if (strncmp(policy, name, length) != 0 || (policy[length] && policy[length] != ','))
			continue;
		const char *variant = policy[length] ? policy + length + 1 : "";
		size_t variant_length = strlen(variant);
		if (variant_length && !has_option(options, variant, variant_length))
			continue;
		size_t out = 0;
		while (*options) {
			size_t word = 0;
			while (options[word] && options[word] != ',')
				word++;
			if (word != variant_length || strncmp(options, variant, word) != 0) {
				if (out)
					rest[out++] = ',';
				memcpy(rest + out, options, word);
				out += word;
			}
			options += word + (options[word] == ',');
		}
		rest[out] = 0;
		return policies[i];
	}
	return 0;
}

int console_init(const char *choice)
{
	struct console_tty *tty = kernel_tty();
	if (!tty)
		return -1;
	struct console_port *port = &tty->port;
	if (!choice)
		choice = "";
	choice = skip_port_name(port, choice);
	if (!choice[0])
		choice = "async";
	char name[16];
	size_t length = 0;
	while (choice[length] && choice[length] != ',' && length < sizeof name - 1) {
		name[length] = choice[length];
		length++;
	}
	name[length] = 0;
	const char *options = choice[length] == ',' ? choice + length + 1 : "";
	char rest[64];
	if (strlen(options) >= sizeof rest) { /* no option of any policy is this long */
		log_printf("console: %s: bad options '%s'\n", name, options);
		return -1;
	}
	const struct console_policy *policy = find_policy(name, options, rest);
	if (!policy) {
		log_printf("console: no backend named '%s' (polling, async)\n", name);
		return -1;
	}
	int status = console_port_choose(port, policy, rest);
	if (status != 0) {
		if (status == -1)
			log_printf("console: %s: bad options '%s'\n", name, options);
		return -1;
	}
	log_printf("console: %s\n", port->description);
	return 0;
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

/* Expand and send a log line through the port's log path or its emergency path.
 * Returns false when the log path had no room (nothing was sent). */
static bool send_log_line(const char *text, size_t length, bool emergency)
{
	char line[2 * LOG_LINE_MAX];
	if (length > LOG_LINE_MAX)
		length = LOG_LINE_MAX;
	size_t out = expand_log_line(line, text, length);
	struct console_tty *tty = kernel_tty();
	if (!tty)
		return true;
	struct console_port *port = &tty->port;
	if (!emergency)
		return port_log_write(port, line, out);
	port_emergency_write(port, line, out);
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
static uint64_t tx_check_patience_ns(struct console_port *port)
{
	uint64_t patience = 200000000ull;
	if (port->uart->baud) {
		uint64_t fifo_ns =
		    (uint64_t)port->uart->fifo_depth * 10 * 1000000000ull / port->uart->baud;
		if (4 * fifo_ns > patience)
			patience = 4 * fifo_ns;
	}
	return patience;
}

void console_start(bool watch_receiver)
{
	struct console_tty *tty = running_tty();
	if (!tty)
		return;
	struct console_port *port = &tty->port;
	if (port->policy->start)
		port->policy->start(port);
	if (watch_receiver) /* a polling port's: again after the fallback below */
		console_input_start_watch(tty);
	if (!port->policy->tx_ready)
		return;
	/* A policy that waits for TX interrupts that never come stops all output for good
	 * (a wrong interrupt number, an interrupt not routed): on a board the screen would
	 * just stay dark. So ask for one, and if it does not come, say so synchronously and
	 * carry on polled. */
	uint64_t patience = tx_check_patience_ns(port);
	if (port_tx_interrupt_check(port, patience)) {
		log_printf("console: TX interrupt check: PASS\n");
		return;
	}
	port_stop_interrupts(port);
	log_emergency("console: TX interrupt check: FAIL: no TX interrupt from the UART (irq "
	              "%u) within %lu ms; falling back to polling (console=polling)\n",
	              port->uart->irq, (unsigned long)(patience / 1000000));
	const struct console_policy *failed = port->policy;
	port->policy = 0; /* the log is polled (port_log_write) until polling is in */
	if (console_init("polling") != 0)
		port->policy = failed;
	/* The polled receiver needs its watch now, as console=polling would have had from
	 * the start: without it a typed ^C or ^Z waits for the next read or write. */
	if (watch_receiver)
		console_input_start_watch(tty);
}

void console_sync(void)
{
	/* Each round prints what the port takes and waits until it has left; a console
	 * shared with busy writers can need several. */
	struct console_tty *tty = running_tty();
	for (int round = 0; round < SYNC_ROUNDS; round++) {
		log_flush_console();
		if (tty)
			port_drain(&tty->port);
		if (!log_console_behind()) {
			/* A TX interrupt may have queued the last records after that drain. */
			if (tty)
				port_drain(&tty->port);
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
 * port writes one piece at a time anyway), so that a console write never depends on
 * free memory. Out of line, so that the common raw or newline-free write saves no
 * registers for it. Task context; may sleep unless `nonblocking` (then -EAGAIN while
 * another writer expands); a signal ends the wait for that writer. */
static long __attribute__((noinline))
write_processed(struct console_tty *tty, const uint8_t *bytes, size_t length, bool nonblocking)
{
	uint8_t *processed = tty->processed;
	int locked = mutex_lock_for_call(&tty->expander, nonblocking);
	if (locked)
		return locked;
	uint32_t start_column = tty->line.column;
	size_t out = line_discipline_process_output(&tty->line, bytes, length, processed);
	long result = port_write(&tty->port, processed, out, nonblocking);
	if (result >= 0 && (size_t)result < out) /* a signal: count what went of `bytes` */
		result = (long)line_discipline_output_taken(&tty->line, start_column, bytes, length,
		                                            (size_t)result);
	else if (result >= 0)
		result = (long)length;
	mutex_unlock(&tty->expander);
	return result;
}

/* write(): the syscall layer hands at most FILE_CHUNK (4096) bytes at a time; each
 * piece goes to the port whole, through OPOST first when that changes it. The fast
 * path is the default OPOST|ONLCR on a piece with no "\n" (and OPOST off): the bytes go
 * as they are, and the output column the line discipline keeps for erasing tabs is not
 * updated (it is reset by every "\n"). Task context; may sleep unless the file is
 * O_NONBLOCK; the port takes its own locks. */
static inline long write_piece(struct console_tty *tty, const void *data, size_t length,
                               bool nonblocking)
{
	uint32_t oflag = tty->line.termios.c_oflag;
	uint32_t changes = oflag & OPOST ? oflag & OUTPUT_CHANGES : 0;
	if (changes && (changes != ONLCR || contains_newline(data, length)))
		return write_processed(tty, data, length, nonblocking);
	return port_write(&tty->port, data, length, nonblocking);
}

/* console_write while the tracer records the console: out of line, so that the untraced
 * path stays a tail call. Task context; may sleep. */
static long __attribute__((noinline))
write_traced(struct console_tty *tty, const void *data, size_t length, bool nonblocking)
{
	trace_emit(TRACE_WRITE_ENTER, (uint32_t)length, 0, 0, 0);
	long result = write_piece(tty, data, length, nonblocking);
	trace_emit(TRACE_WRITE_EXIT, 0, (uint64_t)result, 0, 0);
	return result;
}

static long console_write(struct file *file, const void *data, size_t length)
{
	bool nonblocking = file->flags & O_NONBLOCK;
	struct console_tty *tty = running_tty();
	if (!tty)
		return -ENODEV; /* no UART: the boot log said why */
	/* TOSTOP: a background group's write gets SIGTTOU (Linux n_tty_write). */
	if (tty->line.termios.c_lflag & TOSTOP) {
		int access = terminal_check_access(SIGTTOU);
		if (access)
			return access;
	}
	if (trace_enabled(TRACE_CONSOLE))
		return write_traced(tty, data, length, nonblocking);
	return write_piece(tty, data, length, nonblocking);
}

static long console_read(struct file *file, void *buffer, size_t length)
{
	bool nonblocking = file->flags & O_NONBLOCK;
	struct console_tty *tty = running_tty();
	if (!tty)
		return -ENODEV;
	/* A background group's read gets SIGTTIN, or EIO (Linux n_tty_read's
	 * job_control). */
	int access = terminal_check_access(SIGTTIN);
	if (access)
		return access;
	/* One reader at a time; a signal ends the wait for the one before (Linux n_tty_read
	 * takes its atomic_read_lock with mutex_lock_interruptible). */
	int locked = mutex_lock_for_call(&tty->reader, nonblocking);
	if (locked)
		return locked;
	long result = console_input_read(tty, buffer, length, nonblocking);
	mutex_unlock(&tty->reader);
	return result;
}

/* CONSOLE_IOCTL_INFO: which policy, over what. The line model is a UART like any
 * other to the port; only here is it asked about (through the UART interface's
 * wire_model), so that results can be labelled as coming from a simulated wire. Task
 * context. */
static void console_describe(struct console_port *port, struct console_info *info)
{
	memset(info, 0, sizeof *info);
	struct uart *uart = port->uart;
	/* As console= spells it: a variant's name ("async,thread") is the backend "async"
	 * with the option "thread" first (the ABI bench and linetest read). */
	const char *name = port->policy->name;
	const char *variant = strchr(name, ',');
	size_t length = variant ? (size_t)(variant - name) : strlen(name);
	if (length >= sizeof info->backend)
		length = sizeof info->backend - 1;
	memcpy(info->backend, name, length);
	if (variant)
		format_buffer(info->options, sizeof info->options, "%s%s%s", variant + 1,
		              port->options[0] ? "," : "", port->options);
	else
		copy_string(info->options, sizeof info->options, port->options);
	info->baud = uart->baud;
	info->fifo_depth = uart->fifo_depth;
	info->tx_threshold = uart->tx_threshold;
	info->bits_per_byte = UART_BITS_PER_BYTE;
	if (info->baud)
		info->byte_ps = info->bits_per_byte * 1000000000000ull / info->baud;
	struct uart_wire_model model;
	bool modelled = uart_wire_model(uart, &model);
	struct uart *real = modelled ? model.real : uart;
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
static uint32_t code_of_current_speed(struct console_port *port)
{
	for (size_t i = 0; i < SPEED_COUNT; i++)
		if (uart_baud_close(port->uart->baud, 1, speeds[i].baud))
			return speeds[i].code;
	return BOTHER;
}

/* TCGETS: the settings, with the speed the line really has now. Task context. */
static void get_termios(struct console_tty *tty, struct kernel_termios *out)
{
	console_input_get_termios(tty, out);
	out->c_cflag =
	    (out->c_cflag & ~(uint32_t)(CBAUD | CIBAUD)) | code_of_current_speed(&tty->port);
}

#define SOFT_CFLAGS (CREAD | CLOCAL | HUPCL)

/* TCSETS: a new speed is applied (after the output drains: port_set_baud) or
 * refused with -EINVAL when the UART cannot run at it, leaving everything as it was; the
 * rest goes to the line discipline, but the framing (CSIZE, CSTOPB, PARENB...) stays
 * the 8N1 in force.
 * -EINVAL also for B0 (hang up: a console cannot), BOTHER (the rate is
 * only in termios2) and an input speed other than the output's (one divisor serves
 * both). Task context; may sleep. */
static long set_termios(struct console_tty *tty, const struct kernel_termios *wanted)
{
	uint32_t code = wanted->c_cflag & CBAUD;
	uint32_t input_code = (wanted->c_cflag & CIBAUD) >> 16; /* IBSHIFT */
	if (input_code != 0 && input_code != code)
		return -EINVAL;
	if (code != code_of_current_speed(&tty->port)) { /* what TCGETS gave is always taken back */
		uint32_t baud = baud_of_code(code);
		if (baud == 0)
			return -EINVAL;
		long in_force = port_set_baud(&tty->port, baud);
		if (in_force < 0)
			return in_force;
	}
	/* c_cflag: the speed is the UART's (get_termios); of the rest only CREAD, CLOCAL
	 * and HUPCL are not hardware: the framing stays the 8N1 the UART runs (Linux keeps
	 * the old hardware bits for a driver that cannot change them, tty_termios_copy_hw). */
	struct kernel_termios settings;
	console_input_get_termios(tty, &settings);
	uint32_t hardware = settings.c_cflag & ~(uint32_t)(CBAUD | CIBAUD | SOFT_CFLAGS);
	settings = *wanted;
	settings.c_cflag = (wanted->c_cflag & SOFT_CFLAGS) | hardware;
	console_input_set_termios(tty, &settings);
	return 0;
}

/* A break on the line for `duration_ns` (tcsendbreak), after the output has drained,
 * as Linux's tty_send_break; a UART that cannot send one makes it a no-op, as Linux
 * does for a driver without break_ctl. Task context; sleeps. */
static long send_break(struct console_tty *tty, uint64_t duration_ns)
{
	struct console_port *port = &tty->port;
	int drained = port_drain(port);
	if (drained < 0)
		return drained;
	if (!port_set_break(port, true))
		return 0;
	__atomic_fetch_add(&tty->breaks_sent, 1, __ATOMIC_RELAXED);
	sleep_for(duration_ns);
	port_set_break(port, false);
	return 0;
}

/* TIOCSBRK / TIOCCBRK: the break condition on or off until told otherwise. */
static long hold_break(struct console_tty *tty, bool on)
{
	if (port_set_break(&tty->port, on) && on)
		__atomic_fetch_add(&tty->breaks_sent, 1, __ATOMIC_RELAXED);
	return 0;
}

/* TCFLSH: TCIFLUSH, TCOFLUSH, TCIOFLUSH (tcflush(3)). */
static long flush_queues(struct console_tty *tty, uint64_t which)
{
	if (which > TCIOFLUSH)
		return -EINVAL;
	if (which != TCOFLUSH)
		console_input_flush(tty);
	if (which != TCIFLUSH)
		port_flush_output(&tty->port);
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
console_ioctl_other(struct console_tty *tty, unsigned long request, void *argument, uint64_t value)
{
	struct console_port *port = &tty->port;
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
		get_termios(tty, argument);
		return 0;
	case TCSETSF: { /* drain, then discard pending input (termios(3) TCSAFLUSH) */
		int drained = port_drain(port); /* a signal: nothing changed, as Linux */
		if (drained < 0)
			return drained;
		console_input_flush(tty);
		return set_termios(tty, argument);
	}
	case TCSETSW: {
		int drained = port_drain(port); /* "after all output is transmitted" */
		if (drained < 0)
			return drained;
		return set_termios(tty, argument);
	}
	case TCSETS:
		return set_termios(tty, argument);
	case TCSBRK: /* 0: tcsendbreak */
		return send_break(tty, BREAK_NS);
	case TCSBRKP: /* in tenths of a second; 0 is tcsendbreak's (Linux tty_ioctl) */
		return send_break(tty, value ? value * DECISECOND_NS : BREAK_NS);
	case TIOCSBRK:
	case TIOCCBRK:
		return hold_break(tty, request == TIOCSBRK);
	case TCFLSH:
		return flush_queues(tty, value);
	case TCXONC:
		return console_input_flow(tty, value);
	case TIOCGWINSZ:
		spin_lock(&tty->window_lock);
		*(struct kernel_winsize *)argument = tty->window;
		spin_unlock(&tty->window_lock);
		return 0;
	case TIOCSWINSZ:
		spin_lock(&tty->window_lock);
		tty->window = *(const struct kernel_winsize *)argument;
		spin_unlock(&tty->window_lock);
		return 0;
	case FIONREAD: /* = TIOCINQ */
		*(int *)argument = (int)console_input_readable(tty);
		return 0;
	case TIOCOUTQ:
		*(int *)argument = (int)port_output_queued(port);
		return 0;
	case CONSOLE_IOCTL_TELEMETRY: {
		struct console_telemetry *counters = argument;
		port_telemetry(port, counters);
		console_input_telemetry(tty, counters);
		counters->breaks_sent = __atomic_load_n(&tty->breaks_sent, __ATOMIC_RELAXED);
		counters->log_skipped = log_skipped_records() - tty->log_skipped_at_reset;
		struct uart_wire_model model;
		counters->tx_wire_end_ns = uart_wire_model(port->uart, &model) ? model.idle_ns : 0;
		return 0;
	}
	case CONSOLE_IOCTL_RESET_TELEMETRY:
		port_reset_telemetry(port);
		console_input_reset_telemetry(tty);
		__atomic_store_n(&tty->breaks_sent, 0, __ATOMIC_RELAXED);
		tty->log_skipped_at_reset = log_skipped_records();
		return 0;
	case CONSOLE_IOCTL_INFO:
		console_describe(port, argument);
		return 0;
	default:
		return -ENOTTY;
	}
}

/* tcdrain while the tracer records the console (see write_traced). Task context; sleeps. */
static int __attribute__((noinline)) drain_traced(struct console_port *port)
{
	trace_emit(TRACE_DRAIN_ENTER, 0, 0, 0, 0);
	int result = port_drain(port);
	trace_emit(TRACE_DRAIN_EXIT, 0, (uint64_t)result, 0, 0);
	return result;
}

/* /dev/console's ioctl: the syscall layer has copied any argument structure in. Task
 * context; may sleep. tcdrain (TCSBRK), the frequent one, is looked at first. */
static long console_ioctl(struct file *file, unsigned long request, void *argument, uint64_t value)
{
	(void)file;
	struct console_tty *tty = running_tty();
	if (!tty)
		return -ENODEV;
	if (request == TCSBRK && value) { /* tcdrain(); 0 asks for a break */
		int access = terminal_check_access(SIGTTOU);
		if (access)
			return access;
		return trace_enabled(TRACE_CONSOLE) ? drain_traced(&tty->port)
		                                    : port_drain(&tty->port);
	}
	return console_ioctl_other(tty, request, argument, value);
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
 * the port has room for the largest piece a write hands it (CONSOLE_ATOMIC_MAX), so a
 * write of up to FILE_CHUNK bytes would not wait, woken by its room waiters (a policy
 * that queues nothing never waits for room). Never sleeps. */
static unsigned console_poll(struct file *file, struct poll_table *table)
{
	(void)file;
	unsigned events = 0;
	struct console_tty *tty = running_tty();
	if (!tty)
		return POLLOUT | POLLWRNORM;
	if (port_output_room(&tty->port) >= CONSOLE_ATOMIC_MAX)
		events |= POLLOUT | POLLWRNORM;
	else /* only then: room_waiters wake at every refill */
		poll_table_wait(table, &tty->port.room_waiters);
	if (console_input_poll(tty, table))
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
