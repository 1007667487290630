/* tail [-n N | -N] [FILE]: the last N lines (10) of FILE, or of the input. The input is
 * read whole into memory (it may be a pipe, which cannot be read backwards), then what
 * follows its (N+1)th newline from the end is written; a last line without a newline
 * counts as a line. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "count_option.h"

#define CHUNK 4096

/* All of fd into a buffer from malloc; its length in *length. NULL after saying why. */
static char *read_all(int fd, const char *name, size_t *length)
{
	size_t size = CHUNK, used = 0;
	char *data = malloc(size);
	ssize_t n = 1;
	while (data && n > 0) {
		if (used == size) {
			char *bigger = realloc(data, size * 2);
			if (!bigger)
				break;
			data = bigger;
			size *= 2;
		}
		n = read(fd, data + used, size - used);
		if (n > 0)
			used += n;
	}
	if (!data || n != 0) {
		fprintf(stderr, "tail: %s: %s\n", name, n < 0 ? strerror(errno) : "out of memory");
		free(data);
		return NULL;
	}
	*length = used;
	return data;
}

int main(int argc, char **argv)
{
	long lines;
	int first = line_count_option(argc, argv, "tail [-n N | -N] [FILE]", &lines);
	if (first < 0 || argc - first > 1) {
		if (first >= 0)
			fprintf(stderr, "usage: tail [-n N | -N] [FILE]\n");
		return 2;
	}
	const char *name = first < argc ? argv[first] : "-";
	bool input = strcmp(name, "-") == 0;
	int fd = input ? 0 : open(name, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "tail: %s: %s\n", name, strerror(errno));
		return 1;
	}
	size_t length;
	char *data = read_all(fd, input ? "standard input" : name, &length);
	if (!data)
		return 1;
	/* Back from the end to the newline before the Nth last line; the final newline
	 * ends the last line and is not counted. */
	size_t start = length;
	if (lines > 0) {
		if (start > 0 && data[start - 1] == '\n')
			start--;
		while (start > 0 && !(data[start - 1] == '\n' && --lines == 0))
			start--;
	}
	fwrite(data + start, 1, length - start, stdout);
	return 0;
}
