/* conpattern: write a known byte pattern to the console for the console system tests.
 *   conpattern write|writev BYTES
 * Turns output processing off (raw bytes), prints "PATTERN-BEGIN\n", then BYTES bytes
 * of pattern_byte(i) through write() or writev() in pieces of varying size, then
 * tcdrain(), then checks the console reports nothing queued, and prints
 * "PATTERN-END bytes=N queued-after-drain=Q line-overruns=O" (O: bytes the line model saw
 * put beyond the FIFO's room, uart.line=; must be 0). The host recomputes the pattern. */
#include <duplex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <termios.h>
#include <unistd.h>

/* Every byte value appears; the pattern does not repeat with any short period. */
static unsigned char pattern_byte(unsigned long i)
{
	return (unsigned char)((i * 7 + (i >> 8) * 13 + (i >> 16)) & 0xff);
}

static int write_all(const unsigned char *data, size_t length)
{
	while (length > 0) {
		ssize_t done = write(1, data, length);
		if (done <= 0)
			return -1;
		data += done;
		length -= (size_t)done;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "write") != 0 && strcmp(argv[1], "writev") != 0 &&
	                  strcmp(argv[1], "both") != 0)) {
		fprintf(stderr, "usage: conpattern write|writev|both BYTES\n");
		return 2;
	}
	unsigned long total = strtoul(argv[2], NULL, 0);
	struct termios saved, raw;
	tcgetattr(1, &saved);
	raw = saved;
	cfmakeraw(&raw);
	tcsetattr(1, TCSANOW, &raw);
	static const char begin[] = "PATTERN-BEGIN\n";
	write_all((const unsigned char *)begin, sizeof begin - 1);

	static unsigned char buffer[9000];
	unsigned long sent = 0, piece = 1;
	while (sent < total) {
		/* Piece sizes 1..8999 cycling, so writes cross every boundary. */
		piece = (piece * 37 + 11) % 8999 + 1;
		size_t length = piece < total - sent ? piece : total - sent;
		for (size_t i = 0; i < length; i++)
			buffer[i] = pattern_byte(sent + i);
		int failed;
		bool vectored = strcmp(argv[1], "writev") == 0 ||
		                (strcmp(argv[1], "both") == 0 && sent >= total / 2);
		if (vectored) {
			/* Three iovecs of uneven sizes. */
			size_t a = length / 3, b = length / 2;
			struct iovec parts[3] = {
			    {buffer, a}, {buffer + a, b - a}, {buffer + b, length - b}};
			ssize_t done = writev(1, parts, 3);
			failed = done < 0;
			if (!failed && (size_t)done < length)
				failed = write_all(buffer + done, length - (size_t)done);
		} else {
			failed = write_all(buffer, length);
		}
		if (failed) {
			tcsetattr(1, TCSANOW, &saved);
			fprintf(stderr, "conpattern: write failed at %lu\n", sent);
			return 1;
		}
		sent += length;
	}
	tcdrain(1);
	int queued = -1;
	ioctl(1, TIOCOUTQ, &queued);
	struct console_info info = {0};
	ioctl(1, CONSOLE_IOCTL_INFO, &info);
	tcsetattr(1, TCSANOW, &saved);
	printf("\nPATTERN-END bytes=%lu queued-after-drain=%d line-overruns=%llu\n", sent, queued,
	       (unsigned long long)info.line_overruns);
	return 0;
}
