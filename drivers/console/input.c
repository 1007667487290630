/* A terminal's input side: the line discipline (line_discipline.c) between its port and
 * read(), as Linux's n_tty sits between serial_core and tty_io. Every function takes the
 * terminal (tty.h) whose state it works on.
 *
 *   the port's RX interrupt, or a look at a port without one (port_poll_receive)
 *     -> console_receive: under `input_lock`, each byte through the line discipline;
 *        echo sent at once through the port's never-sleeping log path; flow control
 *        (^S/^Q) and ISIG's output flush told to the port; then readers woken and ISIG
 *        characters handed to console_signal_foreground
 *     -> console_input_read: a canonical line, or VMIN/VTIME's bytes; every wait for
 *        input is wait_for_input
 *
 * Locking: `input_lock` (a spinlock) guards the line discipline. Lock order: the input
 * lock, then the port's (port_log_write, port_set_output_stopped, port_flush_output take
 * them); the port never calls console_receive holding its own. Readers are serialised by
 * the core (the terminal's reader mutex), so the line discipline has one consumer. */
#include "drivers/console/input.h"

#include "drivers/console/sysrq.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/sched/sleep.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"
#include "kernel/signal/signal.h"
#include "kernel/waker/poll_table.h"
#include "kernel/waker/wait_queue.h"

#define RX_POLL_NS    1000000   /* no RX interrupt: a waiting reader looks this often */
#define VTIME_UNIT_NS 100000000 /* VTIME counts tenths of a second (termios(3)) */
#define SIGNAL_BATCH  8         /* ISIG characters handed on per received batch */
#define ECHO_RETRY_NS 1000000   /* a waiting reader retries echo that found no room */
/* The RX watch (console_input_start_watch): every 10 ms. A 16-byte FIFO lasts 1.4 ms at
 * 115200 baud, so a burst typed at nobody waits in QEMU or overruns a real UART
 * (counted); a lone ^C always arrives. */
#define RX_WATCH_NS 10000000ull

void console_input_init(struct console_tty *tty)
{
	line_discipline_init(&tty->line, 0); /* TCGETS puts the UART's speed in */
	spinlock_init(&tty->input_lock, "console input");
	wait_queue_init(&tty->input_waiters, "console readers");
}

/* Send the STOP/START and the echo the line discipline queued, the echo whole, through the
 * port's log path (never sleeps; false when it has no room now: then it waits for the next
 * received byte, or for the reader, which looks every ECHO_RETRY_NS while it waits: the write path,
 * the benchmark's, never looks). Caller holds `input_lock`. */
static void flush_echo_locked(struct console_tty *tty)
{
	/* STOP/START first, past the echo and the output queued (Linux n_tty's throttle
	 * calls uart_send_xchar): under a TX flood echo waits for room, and a STOP behind
	 * it came too late or, once `echo` was full, not at all. */
	if (tty->line.flow_char) {
		port_send_flow_char(&tty->port, tty->line.flow_char);
		tty->line.flow_char = 0;
	}
	if (tty->line.echo_length == 0)
		return;
	if (port_log_write(&tty->port, (const char *)tty->line.echo, tty->line.echo_length)) {
		tty->line.echo_length = 0;
		__atomic_store_n(&tty->echo_pending, false, __ATOMIC_RELAXED);
	} else {
		__atomic_store_n(&tty->echo_pending, true, __ATOMIC_RELAXED);
	}
}

void console_flush_echo(struct console_tty *tty)
{
	spin_lock(&tty->input_lock);
	flush_echo_locked(tty);
	spin_unlock(&tty->input_lock);
}

/* The port follows the line discipline's output_stopped. Caller holds `input_lock`. */
static void apply_flow_locked(struct console_tty *tty)
{
	port_set_output_stopped(&tty->port, tty->line.output_stopped);
}

/* The read buffer has LINE_THROTTLE_ROOM bytes left or fewer: where the core throttles
 * the receiver and the RX watch stops looking. Any context: atomic loads, since the RX
 * watch's timer reads it without `input_lock`. */
static bool read_buffer_nearly_full(struct console_tty *tty)
{
	uint32_t queued = __atomic_load_n(&tty->line.head, __ATOMIC_RELAXED) -
	                  __atomic_load_n(&tty->line.tail, __ATOMIC_RELAXED);
	return queued >= LINE_BUFFER_SIZE - LINE_THROTTLE_ROOM;
}

/* Tell the port whether the read buffer is nearly full (LINE_THROTTLE_ROOM left), on
 * each change, so that a look no reader asked for stops taking bytes it would have to
 * drop: Linux's n_tty throttles the same way whether or not IXOFF is on
 * (tty_throttle_safe, then uart_throttle). Caller holds `input_lock`. */
static void apply_receive_throttle_locked(struct console_tty *tty)
{
	bool full = read_buffer_nearly_full(tty);
	if (full == tty->receive_throttled)
		return;
	tty->receive_throttled = full;
	port_set_receive_throttled(&tty->port, full);
}

/* The RX watch's timer: look at a port without an RX interrupt, unless the read
 * buffer is nearly full (the bytes then wait in the UART, as they would for IXOFF), and
 * again in RX_WATCH_NS. Interrupt context: the look gives up on a busy UART. */
static void rx_watch_fire(struct timer *timer)
{
	struct console_tty *tty = timer->context;
	if (!__atomic_load_n(&tty->port.rx_interrupt, __ATOMIC_RELAXED) &&
	    !read_buffer_nearly_full(tty))
		port_poll_receive(&tty->port, false);
	timer_start(timer, clock_now_ns() + RX_WATCH_NS);
}

void console_input_start_watch(struct console_tty *tty)
{
	if (tty->port.rx_interrupt || tty->rx_watch_started)
		return;
	tty->rx_watch_started = true;
	timer_init(&tty->rx_watch, rx_watch_fire, tty);
	timer_start(&tty->rx_watch, clock_now_ns() + RX_WATCH_NS);
}

void console_signal_foreground(struct console_tty *tty, int signal)
{
	__atomic_fetch_add(&tty->foreground_signals, 1, __ATOMIC_RELAXED);
	signal_send_foreground(signal);
}

void console_receive(struct console_port *port, const uint8_t *bytes, const uint8_t *errors,
                     size_t count, uint64_t received_ticks)
{
	struct console_tty *tty = console_tty_of(port);
	int signals[SIGNAL_BATCH];
	size_t signal_count = 0;
	uint32_t all = 0;
	char sysrq_key = 0;
	spin_lock(&tty->input_lock);
	tty->last_rx_ticks = received_ticks;
	for (size_t i = 0; i < count; i++) {
		char key;
		if (console_sysrq_filter(&tty->sysrq, bytes[i], errors[i], &key)) {
			sysrq_key = key ? key : sysrq_key;
			continue;
		}
		uint32_t events = line_discipline_receive(&tty->line, bytes[i], errors[i]);
		/* ISIG's flush of queued output comes before the ^C echo that follows it. */
		if (events & LINE_EVENT_FLUSH_OUTPUT)
			port_flush_output(port);
		if ((events & LINE_EVENT_SIGNAL) && signal_count < SIGNAL_BATCH)
			signals[signal_count++] = tty->line.signal;
		all |= events;
	}
	if (all & LINE_EVENT_SIGNAL)
		tty->last_signal_rx_ticks = received_ticks;
	if (all & LINE_EVENT_FLOW)
		apply_flow_locked(tty);
	apply_receive_throttle_locked(tty);
	flush_echo_locked(tty);
	spin_unlock(&tty->input_lock);
	if (sysrq_key)
		console_sysrq_run(sysrq_key);
	for (size_t i = 0; i < signal_count; i++)
		console_signal_foreground(tty, signals[i]);
	if (all & (LINE_EVENT_INPUT | LINE_EVENT_SIGNAL))
		__atomic_fetch_add(&tty->wakeups,
		                   (uint64_t)wait_queue_wake_all(&tty->input_waiters),
		                   __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------- reading */

/* A VTIME deadline: a timer that wakes the waiting reader. */
struct input_deadline {
	struct console_tty *tty;
	struct timer timer;
	bool passed;
};

/* Timer callback (interrupt context): the deadline has come. */
static void deadline_passed(struct timer *timer)
{
	struct input_deadline *deadline = timer->context;
	__atomic_store_n(&deadline->passed, true, __ATOMIC_RELEASE);
	wait_queue_wake_all(&deadline->tty->input_waiters);
}

static bool input_or_deadline(void *argument)
{
	struct input_deadline *deadline = argument;
	return line_discipline_input_ready(&deadline->tty->line) ||
	       __atomic_load_n(&deadline->passed, __ATOMIC_ACQUIRE);
}

/* The one place a blocking console read waits: until input may be there (1),
 * `deadline_ns` (kernel clock time, 0: none) has passed (0), or a signal is pending
 * (-ERESTARTSYS; console_receive wakes readers on every ISIG character, and the sender
 * wakes the task). On a port without an RX interrupt (polling) it sleeps RX_POLL_NS and
 * looks at the receiver; otherwise it parks on `input_waiters`, which console_receive wakes. While
 * echo waits for room it sleeps ECHO_RETRY_NS at a time instead. Task context; sleeps. */
static int wait_for_input(struct console_tty *tty, uint64_t deadline_ns)
{
	uint64_t now = clock_now_ns();
	if (deadline_ns && now >= deadline_ns)
		return 0;
	if (__atomic_load_n(&tty->echo_pending, __ATOMIC_RELAXED)) {
		console_flush_echo(tty);
		uint64_t retry = now + ECHO_RETRY_NS;
		if (!deadline_ns || retry < deadline_ns) {
			/* then the caller looks again, and so do we */
			return sleep_until_interruptible(retry) ? -ERESTARTSYS : 1;
		}
	}
	if (!tty->port.rx_interrupt) {
		uint64_t wake = now + RX_POLL_NS;
		if (sleep_until_interruptible(deadline_ns && deadline_ns < wake ? deadline_ns
		                                                                : wake))
			return -ERESTARTSYS;
		port_poll_receive(&tty->port, true);
		return 1;
	}
	struct input_deadline deadline = {.tty = tty, .passed = false};
	if (deadline_ns) {
		timer_init(&deadline.timer, deadline_passed, &deadline);
		timer_start(&deadline.timer, deadline_ns);
	}
	int interrupted =
	    wait_queue_wait_interruptible(&tty->input_waiters, input_or_deadline, &deadline);
	if (deadline_ns)
		timer_cancel(&deadline.timer);
	return interrupted ? -ERESTARTSYS : 1;
}

long console_input_read(struct console_tty *tty, uint8_t *buffer, size_t length, bool nonblocking)
{
	if (length == 0)
		return 0;
	size_t got = 0;
	uint64_t deadline_ns = 0;
	for (;;) {
		if (!tty->port.rx_interrupt)
			port_poll_receive(&tty->port, true);
		spin_lock(&tty->input_lock);
		bool canonical = tty->line.termios.c_lflag & ICANON;
		uint32_t minimum = tty->line.termios.c_cc[VMIN];
		uint64_t interval_ns = (uint64_t)tty->line.termios.c_cc[VTIME] * VTIME_UNIT_NS;
		bool end_of_file;
		uint32_t taken = line_discipline_read(&tty->line, buffer + got,
		                                      (uint32_t)(length - got), &end_of_file);
		apply_receive_throttle_locked(tty);
		flush_echo_locked(tty); /* IXOFF's START, or echo that waited */
		spin_unlock(&tty->input_lock);
		got += taken;
		if (canonical) {
			if (taken > 0 || end_of_file)
				return (long)got;
		} else if (got == length || (minimum == 0 && interval_ns == 0)) {
			return (long)got; /* MIN 0, TIME 0: whatever is there, maybe nothing */
		} else if (minimum == 0) {
			if (got > 0) /* TIME alone: the first byte, or nothing after TIME */
				return (long)got;
			if (!deadline_ns)
				deadline_ns = clock_now_ns() + interval_ns;
		} else {
			if (got >= minimum)
				return (long)got;
			/* MIN and TIME: TIME is an inter-byte timer, started by the first byte
			 * and restarted by every later one (n_tty_read). */
			if (interval_ns && taken > 0)
				deadline_ns = clock_now_ns() + interval_ns;
		}
		if (nonblocking)
			return got ? (long)got : -EAGAIN;
		int waited = wait_for_input(tty, deadline_ns);
		if (waited <= 0) /* the deadline, or a signal: what was read counts */
			return got || waited == 0 ? (long)got : waited;
	}
}

bool console_input_poll(struct console_tty *tty, struct poll_table *table)
{
	if (!tty->port.rx_interrupt) {
		port_poll_receive(&tty->port, true);
		poll_table_recheck_after(table, RX_POLL_NS); /* it notices input only by looking */
	} else {
		poll_table_wait(table, &tty->input_waiters);
	}
	spin_lock(&tty->input_lock);
	bool ready = line_discipline_input_ready(&tty->line);
	spin_unlock(&tty->input_lock);
	return ready;
}

uint32_t console_input_readable(struct console_tty *tty)
{
	if (!tty->port.rx_interrupt)
		port_poll_receive(&tty->port, true);
	spin_lock(&tty->input_lock);
	uint32_t count = line_discipline_readable(&tty->line);
	spin_unlock(&tty->input_lock);
	return count;
}

void console_input_flush(struct console_tty *tty)
{
	spin_lock(&tty->input_lock);
	line_discipline_flush_input(&tty->line);
	apply_receive_throttle_locked(tty);
	spin_unlock(&tty->input_lock);
}

/* ---------------------------------------------------------------- settings */

void console_input_get_termios(struct console_tty *tty, struct kernel_termios *out)
{
	spin_lock(&tty->input_lock);
	*out = tty->line.termios;
	spin_unlock(&tty->input_lock);
}

void console_input_set_termios(struct console_tty *tty, const struct kernel_termios *wanted)
{
	spin_lock(&tty->input_lock);
	bool was_stopped = tty->line.output_stopped;
	line_discipline_set_termios(&tty->line, wanted);
	if (was_stopped != tty->line.output_stopped)
		apply_flow_locked(tty);
	spin_unlock(&tty->input_lock);
	/* ICANON switched off makes the line being edited readable. */
	wait_queue_wake_all(&tty->input_waiters);
}

long console_input_flow(struct console_tty *tty, uint64_t action)
{
	spin_lock(&tty->input_lock);
	long result = 0;
	switch (action) {
	case TCOOFF:
	case TCOON:
		tty->line.output_stopped = action == TCOOFF;
		apply_flow_locked(tty);
		break;
	case TCIOFF:
	case TCION: { /* send STOP / START now (tcflow(3)) */
		uint8_t c = tty->line.termios.c_cc[action == TCIOFF ? VSTOP : VSTART];
		if (c)
			line_discipline_send_flow_char(&tty->line, c);
		flush_echo_locked(tty);
		break;
	}
	default:
		result = -EINVAL;
	}
	spin_unlock(&tty->input_lock);
	return result;
}

/* ---------------------------------------------------------------- telemetry */

void console_input_telemetry(struct console_tty *tty, struct console_telemetry *out)
{
	spin_lock(&tty->input_lock);
	const struct line_counters *c = &tty->line.counters;
	out->lines = c->lines;
	out->edits = c->edits;
	out->signals = __atomic_load_n(&tty->foreground_signals, __ATOMIC_RELAXED);
	out->echoed = c->echoed;
	out->echo_dropped = c->echo_dropped;
	out->input_dropped = c->input_dropped;
	/* rx_bytes counts bytes kept, rx_overruns bytes lost, as when the backends kept
	 * them themselves: the port counts every byte it took from the UART. */
	out->rx_bytes -= c->input_dropped < out->rx_bytes ? c->input_dropped : out->rx_bytes;
	out->rx_overruns += c->input_dropped;
	out->flow_stops = c->flow_stops;
	out->throttles = c->throttles;
	out->breaks_received = c->breaks;
	out->wakeups += __atomic_load_n(&tty->wakeups, __ATOMIC_RELAXED);
	out->rx_last_ns = tty->last_rx_ticks ? clock_ticks_to_ns(tty->last_rx_ticks) : 0;
	out->signal_rx_ns =
	    tty->last_signal_rx_ticks ? clock_ticks_to_ns(tty->last_signal_rx_ticks) : 0;
	spin_unlock(&tty->input_lock);
}

void console_input_reset_telemetry(struct console_tty *tty)
{
	spin_lock(&tty->input_lock);
	memset(&tty->line.counters, 0, sizeof tty->line.counters);
	__atomic_store_n(&tty->wakeups, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&tty->foreground_signals, 0, __ATOMIC_RELAXED);
	tty->last_rx_ticks = tty->last_signal_rx_ticks = 0;
	spin_unlock(&tty->input_lock);
}
