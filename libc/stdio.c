/* stdin, stdout and stderr for picolibc's stdio.
 *
 * picolibc's tiny stdio moves characters through a FILE's put/get/flush functions; these
 * are ours:
 *  - stdout and stderr collect characters in a buffer and write() it to fd 1 / fd 2 when
 *    a line ends, the buffer fills or fflush() is called. One write per line keeps lines
 *    whole when several programs share the console.
 *  - stdin reads fd 0 one byte per read(), so it never takes input that a program it
 *    starts next should get.
 * exit() runs the destructor below, which flushes both; _exit() and a crash do not. */
#include <stdio.h>
#include <unistd.h>

#define LINE_BUFFER_SIZE 256

/* A line-buffered output stream. `file` must come first: picolibc passes &file around. */
struct line_stream {
	FILE file;
	int fd;
	int used;
	char buffer[LINE_BUFFER_SIZE];
};

/* The `flush` hook (fflush, and put below): write out the buffer. 0, or EOF on error
 * (the unwritten bytes are dropped, so one bad write does not wedge the stream). */
static int line_stream_flush(FILE *file)
{
	struct line_stream *stream = (struct line_stream *)file;
	int done = 0;

	while (done < stream->used) {
		ssize_t n = write(stream->fd, stream->buffer + done, stream->used - done);
		if (n <= 0) {
			stream->used = 0;
			return EOF;
		}
		done += n;
	}
	stream->used = 0;
	return 0;
}

/* The `put` hook: buffer one character; flush at a newline or when full. */
static int line_stream_put(char c, FILE *file)
{
	struct line_stream *stream = (struct line_stream *)file;

	stream->buffer[stream->used++] = c;
	if (c == '\n' || stream->used == LINE_BUFFER_SIZE)
		return line_stream_flush(file);
	return 0;
}

/* The `get` hook of stdin: one byte from fd 0. */
static int stdin_get(FILE *file)
{
	unsigned char c;
	ssize_t n = read(0, &c, 1);

	(void)file;
	if (n == 1)
		return c;
	return n == 0 ? _FDEV_EOF : _FDEV_ERR;
}

static struct line_stream stdout_stream = {
    .file = FDEV_SETUP_STREAM(line_stream_put, NULL, line_stream_flush, _FDEV_SETUP_WRITE),
    .fd = 1,
};

static struct line_stream stderr_stream = {
    .file = FDEV_SETUP_STREAM(line_stream_put, NULL, line_stream_flush, _FDEV_SETUP_WRITE),
    .fd = 2,
};

static FILE stdin_stream = FDEV_SETUP_STREAM(NULL, stdin_get, NULL, _FDEV_SETUP_READ);

FILE *const stdin = &stdin_stream;
FILE *const stdout = &stdout_stream.file;
FILE *const stderr = &stderr_stream.file;

/* Run by exit() (through .fini_array): output still in the buffers must not be lost. */
__attribute__((destructor)) static void flush_standard_streams(void)
{
	fflush(stdout);
	fflush(stderr);
}
