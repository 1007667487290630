/* nonblock: show, set or clear O_NONBLOCK on standard input.
 *
 *   nonblock        print "stdin: O_NONBLOCK on" or "... off"
 *   nonblock on     set it, then print the state; `off` clears it
 *
 * The flag belongs to the open file, not to the descriptor, so it outlives this program
 * in the shell that started it, which shares the file (as on Linux): the shell must then
 * cope with EAGAIN on its next read. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int flags = fcntl(0, F_GETFL);
	if (flags < 0) {
		perror("nonblock: F_GETFL");
		return 1;
	}
	if (argc == 2 && (strcmp(argv[1], "on") == 0 || strcmp(argv[1], "off") == 0)) {
		flags = strcmp(argv[1], "on") == 0 ? flags | O_NONBLOCK : flags & ~O_NONBLOCK;
		if (fcntl(0, F_SETFL, flags) != 0) {
			perror("nonblock: F_SETFL");
			return 1;
		}
	} else if (argc != 1) {
		fprintf(stderr, "usage: nonblock [on|off]\n");
		return 2;
	}
	printf("stdin: O_NONBLOCK %s\n", (fcntl(0, F_GETFL) & O_NONBLOCK) ? "on" : "off");
	return 0;
}
