/* The line count head and tail take: `-n N`, or the older `-N` (which busybox's and GNU's
 * still accept), before the file operands; 10 without either. Used by user/head.c and
 * user/tail.c. */
#ifndef DUPLEX_USER_COUNT_OPTION_H
#define DUPLEX_USER_COUNT_OPTION_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_LINE_COUNT 10

/* The count of `text` (digits only) into *count; false if it is not a number. */
static inline bool parse_line_count(const char *text, long *count)
{
	char *end;
	if (*text < '0' || *text > '9')
		return false;
	*count = strtol(text, &end, 10);
	return *end == '\0';
}

/* Reads the options of argv[1..argc) into *count. Returns the index of the first file
 * operand, or -1 after printing `usage` (a count that is not a number, an unknown
 * option). */
static inline int line_count_option(int argc, char **argv, const char *usage, long *count)
{
	int first = 1;
	*count = DEFAULT_LINE_COUNT;
	if (first < argc && strcmp(argv[first], "-n") == 0) {
		if (first + 1 == argc || !parse_line_count(argv[first + 1], count))
			goto bad;
		first += 2;
	} else if (first < argc && argv[first][0] == '-' && argv[first][1] != '\0' &&
	           strcmp(argv[first], "-") != 0) {
		if (!parse_line_count(argv[first] + 1, count))
			goto bad;
		first++;
	}
	return first;
bad:
	fprintf(stderr, "usage: %s\n", usage);
	return -1;
}

#endif
