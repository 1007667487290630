/* The shell's line editor: reads a command line key by key with the terminal raw (main.c
 * sets the mode), echoing what it keeps. Backspace (^H or DEL) erases one character,
 * ^C abandons the line, ^D on an empty line ends the input, Enter ('\r' from a terminal,
 * '\n' from a script) ends the line; escape sequences (arrow keys: ESC [ A) are skipped.
 * Other control characters (a ^Z typed at the prompt) are dropped: ISIG is off while
 * the shell reads, so they send no signal. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "sh.h"

#define CONTROL_C 0x03
#define CONTROL_D 0x04
#define BACKSPACE 0x08
#define ESCAPE    0x1b
#define DELETE    0x7f

/* Escape sequences (arrow keys send ESC [ A, ...) are skipped, not inserted. */
enum input_state { INPUT_NORMAL, INPUT_ESCAPE, INPUT_SEQUENCE };

/* Echo one character (or a short string) to the terminal at once. Called by the editor
 * and by main(). */
void echo(const char *text)
{
	fputs(text, stdout);
	fflush(stdout);
}

/* Remove the last character of line[0..*length): all bytes of a UTF-8 sequence, so one
 * backspace erases one character on the screen. */
static void erase_last_character(char *line, size_t *length)
{
	if (*length == 0)
		return;
	do {
		(*length)--;
	} while (*length > 0 && (line[*length] & 0xc0) == 0x80);
	echo("\b \b");
}

/* One byte of input for read_line. EINTR: read again. EAGAIN: stdin's open file is
 * shared with the programs we start, and one left it O_NONBLOCK; clear the flag and read
 * again, as bash does (sh_unset_nodelay_mode). False at end of input or on any other
 * error. */
static bool read_input_byte(unsigned char *c)
{
	for (;;) {
		ssize_t got = read(0, c, 1);
		if (got == 1)
			return true;
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN) {
			int flags = fcntl(0, F_GETFL);
			if (flags >= 0 && (flags & O_NONBLOCK) &&
			    fcntl(0, F_SETFL, flags & ~O_NONBLOCK) == 0)
				continue;
		}
		return false;
	}
}

/* Read one command line from fd 0 into line[0..size), editing as keys arrive. Reads
 * one byte per read() so that input typed ahead for the next program stays in the
 * console for it. Sleeps in read();
 * called by the interactive loop in main(). */
enum line_result read_line(char *line, size_t size)
{
	static bool after_carriage_return; /* a terminal may send "\r\n": one Enter */
	enum input_state state = INPUT_NORMAL;
	size_t length = 0;

	for (;;) {
		unsigned char c;
		if (!read_input_byte(&c))
			return LINE_NO_INPUT; /* as ^D, but nothing to echo */

		bool skip_newline = after_carriage_return && c == '\n';
		after_carriage_return = c == '\r';
		if (skip_newline)
			continue;

		if (state == INPUT_ESCAPE) {
			state = (c == '[' || c == 'O') ? INPUT_SEQUENCE : INPUT_NORMAL;
			continue;
		}
		if (state == INPUT_SEQUENCE) {
			if (c >= 0x40 && c <= 0x7e) /* the final byte of the sequence */
				state = INPUT_NORMAL;
			continue;
		}

		switch (c) {
		case '\r':
		case '\n':
			line[length] = '\0'; /* the caller echoes the newline, settings restored */
			return LINE_READY;
		case BACKSPACE:
		case DELETE:
			erase_last_character(line, &length);
			break;
		case CONTROL_C:
			echo("^C\n");
			return LINE_ABANDONED;
		case CONTROL_D:
			if (length == 0)
				return LINE_END; /* the caller echoes the newline */
			break;
		case ESCAPE:
			state = INPUT_ESCAPE;
			break;
		default:
			if (c >= ' ' && length + 1 < size) { /* printable, or part of UTF-8 */
				line[length++] = (char)c;
				putchar(c);
				fflush(stdout);
			}
			break;
		}
	}
}
