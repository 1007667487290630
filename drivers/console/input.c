/* The console's input side: the line discipline (line_discipline.c) between the
 * backends and read(), as Linux's n_tty sits between serial_core and tty_io.
 *
 *   RX interrupt (async) or poll_receive (polling)
 *     -> console_receive: under `input_lock`, each byte through the line discipline;
 *        echo sent at once through the backend's never-sleeping log_write path; flow
 *        control (^S/^Q) and ISIG's output flush told to the backend; then readers
 *        woken and ISIG characters handed to console_signal_foreground
 *     -> console_input_read: a canonical line, or VMIN/VTIME's bytes; every wait for
 *        input is wait_for_input
 *
 * Locking: `input_lock` (a spinlock) guards the line discipline. Lock order: the input
 * lock, then a backend's own lock (log_write, set_output_stopped, flush_output take
 * it); backends never call console_receive holding theirs. Readers are serialised by
 * the core (console.c's reader mutex), so the line discipline has one consumer. */
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

#define RX_POLL_NS    1000000   /* polling backend: a waiting reader looks this often */
#define VTIME_UNIT_NS 100000000 /* VTIME counts tenths of a second (termios(3)) */
#define SIGNAL_BATCH  8         /* ISIG characters handed on per received batch */
#define ECHO_RETRY_NS 1000000   /* a waiting reader retries echo that found no room */
/* The RX watch (console_input_start_watch): every 10 ms. A 16-byte FIFO lasts 1.4 ms at
 * 115200 baud, so a burst typed at nobody waits in QEMU or overruns a real UART
 * (counted); a lone ^C always arrives. */
#define RX_WATCH_NS 10000000ull

struct line_discipline console_line;
bool console_echo_pending;

static const struct console_backend_ops *backend;
static struct spinlock input_lock = SPINLOCK_INIT("console input");
static struct wait_queue input_waiters = {SPINLOCK_INIT("console readers"), 0};
static uint64_t wakeups;            /* readers woken (added to the telemetry's wakeups) */
static uint64_t foreground_signals; /* console_signal_foreground calls */
static bool line_ready;             /* console_line initialised */
static struct timer rx_watch;
static bool rx_watch_started;
/* What the backend was last told by apply_receive_throttle_locked. Under `input_lock`. */
static bool receive_throttled;
/* `time` ticks the last received byte, and the last ISIG byte, were first known
 * (console_receive's received_ticks); under `input_lock`. For the telemetry. */
static uint64_t last_rx_ticks, last_signal_rx_ticks;

void console_input_attach(const struct console_backend_ops *chosen)
{
	spin_lock(&input_lock);
	if (!line_ready) {
		line_discipline_init(&console_line, 0); /* TCGETS puts the UART's speed in */
		line_ready = true;
	}
	backend = chosen;
	spin_unlock(&input_lock);
}

/* Send the STOP/START and the echo the line discipline queued, the echo whole, through the
 * backend's log path (never sleeps; false when it has no room now: then it waits for the next
 * received byte, or for the reader, which looks every ECHO_RETRY_NS while it waits: the write path,
 * the benchmark's, never looks). Caller holds `input_lock`. */
static void flush_echo_locked(void)
{
	/* STOP/START first, past the echo and the output queued (Linux n_tty's throttle
	 * calls uart_send_xchar): under a TX flood echo waits for room, and a STOP behind
	 * it came too late or, once `echo` was full, not at all. */
	if (console_line.flow_char && backend && backend->send_flow_char) {
		backend->send_flow_char(console_line.flow_char);
		console_line.flow_char = 0;
	}
	if (console_line.echo_length == 0)
		return;
	if (backend &&
	    backend->log_write((const char *)console_line.echo, console_line.echo_length)) {
		console_line.echo_length = 0;
		__atomic_store_n(&console_echo_pending, false, __ATOMIC_RELAXED);
	} else {
		__atomic_store_n(&console_echo_pending, true, __ATOMIC_RELAXED);
	}
}

void console_flush_echo(void)
{
	spin_lock(&input_lock);
	flush_echo_locked();
	spin_unlock(&input_lock);
}

/* The backend follows the line discipline's output_stopped. Caller holds `input_lock`. */
static void apply_flow_locked(void)
{
	if (backend && backend->set_output_stopped)
		backend->set_output_stopped(console_line.output_stopped);
}

/* The read buffer has LINE_THROTTLE_ROOM bytes left or fewer: where the core throttles
 * the receiver and the RX watch stops looking. Any context: atomic loads, since the RX
 * watch's timer reads it without `input_lock`. */
static bool read_buffer_nearly_full(void)
{
	uint32_t queued = __atomic_load_n(&console_line.head, __ATOMIC_RELAXED) -
	                  __atomic_load_n(&console_line.tail, __ATOMIC_RELAXED);
	return queued >= LINE_BUFFER_SIZE - LINE_THROTTLE_ROOM;
}

/* Tell the backend whether the read buffer is nearly full (LINE_THROTTLE_ROOM left), on
 * each change, so that a look no reader asked for stops taking bytes it would have to
 * drop: Linux's n_tty throttles the same way whether or not IXOFF is on
 * (tty_throttle_safe, then uart_throttle). Caller holds `input_lock`. */
static void apply_receive_throttle_locked(void)
{
	bool full = read_buffer_nearly_full();
	if (full == receive_throttled || !backend || !backend->set_receive_throttled)
		return;
	receive_throttled = full;
	backend->set_receive_throttled(full);
}

/* The RX watch's timer: look at a backend without an RX interrupt, unless the read
 * buffer is nearly full (the bytes then wait in the UART, as they would for IXOFF), and
 * again in RX_WATCH_NS. Interrupt context: try_poll_receive gives up on a busy UART. */
static void rx_watch_fire(struct timer *timer)
{
	const struct console_backend_ops *watched = __atomic_load_n(&backend, __ATOMIC_RELAXED);
	if (watched && watched->try_poll_receive && !read_buffer_nearly_full())
		watched->try_poll_receive();
	timer_start(timer, clock_now_ns() + RX_WATCH_NS);
}

void console_input_start_watch(void)
{
	if (!backend || !backend->try_poll_receive || rx_watch_started)
		return;
	rx_watch_started = true;
	timer_init(&rx_watch, rx_watch_fire, 0);
	timer_start(&rx_watch, clock_now_ns() + RX_WATCH_NS);
}

void console_signal_foreground(int signal)
{
	__atomic_fetch_add(&foreground_signals, 1, __ATOMIC_RELAXED);
	signal_send_foreground(signal);
}

void console_receive(const uint8_t *bytes, const uint8_t *errors, size_t count,
                     uint64_t received_ticks)
{
	int signals[SIGNAL_BATCH];
	size_t signal_count = 0;
	uint32_t all = 0;
	char sysrq_key = 0;
	spin_lock(&input_lock);
	last_rx_ticks = received_ticks;
	for (size_t i = 0; i < count; i++) {
		char key;
		if (console_sysrq_filter(bytes[i], errors[i], &key)) {
			sysrq_key = key ? key : sysrq_key;
			continue;
		}
		uint32_t events = line_discipline_receive(&console_line, bytes[i], errors[i]);
		/* ISIG's flush of queued output comes before the ^C echo that follows it. */
		if ((events & LINE_EVENT_FLUSH_OUTPUT) && backend && backend->flush_output)
			backend->flush_output();
		if ((events & LINE_EVENT_SIGNAL) && signal_count < SIGNAL_BATCH)
			signals[signal_count++] = console_line.signal;
		all |= events;
	}
	if (all & LINE_EVENT_SIGNAL)
		last_signal_rx_ticks = received_ticks;
	if (all & LINE_EVENT_FLOW)
		apply_flow_locked();
	apply_receive_throttle_locked();
	flush_echo_locked();
	spin_unlock(&input_lock);
	if (sysrq_key)
		console_sysrq_run(sysrq_key);
	for (size_t i = 0; i < signal_count; i++)
		console_signal_foreground(signals[i]);
	if (all & (LINE_EVENT_INPUT | LINE_EVENT_SIGNAL))
		__atomic_fetch_add(&wakeups, (uint64_t)wait_queue_wake_all(&input_waiters),
		                   __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------- reading */

/* A VTIME deadline: a timer that wakes the waiting reader. */
struct input_deadline {
	struct timer timer;
	bool passed;
};

/* Timer callback (interrupt context): the deadline has come. */
static void deadline_passed(struct timer *timer)
{
	struct input_deadline *deadline = timer->context;
	__atomic_store_n(&deadline->passed, true, __ATOMIC_RELEASE);
	wait_queue_wake_all(&input_waiters);
}

static bool input_or_deadline(void *argument)
{
	struct input_deadline *deadline = argument;
	return line_discipline_input_ready(&console_line) ||
	       __atomic_load_n(&deadline->passed, __ATOMIC_ACQUIRE);
}

/* The one place a blocking console read waits: until input may be there (1),
 * `deadline_ns` (kernel clock time, 0: none) has passed (0), or a signal is pending
 * (-ERESTARTSYS; console_receive wakes readers on every ISIG character, and the sender
 * wakes the task). With the polling backend it sleeps RX_POLL_NS and polls the
 * receiver; otherwise it parks on `input_waiters`, which console_receive wakes. While
 * echo waits for room it sleeps ECHO_RETRY_NS at a time instead. Task context; sleeps. */
static int wait_for_input(uint64_t deadline_ns)
{
	uint64_t now = clock_now_ns();
	if (deadline_ns && now >= deadline_ns)
		return 0;
	if (__atomic_load_n(&console_echo_pending, __ATOMIC_RELAXED)) {
		console_flush_echo();
		uint64_t retry = now + ECHO_RETRY_NS;
		if (!deadline_ns || retry < deadline_ns) {
			/* then the caller looks again, and so do we */
			return sleep_until_interruptible(retry) ? -ERESTARTSYS : 1;
		}
	}
	if (backend->poll_receive) {
		uint64_t wake = now + RX_POLL_NS;
		if (sleep_until_interruptible(deadline_ns && deadline_ns < wake ? deadline_ns
		                                                                : wake))
			return -ERESTARTSYS;
		backend->poll_receive();
		return 1;
	}
	struct input_deadline deadline = {.passed = false};
	if (deadline_ns) {
		timer_init(&deadline.timer, deadline_passed, &deadline);
		timer_start(&deadline.timer, deadline_ns);
	}
	int interrupted =
	    wait_queue_wait_interruptible(&input_waiters, input_or_deadline, &deadline);
	if (deadline_ns)
		timer_cancel(&deadline.timer);
	return interrupted ? -ERESTARTSYS : 1;
}

long console_input_read(uint8_t *buffer, size_t length, bool nonblocking)
{
	if (length == 0)
		return 0;
	size_t got = 0;
	uint64_t deadline_ns = 0;
	for (;;) {
		if (backend->poll_receive)
			backend->poll_receive();
		spin_lock(&input_lock);
		bool canonical = console_line.termios.c_lflag & ICANON;
		uint32_t minimum = console_line.termios.c_cc[VMIN];
		uint64_t interval_ns = (uint64_t)console_line.termios.c_cc[VTIME] * VTIME_UNIT_NS;
		bool end_of_file;
		uint32_t taken = line_discipline_read(&console_line, buffer + got,
		                                      (uint32_t)(length - got), &end_of_file);
		apply_receive_throttle_locked();
		flush_echo_locked(); /* IXOFF's START, or echo that waited */
		spin_unlock(&input_lock);
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
		int waited = wait_for_input(deadline_ns);
		if (waited <= 0) /* the deadline, or a signal: what was read counts */
			return got || waited == 0 ? (long)got : waited;
	}
}

bool console_input_poll(struct poll_table *table)
{
	if (backend && backend->poll_receive) {
		backend->poll_receive();
		poll_table_recheck_after(table, RX_POLL_NS); /* it notices input only by looking */
	} else {
		poll_table_wait(table, &input_waiters);
	}
	spin_lock(&input_lock);
	bool ready = line_discipline_input_ready(&console_line);
	spin_unlock(&input_lock);
	return ready;
}

uint32_t console_input_readable(void)
{
	if (backend && backend->poll_receive)
		backend->poll_receive();
	spin_lock(&input_lock);
	uint32_t count = line_discipline_readable(&console_line);
	spin_unlock(&input_lock);
	return count;
}

void console_input_flush(void)
{
	spin_lock(&input_lock);
	line_discipline_flush_input(&console_line);
	apply_receive_throttle_locked();
	spin_unlock(&input_lock);
}

/* ---------------------------------------------------------------- settings */

void console_input_get_termios(struct kernel_termios *out)
{
	spin_lock(&input_lock);
	*out = console_line.termios;
	spin_unlock(&input_lock);
}

void console_input_set_termios(const struct kernel_termios *wanted)
{
	spin_lock(&input_lock);
	bool was_stopped = console_line.output_stopped;
	line_discipline_set_termios(&console_line, wanted);
	if (was_stopped != console_line.output_stopped)
		apply_flow_locked();
	spin_unlock(&input_lock);
	/* ICANON switched off makes the line being edited readable. */
	wait_queue_wake_all(&input_waiters);
}

long console_input_flow(uint64_t action)
{
	spin_lock(&input_lock);
	long result = 0;
	switch (action) {
	case TCOOFF:
	case TCOON:
		console_line.output_stopped = action == TCOOFF;
		apply_flow_locked();
		break;
	case TCIOFF:
	case TCION: { /* send STOP / START now (tcflow(3)) */
		uint8_t c = console_line.termios.c_cc[action == TCIOFF ? VSTOP : VSTART];
		if (c)
			line_discipline_send_flow_char(&console_line, c);
		flush_echo_locked();
		break;
	}
	default:
		result = -EINVAL;
	}
	spin_unlock(&input_lock);
	return result;
}

/* ---------------------------------------------------------------- telemetry */

void console_input_telemetry(struct console_telemetry *out)
{
	spin_lock(&input_lock);
	const struct line_counters *c = &console_line.counters;
	out->lines = c->lines;
	out->edits = c->edits;
	out->signals = __atomic_load_n(&foreground_signals, __ATOMIC_RELAXED);
	out->echoed = c->echoed;
	out->echo_dropped = c->echo_dropped;
	out->input_dropped = c->input_dropped;
	/* rx_bytes counts bytes kept, rx_overruns bytes lost, as when the backends kept
	 * them themselves: the backends count every byte they took from the UART. */
	out->rx_bytes -= c->input_dropped < out->rx_bytes ? c->input_dropped : out->rx_bytes;
	out->rx_overruns += c->input_dropped;
	out->flow_stops = c->flow_stops;
	out->throttles = c->throttles;
	out->breaks_received = c->breaks;
	out->wakeups += __atomic_load_n(&wakeups, __ATOMIC_RELAXED);
	out->rx_last_ns = last_rx_ticks ? clock_ticks_to_ns(last_rx_ticks) : 0;
	out->signal_rx_ns = last_signal_rx_ticks ? clock_ticks_to_ns(last_signal_rx_ticks) : 0;
	spin_unlock(&input_lock);
}

void console_input_reset_telemetry(void)
{
	spin_lock(&input_lock);
	memset(&console_line.counters, 0, sizeof console_line.counters);
	__atomic_store_n(&wakeups, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&foreground_signals, 0, __ATOMIC_RELAXED);
	last_rx_ticks = last_signal_rx_ticks = 0;
	spin_unlock(&input_lock);
}
