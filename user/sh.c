/* sh: the Duplex shell.
 *
 *   sh              interactive: prints /etc/motd, then reads command lines at a "$ " prompt
 *   sh -c "LINE"    runs one command line and exits with its status
 *
 * A command line is words separated by spaces; "double quotes" keep spaces inside a word
 * and \" or \\ put a quote or a backslash in it. The first word is a builtin (exit, help)
 * or a program, /bin/WORD (or the path itself if it contains a '/'), started with spawn()
 * and waited for. The status of a line is the program's exit code, or 128 + the signal
 * that killed it.
 *
 * The shell edits its line itself, with the terminal in raw mode while it reads (no
 * ICANON, ECHO, ISIG, ICRNL: busybox's line editor does the same) and its settings put
 * back before a program runs: printable characters are echoed, backspace erases, ^C
 * abandons the line, ^D on an empty line exits, Enter ('\r' from a terminal, '\n' from a
 * script) runs it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <dirent.h>
#include <duplex.h>

#define LINE_SIZE      256
#define MAX_WORDS      32
#define PATH_SIZE      128
#define MAX_PROGRAMS   64
#define NAME_POOL_SIZE 2048

#define CONTROL_C 0x03
#define CONTROL_D 0x04
#define BACKSPACE 0x08
#define ESCAPE    0x1b
#define DELETE    0x7f

/* The status of the last command line, for `exit` without an argument. */
static int last_status;
/* Interactive: report "[exit N]" and kills after each program. */
static bool interactive;

/* ------------------------------------------------------------------ the line editor */

enum line_result { LINE_READY, LINE_ABANDONED, LINE_END };

/* Escape sequences (arrow keys send ESC [ A, ...) are skipped, not inserted. */
enum input_state { INPUT_NORMAL, INPUT_ESCAPE, INPUT_SEQUENCE };

/* Echo one character (or a short string) to the terminal at once. */
static void echo(const char *text)
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

/* Read one command line from fd 0 into line[0..size), editing as keys arrive. Reads
 * one byte per read() so that input typed ahead for the next program stays in the
 * console for it. Called by the interactive loop in main(). */
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

static enum line_result read_line(char *line, size_t size)
{
	static bool after_carriage_return; /* a terminal may send "\r\n": one Enter */
	enum input_state state = INPUT_NORMAL;
	size_t length = 0;

	for (;;) {
		unsigned char c;
		if (!read_input_byte(&c))
			return LINE_END; /* no more input: same as ^D */

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
			echo("\n");
			line[length] = '\0';
			return LINE_READY;
		case BACKSPACE:
		case DELETE:
			erase_last_character(line, &length);
			break;
		case CONTROL_C:
			echo("^C\n");
			return LINE_ABANDONED;
		case CONTROL_D:
			if (length == 0) {
				echo("\n");
				return LINE_END;
			}
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

/* ------------------------------------------------------------------ parsing */

/* Split `line` in place into words[0..MAX_WORDS) and end the list with NULL. Returns the
 * number of words, or -1 after printing why the line is malformed. */
static int split_words(char *line, char **words)
{
	char *in = line, *out = line;
	int count = 0;

	for (;;) {
		while (*in == ' ' || *in == '\t')
			in++;
		if (*in == '\0')
			break;
		if (count == MAX_WORDS) {
			fprintf(stderr, "sh: more than %d words\n", MAX_WORDS);
			return -1;
		}
		words[count++] = out;

		/* Copy the word down over the quotes and backslashes it loses. */
		bool quoted = false;
		while (*in != '\0' && (quoted || (*in != ' ' && *in != '\t'))) {
			if (*in == '"') {
				quoted = !quoted;
				in++;
				continue;
			}
			if (*in == '\\' && (in[1] == '"' || in[1] == '\\'))
				in++;
			*out++ = *in++;
		}
		if (quoted) {
			fprintf(stderr, "sh: missing closing \"\n");
			return -1;
		}
		char separator = *in;
		if (separator != '\0')
			in++;
		*out++ = '\0'; /* out is behind in, so this overwrites nothing unread */
		if (separator == '\0')
			break;
	}
	words[count] = NULL;
	return count;
}

/* ------------------------------------------------------------------ builtins */

/* qsort comparison for an array of C strings. */
static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Print the programs in /bin, sorted, on one line. */
static void list_programs(void)
{
	static char pool[NAME_POOL_SIZE];
	char *names[MAX_PROGRAMS];
	size_t pool_used = 0;
	int count = 0;
	char buffer[1024];
	ssize_t filled;

	int dir = open("/bin", O_RDONLY | O_DIRECTORY);
	if (dir < 0) {
		printf("sh: /bin: %s\n", strerror(errno));
		return;
	}
	while ((filled = getdents64(dir, buffer, sizeof buffer)) > 0) {
		for (ssize_t at = 0; at < filled;) {
			struct linux_dirent64 *entry = (struct linux_dirent64 *)(buffer + at);
			size_t size = strlen(entry->d_name) + 1;
			at += entry->d_reclen;
			if (entry->d_name[0] == '.' || entry->d_type == DT_DIR)
				continue;
			if (count == MAX_PROGRAMS || pool_used + size > sizeof pool)
				break;
			names[count++] = memcpy(pool + pool_used, entry->d_name, size);
			pool_used += size;
		}
	}
	close(dir);

	qsort(names, count, sizeof names[0], compare_names);
	fputs("programs:", stdout);
	for (int i = 0; i < count; i++)
		printf(" %s", names[i]);
	putchar('\n');
}

/* help: what the shell can run. */
static int builtin_help(void)
{
	puts("builtins: exit [N], help");
	list_programs();
	puts("keys: Backspace erases, ^C abandons the line, ^D on an empty line exits");
	return 0;
}

/* exit [N]: leave the shell with status N, or with the last line's status. Returns
 * only if N is not a number. */
static int builtin_exit(int count, char **words)
{
	if (count > 2) {
		fprintf(stderr, "sh: exit: too many arguments\n");
		return 1;
	}
	if (count == 2) {
		char *end;
		long status = strtol(words[1], &end, 10);
		if (end == words[1] || *end != '\0') {
			fprintf(stderr, "sh: exit: %s: not a number\n", words[1]);
			return 2;
		}
		exit((int)(status & 0xff));
	}
	exit(last_status);
}

/* ------------------------------------------------------------------ programs */

/* Tell the user how a program ended, in interactive mode, and turn its wait status
 * into the line's status. */
static int report_status(int wait_status)
{
	if (WIFSIGNALED(wait_status)) {
		int signal = WTERMSIG(wait_status);
		char name[SIG2STR_MAX];
		if (sig2str(signal, name) != 0)
			strcpy(name, "?");
		if (interactive)
			printf("[killed by signal %d (SIG%s)]\n", signal, name);
		return 128 + signal;
	}
	int code = WEXITSTATUS(wait_status);
	if (interactive && code != 0)
		printf("[exit %d]\n", code);
	return code;
}

/* Start words[0] as a program with `words` as its arguments and wait for it. */
static int run_program(char **words)
{
	char path[PATH_SIZE];
	int wait_status;

	if (strchr(words[0], '/') != NULL)
		snprintf(path, sizeof path, "%s", words[0]);
	else
		snprintf(path, sizeof path, "/bin/%s", words[0]);

	fflush(stdout); /* our output first, then the program's */
	fflush(stderr);
	pid_t child = spawn(path, words, environ);
	if (child < 0) {
		if (errno == ENOENT) {
			fprintf(stderr, "sh: %s: command not found\n", words[0]);
			return 127;
		}
		fprintf(stderr, "sh: %s: %s\n", words[0], strerror(errno));
		return 126;
	}
	if (waitpid(child, &wait_status, 0) != child) {
		fprintf(stderr, "sh: wait: %s\n", strerror(errno));
		return 1;
	}
	return report_status(wait_status);
}

/* Run one command line; returns and remembers its status. */
static int run_line(char *line)
{
	char *words[MAX_WORDS + 1];
	int count = split_words(line, words);

	if (count < 0)
		last_status = 2;
	else if (count == 0)
		; /* empty line: the status stays */
	else if (strcmp(words[0], "exit") == 0)
		last_status = builtin_exit(count, words);
	else if (strcmp(words[0], "help") == 0)
		last_status = builtin_help();
	else
		last_status = run_program(words);
	return last_status;
}

/* ------------------------------------------------------------------ main */

/* Copy /etc/motd, if the archive has one, to the terminal. */
static void print_motd(void)
{
	char buffer[256];
	ssize_t n;
	int fd = open("/etc/motd", O_RDONLY);

	if (fd < 0)
		return;
	while ((n = read(fd, buffer, sizeof buffer)) > 0)
		fwrite(buffer, 1, n, stdout);
	close(fd);
}

/* Started by the kernel as the first program, or by another shell. */
int main(int argc, char **argv)
{
	char line[LINE_SIZE];

	if (argc >= 3 && strcmp(argv[1], "-c") == 0)
		return run_line(argv[2]);
	if (argc != 1) {
		fprintf(stderr, "usage: sh [-c \"command line\"]\n");
		return 2;
	}

	interactive = true;
	print_motd();
	for (;;) {
		/* Raw before the prompt appears, so that what is typed at it is ours alone. */
		struct termios saved;
		bool terminal = tcgetattr(0, &saved) == 0;
		if (terminal) {
			struct termios raw = saved;
			raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
			raw.c_iflag &= ~(tcflag_t)(ICRNL | INLCR | IGNCR);
			raw.c_cc[VMIN] = 1;
			raw.c_cc[VTIME] = 0;
			tcsetattr(0, TCSANOW, &raw);
		}
		echo("$ ");
		enum line_result result = read_line(line, sizeof line);
		if (terminal)
			tcsetattr(0, TCSANOW, &saved);
		switch (result) {
		case LINE_READY:
			run_line(line);
			break;
		case LINE_ABANDONED:
			break;
		case LINE_END:
			return 0;
		}
	}
}
