/* cat [FILE...]: copy the files to the output, or the input if there are none.
 *
 * On a terminal in raw mode (stty raw) cat does what the line discipline would: ^D
 * (0x04) ends the input, and Enter's '\r' becomes '\n' (in the default canonical mode
 * the line discipline has done both already). Input that is not a terminal is copied as is
 * until read() returns 0 (end of file). "-" names the input among the FILEs. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CONTROL_D 0x04

/* Write all of buf[0..length) to fd 1. 0, or -1 on error. */
static int write_all(const char *buf, size_t length)
{
	while (length > 0) {
		ssize_t n = write(1, buf, length);
		if (n < 0)
			return -1;
		buf += n;
		length -= n;
	}
	return 0;
}

/* Copy fd to the output until the end of its input; `terminal` turns on the console
 * rules. 0, or -1 after printing an error about `name`. */
static int copy(int fd, const char *name, bool terminal)
{
	char buf[512];
	ssize_t n;

	while ((n = read(fd, buf, sizeof buf)) > 0) {
		bool end = false;
		if (terminal) {
			char *control_d = memchr(buf, CONTROL_D, n);
			if (control_d != NULL) {
				n = control_d - buf;
				end = true;
			}
			for (ssize_t i = 0; i < n; i++) {
				if (buf[i] == '\r')
					buf[i] = '\n';
			}
		}
		if (write_all(buf, n) < 0) {
			fprintf(stderr, "cat: write: %s\n", strerror(errno));
			return -1;
		}
		if (end)
			return 0;
	}
	if (n < 0) {
		fprintf(stderr, "cat: %s: %s\n", name, strerror(errno));
		return -1;
	}
	return 0;
}

/* Copy each argument in turn; exit status 1 if any of them failed. */
int main(int argc, char **argv)
{
	int status = 0;

	if (argc == 1)
		return copy(0, "input", isatty(0)) < 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0) {
			if (copy(0, "input", isatty(0)) < 0)
				status = 1;
			continue;
		}
		int fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "cat: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		if (copy(fd, argv[i], false) < 0)
			status = 1;
		close(fd);
	}
	return status;
}
