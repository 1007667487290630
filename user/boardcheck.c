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
 *   BOARDCHECK done passed=N failed=M
 *
 *   boardcheck [RX_SECONDS]                how long to wait for the typed line (30)
 *
 * The kernel's own checks (self-tests, the SBI timer, the TX interrupt check at console
 * start) are in its log, which the host tool reads as well. Exits with the number of
 * failed items. */
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
	if (strcmp(info.backend, "async") == 0) {
		verdict("tx-interrupt", 1, "(the async console runs on it)");
		return;
	}
	/* Polled on purpose, or because the kernel's check failed: its log says which. */
	printf("BOARDCHECK tx-interrupt SKIP (console is %s)\n", info.backend);
	fflush(stdout);
}

/* The kernel's `watchdog:` lines (drivers/watchdog/sunxi_wdt_probe.c, kernel/boot/main.c)
 * in its log buffer (syslog(2) READ_ALL). */
static void check_watchdog(void)
{
	static char log[64 * 1024];
	int length = klogctl(SYSLOG_ACTION_READ_ALL, log, sizeof log - 1);
	if (length < 0) {
		verdict("watchdog", 0, "(cannot read the kernel log)");
		return;
	}
	log[length] = 0;
	int seen = 0, none = 0, bad = 0;
	char first[160] = "";
	for (char *line = log; line && *line;) {
		char *end = strchr(line, '\n');
		if (end)
			*end = 0;
		char *found = strstr(line, "watchdog: ");
		if (found) {
			seen++;
			none += strstr(found, "none in the device tree") != 0;
			int this_bad =
			    strstr(found, "STILL RUNNING") || strstr(found, "NOT RUNNING");
			if (!first[0] || (this_bad && !bad))
				snprintf(first, sizeof first, "(%s)", found);
			bad += this_bad;
		}
		line = end ? end + 1 : 0;
	}
	if (!seen || none == seen) {
		printf("BOARDCHECK watchdog SKIP %s\n",
		       seen ? first : "(no watchdog line left in the kernel log)");
		fflush(stdout);
		return;
	}
	verdict("watchdog", bad == 0, first);
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
	printf("BOARDCHECK done passed=%d failed=%d\n", passed, failed);
	return failed;
}
