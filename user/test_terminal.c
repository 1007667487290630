/* test_terminal: the guest side of tests/test_terminal.py, the console's line discipline
 * driven over the serial line. Each mode prints a READY line, then what read() returned,
 * as hex so that the host can tell it apart from echo.
 *
 *   test_terminal canon      canonical reads until end of file: "TERM-LINE n=N hex=H"
 *                            per read, then "TERM-EOF"
 *   test_terminal noecho     one line with ECHO off, then one with it on again
 *   test_terminal raw M T    non-canonical, VMIN M, VTIME T, no echo: 3 reads, each
 *                            "TERM-READ n=N hex=H" (the host decides what to send)
 *   test_terminal defaults   TCGETS is Linux's tty_std_termios, TIOCGWINSZ 80x24 and
 *                            TIOCSWINSZ, TCSBRK 0 / TCSBRKP / TIOCSBRK+TIOCCBRK counted
 *                            in breaks_sent, TCFLSH/TCXONC argument checks, errno
 *                            values: "TERM-CHECK ok|FAIL name", then
 *                            "TERM-DEFAULTS passed=P failed=F"
 *   test_terminal flush      TCFLSH TCIFLUSH and TCSETSF discard typed input
 *   test_terminal flow       ^S holds output (IXON), ^Q lets it go
 *   test_terminal isig       ^C flushes the line being typed, echoes ^C and is counted
 *   test_terminal ixoff N    IXOFF: nobody reads until N bytes are buffered (the line
 *                            discipline sends STOP on the way), then everything is read
 *                            (START); "TERM-FULL n=N" and "TERM-DRAINED n=N throttles=T" */
#include <duplex.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static int passed, failed;

static void check(int ok, const char *name)
{
	printf("TERM-CHECK %s %s\n", ok ? "ok" : "FAIL", name);
	if (ok)
		passed++;
	else
		failed++;
}

static void print_hex(const char *label, const unsigned char *bytes, ssize_t n)
{
	printf("%s n=%zd hex=", label, n);
	for (ssize_t i = 0; i < n; i++)
		printf("%02x", bytes[i]);
	printf("\n");
	fflush(stdout);
}

static void ready(const char *what)
{
	printf("TERM-READY %s\n", what);
	fflush(stdout);
}

static int canon(void)
{
	unsigned char buffer[256];
	ready("canon");
	for (;;) {
		ssize_t n = read(0, buffer, sizeof buffer);
		if (n < 0) {
			printf("TERM-ERROR errno=%d\n", errno);
			return 1;
		}
		if (n == 0)
			break;
		print_hex("TERM-LINE", buffer, n);
	}
	printf("TERM-EOF\n");
	return 0;
}

static int noecho(void)
{
	struct termios saved, quiet;
	unsigned char buffer[256];
	tcgetattr(0, &saved);
	quiet = saved;
	quiet.c_lflag &= ~(tcflag_t)ECHO;
	tcsetattr(0, TCSANOW, &quiet);
	ready("noecho");
	print_hex("TERM-LINE", buffer, read(0, buffer, sizeof buffer));
	tcsetattr(0, TCSANOW, &saved);
	ready("echo");
	print_hex("TERM-LINE", buffer, read(0, buffer, sizeof buffer));
	return 0;
}

static int raw_reads(int minimum, int tenths)
{
	struct termios saved, raw;
	unsigned char buffer[64];
	tcgetattr(0, &saved);
	raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = (cc_t)minimum;
	raw.c_cc[VTIME] = (cc_t)tenths;
	tcsetattr(0, TCSANOW, &raw);
	ready("raw");
	for (int i = 0; i < 3; i++)
		print_hex("TERM-READ", buffer, read(0, buffer, sizeof buffer));
	tcsetattr(0, TCSANOW, &saved);
	return 0;
}

static struct console_telemetry telemetry(void)
{
	struct console_telemetry counters;
	memset(&counters, 0, sizeof counters);
	ioctl(1, CONSOLE_IOCTL_TELEMETRY, &counters);
	return counters;
}

static int defaults(void)
{
	struct termios t;
	check(tcgetattr(0, &t) == 0, "TCGETS");
	check(t.c_iflag == (ICRNL | IXON), "c_iflag ICRNL|IXON");
	check(t.c_oflag == (OPOST | ONLCR), "c_oflag OPOST|ONLCR");
	check((t.c_cflag & ~(tcflag_t)(CBAUD | CIBAUD)) == (CS8 | CREAD | HUPCL | CLOCAL),
	      "c_cflag CS8|CREAD|HUPCL|CLOCAL");
	check(t.c_lflag == (ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN),
	      "c_lflag ISIG|ICANON|ECHO|ECHOE|ECHOK|ECHOCTL|ECHOKE|IEXTEN");
	static const unsigned char cc[NCCS] = {3,   034, 0177, 025, 4,   0,   1,   0, 021,
	                                       023, 032, 0,    022, 017, 027, 026, 0};
	check(memcmp(t.c_cc, cc, NCCS) == 0, "c_cc tty_std_termios");
	struct winsize size = {0, 0, 0, 0};
	check(ioctl(1, TIOCGWINSZ, &size) == 0 && size.ws_row == 24 && size.ws_col == 80,
	      "TIOCGWINSZ 80x24");
	struct winsize wanted = {40, 132, 0, 0};
	check(ioctl(1, TIOCSWINSZ, &wanted) == 0 && ioctl(1, TIOCGWINSZ, &size) == 0 &&
	          size.ws_row == 40 && size.ws_col == 132,
	      "TIOCSWINSZ 132x40");
	wanted = (struct winsize){24, 80, 0, 0};
	ioctl(1, TIOCSWINSZ, &wanted);
	uint64_t before = telemetry().breaks_sent;
	check(tcsendbreak(1, 0) == 0, "tcsendbreak (TCSBRK 0)");
	check(ioctl(1, TCSBRKP, 1) == 0, "TCSBRKP 1");
	check(ioctl(1, TIOCSBRK) == 0 && ioctl(1, TIOCCBRK) == 0, "TIOCSBRK TIOCCBRK");
	check(telemetry().breaks_sent == before + 3, "breaks_sent counted 3");
	check(tcdrain(1) == 0, "tcdrain still TCSBRK 1");
	check(ioctl(0, TCFLSH, 7) == -1 && errno == EINVAL, "TCFLSH 7 EINVAL");
	check(ioctl(0, TCXONC, 9) == -1 && errno == EINVAL, "TCXONC 9 EINVAL");
	check(tcflow(1, TCOON) == 0, "tcflow TCOON");
	check(tcflush(0, TCIOFLUSH) == 0, "tcflush TCIOFLUSH");
	int queued = -1;
	check(ioctl(1, TIOCOUTQ, &queued) == 0 && queued >= 0, "TIOCOUTQ");
	check(ioctl(0, TIOCINQ, &queued) == 0 && queued == 0, "TIOCINQ 0");
	check(ioctl(1, TIOCGWINSZ, (void *)16) == -1 && errno == EFAULT, "TIOCGWINSZ EFAULT");
	printf("TERM-DEFAULTS passed=%d failed=%d\n", passed, failed);
	return failed != 0;
}

/* Wait until `count` bytes are readable (TIOCINQ); returns how many are. */
static int wait_readable(int count)
{
	int readable = 0;
	const struct timespec tick = {0, 5 * 1000 * 1000};
	/* No deadline of its own: how fast the bytes come is the host's business (the
	 * polling backend takes a FIFO's worth per look), the test's timeout is the guard. */
	for (;;) {
		ioctl(0, TIOCINQ, &readable);
		if (readable >= count)
			return readable;
		nanosleep(&tick, 0);
	}
}

static int flush(void)
{
	struct termios saved, raw;
	tcgetattr(0, &saved);
	raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	tcsetattr(0, TCSANOW, &raw);
	ready("flush");
	int before = wait_readable(4);
	tcflush(0, TCIFLUSH);
	int after = -1;
	ioctl(0, TIOCINQ, &after);
	printf("TERM-TCFLSH before=%d after=%d\n", before, after);
	fflush(stdout);
	before = wait_readable(4);
	tcsetattr(0, TCSAFLUSH, &raw); /* TCSETSF */
	ioctl(0, TIOCINQ, &after);
	printf("TERM-SETSF before=%d after=%d\n", before, after);
	fflush(stdout);
	unsigned char c[8];
	print_hex("TERM-READ", c, read(0, c, sizeof c));
	tcsetattr(0, TCSANOW, &saved);
	return 0;
}

static int flow(void)
{
	struct termios saved, raw;
	tcgetattr(0, &saved);
	raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	tcsetattr(0, TCSANOW, &raw);
	ready("flow");
	unsigned char c[8];
	print_hex("TERM-READ", c, read(0, c, sizeof c)); /* ^S a: only the a arrives */
	/* Output is stopped now: this line waits (polling: in write; async: in the ring)
	 * until ^Q. */
	printf("TERM-HELD after the stop\n");
	fflush(stdout);
	print_hex("TERM-READ", c, read(0, c, sizeof c));
	printf("TERM-FLOW flow_stops=%llu\n", (unsigned long long)telemetry().flow_stops);
	tcsetattr(0, TCSANOW, &saved);
	return 0;
}

static int isig(void)
{
	unsigned char buffer[64];
	ioctl(1, CONSOLE_IOCTL_RESET_TELEMETRY);
	ready("isig");
	print_hex("TERM-LINE", buffer, read(0, buffer, sizeof buffer));
	struct console_telemetry counters = telemetry();
	printf("TERM-SIGNALS signals=%llu lines=%llu edits=%llu\n",
	       (unsigned long long)counters.signals, (unsigned long long)counters.lines,
	       (unsigned long long)counters.edits);
	return 0;
}

static int ixoff(int count)
{
	struct termios saved, raw;
	tcgetattr(0, &saved);
	raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_iflag |= IXOFF;
	raw.c_cc[VMIN] = 1;
	tcsetattr(0, TCSANOW, &raw);
	ready("ixoff");
	printf("TERM-FULL n=%d\n", wait_readable(count));
	fflush(stdout);
	static unsigned char buffer[4096];
	int total = 0;
	while (total < count) {
		ssize_t n = read(0, buffer, sizeof buffer);
		if (n <= 0)
			break;
		total += (int)n;
	}
	printf("TERM-DRAINED n=%d throttles=%llu\n", total,
	       (unsigned long long)telemetry().throttles);
	tcsetattr(0, TCSANOW, &saved);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "canon") == 0)
		return canon();
	if (strcmp(mode, "noecho") == 0)
		return noecho();
	if (strcmp(mode, "raw") == 0 && argc == 4)
		return raw_reads(atoi(argv[2]), atoi(argv[3]));
	if (strcmp(mode, "defaults") == 0)
		return defaults();
	if (strcmp(mode, "flush") == 0)
		return flush();
	if (strcmp(mode, "flow") == 0)
		return flow();
	if (strcmp(mode, "isig") == 0)
		return isig();
	if (strcmp(mode, "ixoff") == 0 && argc == 3)
		return ixoff(atoi(argv[2]));
	fprintf(
	    stderr,
	    "usage: test_terminal canon|noecho|raw MIN TIME|defaults|flush|flow|isig|ixoff N\n");
	return 2;
}
