/* test_line_edit: the guest side of lab line-edit's grading test
 * (tests/labs/test_lab_line_edit.py): canonical reads of what the host types over the
 * serial line, each printed as hex so that the host can tell it from the echo.
 *
 *   test_line_edit    resets the console's counters, prints "EDIT-READY", then one line
 *                     "EDIT-LINE n=N hex=H" per read() until end of file (^D at the
 *                     start of a line), then "EDIT-EOF", and becomes /bin/consolestat,
 *                     whose table gives the line discipline's counters (lines, edits,
 *                     echoed) for exactly what was typed. */
#include <duplex.h>
#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(void)
{
	unsigned char buffer[256];
	if (ioctl(1, CONSOLE_IOCTL_RESET_TELEMETRY, 0) != 0) {
		printf("EDIT-ERROR reset errno=%d\n", errno);
		return 1;
	}
	printf("EDIT-READY\n");
	fflush(stdout);
	for (;;) {
		ssize_t n = read(0, buffer, sizeof buffer);
		if (n < 0) {
			printf("EDIT-ERROR read errno=%d\n", errno);
			return 1;
		}
		if (n == 0)
			break;
		printf("EDIT-LINE n=%zd hex=", n);
		for (ssize_t i = 0; i < n; i++)
			printf("%02x", buffer[i]);
		printf("\n");
		fflush(stdout);
	}
	printf("EDIT-EOF\n");
	fflush(stdout);
	char *const arguments[] = {"consolestat", NULL};
	execve(DUPLEX_BIN_DIR "/consolestat", arguments, environ);
	printf("EDIT-ERROR execve errno=%d\n", errno);
	return 1;
}
