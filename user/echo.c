/* echo [-n] [WORD...]: print the words separated by spaces, then a newline (none with -n). */
#include <stdio.h>
#include <string.h>

/* Writes through stdout, whose buffer makes the whole line one write(). */
int main(int argc, char **argv)
{
	int first = 1;
	int newline = 1;

	if (first < argc && strcmp(argv[first], "-n") == 0) {
		newline = 0;
		first++;
	}
	for (int i = first; i < argc; i++) {
		if (i > first)
			putchar(' ');
		fputs(argv[i], stdout);
	}
	if (newline)
		putchar('\n');
	return 0;
}
