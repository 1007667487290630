/* head [-n N | -N] [FILE...]: the first N lines (10) of each FILE, or of the input if
 * there is none ("-" names the input). With several files each is headed
 * "==> FILE <==", as POSIX says. Stops reading a file at its Nth newline. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "count_option.h"

/* Copy the first `lines` lines of fd to the output. 0, or -1 after saying why. */
static int head(int fd, const char *name, long lines)
{
	char buffer[512];
	ssize_t n = 0;
	while (lines > 0 && (n = read(fd, buffer, sizeof buffer)) > 0) {
		ssize_t keep = 0;
		while (keep < n && lines > 0)
			if (buffer[keep++] == '\n')
				lines--;
		fwrite(buffer, 1, keep, stdout);
	}
	if (n < 0) {
		fprintf(stderr, "head: %s: %s\n", name, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long lines;
	int first = line_count_option(argc, argv, "head [-n N | -N] [FILE...]", &lines);
	if (first < 0)
		return 2;
	if (first == argc)
		return head(0, "standard input", lines) < 0;
	int status = 0;
	for (int i = first; i < argc; i++) {
		bool input = strcmp(argv[i], "-") == 0;
		int fd = input ? 0 : open(argv[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "head: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		if (argc - first > 1)
			printf("%s==> %s <==\n", i > first ? "\n" : "", argv[i]);
		if (head(fd, argv[i], lines) < 0)
			status = 1;
		if (!input)
			close(fd);
	}
	return status;
}
