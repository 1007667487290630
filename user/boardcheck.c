/* boardcheck: the board check a teacher runs in one boot (boot option `boardcheck`,
 * which first runs the kernel's self-tests and then starts this program; see
 * docs/boards/lichee-rv-d1.md). One line per item, for tools/boardcheck to read from
 * the captured serial log:
 *
 *   BOARDCHECK bench PASS|FAIL ...         a short bench (S10: write throughput) ran clean
 *   BOARDCHECK rx-echo PASS|FAIL ...       the line typed (or sent) came back unchanged
 *   BOARDCHECK tx-interrupt PASS|SKIP ...  the console runs async, on TX interrupts
 *                                          (SKIP: it is polled)
 *   BOARDCHECK watchdog PASS|FAIL|SKIP ... the watchdog the firmware left running was
 *                                          stopped or is fed (the kernel's `watchdog:`
 *                                          lines; SKIP: the tree has none)
 *   BOARDCHECK timer PASS|FAIL|SKIP ...   the kernel's timer source, and no source before
 *                                          it failed its check (a FAIL still has a timer:
 *                                          the line says which; SKIP: no timer line left)
 *   BOARDCHECK plic PASS|FAIL|SKIP ...     S-mode writes reach the PLIC (FAIL: no device
 *                                          interrupts; SKIP: no plic line)
 *   BOARDCHECK done passed=N failed=M
 *
 *   boardcheck [RX_SECONDS]                how long to wait for the typed line (30)
 *
 * The kernel's own checks (self-tests, the timer sources, the PLIC, the TX interrupt
 * check at console start) are in its log, which the host tool reads as well. Exits with the number
 * of failed items. */
#include <duplex.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RX_WORD "duplex"

static int passed, failed;

static void verdict(const char *item, int ok, const char *detail)
{
	printf("BOARDCHECK %s %s %s\n", item, ok ? "PASS" : "FAIL", detail);
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

/* bench --quick --sections S10: its exit status says whether every section was clean. */
static void check_bench(void)
{
	char *argv[] = {"bench", "--quick", "--sections", "S10", 0};
	fflush(stdout);
	pid_t pid = spawn("/bin/bench", argv, 0);
	int status = 0;
	char detail[64];
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		snprintf(detail, sizeof detail, "(could not run /bin/bench: %s)", strerror(errno));
		verdict("bench", 0, detail);
		return;
	}
	int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	snprintf(detail, sizeof detail, "(bench --quick --sections S10: status %d)",
	         WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	verdict("bench", ok, detail);
}

/* Wait up to `seconds` for a line on fd 0 (ends at CR or LF, raw or canonical), echo it. */
static void check_rx_echo(int seconds)
{
	printf("BOARDCHECK rx-echo: type %s and press Enter (within %d s)\n", RX_WORD, seconds);
	fflush(stdout);
	int flags = fcntl(0, F_GETFL);
	fcntl(0, F_SETFL, flags | O_NONBLOCK);
	char line[64];
	size_t length = 0;
	int done = 0;
	struct timespec tick = {0, 10 * 1000 * 1000};
	for (int waited = 0; !done && waited < seconds * 100;) {
		char c;
		ssize_t got = read(0, &c, 1);
		if (got == 1) {
			if (c == '\r' || c == '\n')
				done = length > 0;
			else if (length < sizeof line - 1)
				line[length++] = c;
			continue;
		}
		nanosleep(&tick, 0);
		waited++;
	}
	fcntl(0, F_SETFL, flags);
	line[length] = 0;
	char detail[128];
	if (!done) {
		snprintf(detail, sizeof detail, "(no line within %d s; got %zu byte(s))", seconds,
		         length);
		verdict("rx-echo", 0, detail);
		return;
	}
	snprintf(detail, sizeof detail, "(received \"%s\")", line);
	verdict("rx-echo", strcmp(line, RX_WORD) == 0, detail);
}

/* The async console needs the UART's TX interrupt; the kernel checked for it when the
 * console started and fell back to polling if none came ("console: TX interrupt
 * check" in its log). So async here means it arrived. */
static void check_tx_interrupt(void)
{
	struct console_info info;
	if (ioctl(1, CONSOLE_IOCTL_INFO, &info) != 0) {
		verdict("tx-interrupt", 0, "(console ioctl failed)");
		return;
	}
	if (strncmp(info.backend, "async", 5) == 0) { /* async, or async,thread */
		verdict("tx-interrupt", 1, "(the async console runs on it)");
		return;
	}
	/* Polled on purpose, or because the kernel's check failed: its log says which. */
	printf("BOARDCHECK tx-interrupt SKIP (console is %s)\n", info.backend);
	fflush(stdout);
}

/* The kernel's log buffer (syslog(2) READ_ALL), read once; NUL-terminated lines. Returns
 * the number of bytes, or -1. */
static char kernel_log[64 * 1024];
static int kernel_log_length = -2; /* not read yet */

static int read_kernel_log(void)
{
	if (kernel_log_length == -2) {
		kernel_log_length =
		    klogctl(SYSLOG_ACTION_READ_ALL, kernel_log, sizeof kernel_log - 1);
		if (kernel_log_length >= 0) {
			kernel_log[kernel_log_length] = 0;
			for (char *newline = kernel_log; (newline = strchr(newline, '\n'));)
				*newline++ = 0;
		}
	}
	return kernel_log_length;
}

/* The message of the next kernel log line after `after` (null: from the start) that
 * contains `prefix` and, after it, `also` (null: anything), from `prefix` on; null when
 * none. */
static const char *kernel_line_after(const char *after, const char *prefix, const char *also)
{
	const char *line = after ? after + strlen(after) + 1 : kernel_log;
	for (; line < kernel_log + kernel_log_length; line += strlen(line) + 1) {
		const char *found = strstr(line, prefix);
		if (found && (!also || strstr(found, also)))
			return found;
	}
	return 0;
}

static void skip(const char *item, const char *detail)
{
	printf("BOARDCHECK %s SKIP %s\n", item, detail);
	fflush(stdout);
}

/* The kernel's `watchdog:` lines (drivers/watchdog/sunxi_wdt_probe.c, kernel/boot/main.c). */
static void check_watchdog(void)
{
	if (read_kernel_log() < 0) {
		verdict("watchdog", 0, "(cannot read the kernel log)");
		return;
	}
	int seen = 0, none = 0, bad = 0;
	char first[160] = "";
	for (const char *found = kernel_line_after(0, "watchdog: ", 0); found;
	     found = kernel_line_after(found, "watchdog: ", 0)) {
		seen++;
		none += strstr(found, "none in the device tree") != 0;
		int this_bad = strstr(found, "STILL RUNNING") || strstr(found, "NOT RUNNING");
		if (!first[0] || (this_bad && !bad))
			snprintf(first, sizeof first, "(%s)", found);
		bad += this_bad;
	}
	if (!seen || none == seen) {
		skip("watchdog", seen ? first : "(no watchdog line left in the kernel log)");
		return;
	}
	verdict("watchdog", bad == 0, first);
}

/* The timer the kernel took, and whether a source before it failed its check
 * (kernel/boot/timer_choice.c: "...; trying the next source"). */
static void check_timer(void)
{
	if (read_kernel_log() < 0) {
		verdict("timer", 0, "(cannot read the kernel log)");
		return;
	}
	const char *taken = kernel_line_after(0, "timer: ", ", timebase ");
	const char *failed_source = kernel_line_after(0, "timer: ", "; trying the next source");
	if (!taken && !failed_source) {
		skip("timer", "(no timer line left in the kernel log)");
		return;
	}
	char detail[200];
	snprintf(detail, sizeof detail, "(%s%s%s)", failed_source ? failed_source : "",
	         failed_source ? "; then " : "", taken ? taken : "no timer taken");
	verdict("timer", taken && !failed_source, detail);
}

/* The PLIC's S-mode access check at probe (drivers/irqchip/plic.c). */
static void check_plic(void)
{
	if (read_kernel_log() < 0) {
		verdict("plic", 0, "(cannot read the kernel log)");
		return;
	}
	const char *line = kernel_line_after(0, "plic: ", 0);
	char detail[200];
	if (!line) {
		skip("plic", "(no plic line left in the kernel log)");
		return;
	}
	snprintf(detail, sizeof detail, "(%s)", line);
	verdict("plic", !strstr(line, "S-mode writes do not reach it"), detail);
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 30;
	if (seconds <= 0)
		seconds = 30;
	printf("BOARDCHECK start\n");
	check_bench();
	check_rx_echo(seconds);
	check_tx_interrupt();
	check_watchdog();
	check_timer();
	check_plic();
	printf("BOARDCHECK done passed=%d failed=%d\n", passed, failed);
	return failed;
}
