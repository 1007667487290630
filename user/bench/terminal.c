/* The terminal, S22-S23: what a person typing at the console waits for. Both need bytes
 * typed on the serial line, which the guest cannot make itself, so they run only when
 * named in --sections and a typist answers on the host (tools/bench_typist.py: run-bench's
 * typed runs, tests/test_bench_terminal.py). The protocol: bench writes TYPE_REQUEST
 * (ENQ, 0x05) and the byte it wants; the typist sends that byte back on RX.
 *
 * What is timed, both ends in the kernel's clock (the `time` CSR in ns, as
 * clock_gettime), from the console telemetry (drivers/console/telemetry.h):
 *  - the start, rx_last_ns / signal_rx_ns: when the kernel first knew of the byte, the
 *    RX interrupt's dispatch (irq_entered_ticks; async) or the poll that found it
 *    (polling, which has no RX interrupt: its figure leaves out the time the byte
 *    waited for a look, up to the 1 ms a waiting reader polls at);
 *  - S22's end, tx_wire_end_ns: when the echo's stop bit has left the modelled wire (the
 *    line model's TEMT instant), so one byte time of it is the echo's own wire time.
 *    Without the line model there is no wire to time and S22 measures nothing;
 *  - S23's end: the `time` CSR read by the SIGINT handler's first instruction
 *    (s23_handler, assembly, so that no compiler prologue comes first).
 * A sample whose byte arrived while the request was still on the wire (the echo would
 * wait behind it) or that does not show exactly one byte received and echoed (one
 * signal) is not counted but reported (`discarded`). */
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include "bench.h"

#define TYPE_REQUEST 0x05       /* ENQ: "type the byte that follows" */
#define ECHO_BYTE    'e'        /* S22's typed byte: ordinary in both modes */
#define INTR_BYTE    0x03       /* ^C, Linux's default VINTR */
#define RX_LOOK_NS   20000ull   /* S22 canonical: how often the waiter looks */
#define SIGNAL_WAIT  (200 * MS) /* S23: a sample's ^C must come within this */
#define GIVE_UP      3          /* consecutive samples without input: no typist */

/* Set by s23_handler (below): the `time` CSR at the handler's first instruction. */
volatile uint64_t s23_handler_ticks;
void s23_handler(int signal);

/* The SIGINT handler: rdtime first, store, return (to the kernel's sigreturn
 * trampoline in ra). t0 and t1 are caller-saved, and rt_sigreturn restores every
 * register anyway. */
__asm__(".text\n"
        ".globl s23_handler\n"
        ".type s23_handler, @function\n"
        "s23_handler:\n"
        "\trdtime t0\n"
        "\tlla t1, s23_handler_ticks\n"
        "\tsd t0, 0(t1)\n"
        "\tret\n"
        ".size s23_handler, .-s23_handler\n");

/* Ask the typist for `byte`: TYPE_REQUEST and the byte, raw (bench runs with OPOST
 * off). S22 then drains it, so that the typed byte finds the wire idle. */
static void request_byte(uint8_t byte, bool drain)
{
	char request[2] = {TYPE_REQUEST, (char)byte};
	ssize_t written = write(1, request, sizeof request);
	if (written != (ssize_t)sizeof request)
		failures++;
	bench_mid_line = true;
	if (drain)
		tcdrain(1);
}

static bool polling_backend(void)
{
	return strncmp(cfg.detected, "polling", 7) == 0;
}

/* Give every result line of these sections the same labels. */
static void json_terminal(struct bench_json *j, unsigned discarded, unsigned missing)
{
	bench_json_str(j, "rx_clock", polling_backend() ? "poll" : "interrupt");
	bench_json_int(j, "discarded", discarded);
	bench_json_int(j, "missing", missing);
	bench_json_int(j, "harts", cfg.harts);
}

/* S22, one mode: n bytes typed, each echoed; the echo's round trip. Canonical mode has
 * no read() that returns on an ordinary byte, so the waiter looks at the telemetry every
 * RX_LOOK_NS (FIONREAD first: on the polling backend that is what receives); raw mode
 * blocks in read(). The echo is what the line discipline sends from the receive path
 * either way; how the reader waits does not enter the time. */
static void s22_group(bool canonical, unsigned n, int fd)
{
	const char *mode = canonical ? "canonical" : "raw";
	bench_progress("S22 mode=%s n=%u (%u/%u)", mode, n, ++step, steps);
	settle();
	struct termios saved, t;
	tcgetattr(fd, &saved);
	t = saved;
	t.c_lflag |= ECHO;
	if (canonical) {
		t.c_lflag |= ICANON;
	} else {
		t.c_lflag &= ~(tcflag_t)ICANON;
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
	}
	tcsetattr(fd, TCSANOW, &t);
	tcflush(fd, TCIFLUSH);
	struct console_telemetry before, marker, after;
	bool modelled = telemetry_read(&before) && before.tx_wire_end_ns != 0;
	unsigned got = 0, discarded = 0, missing = 0, attempts = 0;
	while (modelled && got < n && attempts++ < 2 * n + GIVE_UP) {
		telemetry_read(&before);
		request_byte(ECHO_BYTE, true);
		telemetry_read(&marker);
		bool arrived = false;
		if (canonical) {
			/* no deadline: under -icount sleep=off an idle guest's timers run ahead of
			 * the host, so a wait for the typist cannot be bounded in guest time */
			for (;;) {
				int waiting = 0;
				ioctl(fd, FIONREAD, &waiting);
				telemetry_read(&after);
				if (after.rx_bytes != before.rx_bytes)
					break;
				bench_sleep_ns(RX_LOOK_NS);
			}
			arrived = true;
		} else {
			char byte;
			arrived = read(fd, &byte, 1) == 1 && byte == ECHO_BYTE;
		}
		tcdrain(1); /* the echo has left the wire (async,thread: the copier sent it) */
		telemetry_read(&after);
		if (canonical)
			tcflush(fd, TCIFLUSH); /* every sample starts from an empty line */
		if (!arrived) {
			missing++;
			continue;
		}
		bool whole = after.rx_bytes == before.rx_bytes + 1 &&
		             after.echoed == before.echoed + 1 &&
		             after.rx_last_ns >= marker.tx_wire_end_ns &&
		             after.tx_wire_end_ns > after.rx_last_ns;
		if (!whole) {
			discarded++;
			continue;
		}
		samples[got++] = after.tx_wire_end_ns - after.rx_last_ns;
	}
	tcsetattr(fd, TCSANOW, &saved);
	struct bench_stats s = bench_summarise_ns(samples, got);
	struct bench_json j;
	result_begin(&j, "S22", 1, got);
	bench_json_str(&j, "mode", mode);
	bench_json_bool(&j, "line_model", modelled);
	json_terminal(&j, discarded, missing);
	bench_json_stats(&j, "", &s);
	json_byte_time(&j);
	/* p99 less one byte time: what the software added to the echo's own wire time */
	uint64_t byte_ns = wire_ns(1);
	bench_json_ratio(&j, "p99_over_byte_time_us", s.p99 > byte_ns ? s.p99 - byte_ns : 0, 1000,
	                 1, 3);
	bench_json_int(&j, "errors", modelled && got < n ? 1 : 0);
	result_emit(&j);
	if (modelled && got < n)
		failures++;
}

/* S22: the echo round trip, canonical and raw (ECHO on in both).
 * Called by main() through sections[] (main.c). */
void s22_run(const struct section *self, unsigned n)
{
	(void)self;
	int fd = open("/dev/console", O_RDWR);
	if (fd < 0) {
		failures++;
		return;
	}
	s22_group(true, n, fd);
	s22_group(false, n, fd);
	close(fd);
}

/* `bench --worker sigspin HART`: ignore SIGINT (the console's ^C goes to every process
 * of the foreground group) and compute on HART until killed. */
int worker_sigspin(int hart)
{
	signal(SIGINT, SIG_IGN);
	pin_to_hart(hart);
	for (;;)
		compute_until_ns(bench_now_ns() + 1000 * MS);
}

/* S23, one placement: the measuring process spins on `hart` while (if `busy`) a sigspin
 * worker spins on every other hart, and a ^C is typed n times. The UART's interrupt goes to
 * hart 0 (drivers/console/port/interrupt.c registers it there): `irq_hart` delivers on the
 * hart that took the interrupt, `other_hart` needs the reschedule IPI. */
static void s23_group(const char *placement, int hart, bool busy, unsigned n)
{
	bench_progress("S23 target=%s n=%u (%u/%u)", placement, n, ++step, steps);
	settle();
	pid_t children[MAX_HARTS];
	unsigned spawned = 0;
	for (int h = 0; busy && h < cfg.harts && h < MAX_HARTS; h++) {
		if (h == hart)
			continue;
		uint64_t value = (uint64_t)h;
		pid_t pid = spawn_worker("sigspin", 1, &value);
		if (pid > 0)
			children[spawned++] = pid;
	}
	pin_to_hart(hart);
	struct sigaction action, old;
	memset(&action, 0, sizeof action);
	action.sa_handler = s23_handler;
	sigemptyset(&action.sa_mask);
	sigaction(SIGINT, &action, &old);
	tcflush(1, TCIFLUSH);
	struct console_telemetry before, after;
	unsigned got = 0, discarded = 0, missing = 0, in_a_row = 0;
	for (unsigned attempt = 0; got < n && attempt < 2 * n + GIVE_UP && in_a_row < GIVE_UP;
	     attempt++) {
		s23_handler_ticks = 0;
		telemetry_read(&before);
		request_byte(INTR_BYTE,
		             false); /* no drain: a sleeping drain would hold the signal */
		uint64_t spin_from = bench_now_ns();
		uint64_t deadline =
		    bench_ticks() + bench_muldiv(SIGNAL_WAIT, bench_timebase_hz, 1000000000ull);
		while (!s23_handler_ticks && bench_ticks() < deadline) {
		}
		uint64_t handler_ticks = s23_handler_ticks;
		telemetry_read(&after);
		if (!handler_ticks) {
			missing++;
			in_a_row++;
			continue;
		}
		in_a_row = 0;
		uint64_t handler_ns = bench_ticks_to_ns(handler_ticks);
		bool whole = after.signals == before.signals + 1 &&
		             after.signal_rx_ns >= spin_from && handler_ns >= after.signal_rx_ns;
		if (!whole) {
			discarded++;
			continue;
		}
		samples[got++] = handler_ns - after.signal_rx_ns;
	}
	sigaction(SIGINT, &old, NULL);
	for (unsigned i = 0; i < spawned; i++)
		kill(children[i], SIGKILL);
	unsigned failed = 0;
	int status;
	for (unsigned i = 0; i < spawned; i++)
		if (wait4(children[i], &status, 0, NULL) != children[i] || !WIFSIGNALED(status))
			failed++;
	pin_to_hart(cfg.home);
	tcdrain(1);
	struct bench_stats s = bench_summarise_ns(samples, got);
	struct bench_json j;
	result_begin(&j, "S23", 0, got);
	bench_json_str(&j, "target", placement);
	bench_json_int(&j, "target_hart", hart);
	bench_json_int(&j, "busy_harts", (int64_t)spawned + 1);
	json_terminal(&j, discarded, missing);
	bench_json_int(&j, "failed_workers", failed);
	bench_json_stats(&j, "", &s);
	bench_json_int(&j, "errors", failed);
	result_emit(&j);
	if (failed)
		failures++;
}

/* S23: ^C to the handler's first instruction with every hart busy.
 * Called by main() through sections[] (main.c). */
void s23_run(const struct section *self, unsigned n)
{
	(void)self;
	s23_group("irq_hart", 0, true, n);
	if (cfg.harts > 1)
		s23_group("other_hart", 1, true, n);
	if (cfg.harts > 1) /* the same path without QEMU's round-robin between busy harts */
		s23_group("irq_hart_others_idle", 0, false, n);
}
