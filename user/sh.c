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
 * Pipelines and redirections: `a | b | c` runs the programs at once, each one's output
 * the next one's input (the status is c's); `> FILE`, `>> FILE`, `< FILE`, `2> FILE` and
 * `2>&1` change a command's descriptors, left to right (so `> /dev/null 2>&1` silences
 * both, `2>&1 > /dev/null` sends errors where the output went before).
 *
 * The shell edits its line itself, with the terminal in raw mode while it reads (no
 * ICANON, ECHO, ISIG, ICRNL: busybox's line editor does the same) and its settings put
 * back before a program runs: printable characters are echoed, backspace erases, ^C
 * abandons the line, ^D on an empty line exits, Enter ('\r' from a terminal, '\n' from a
 * script) runs it. While a program runs, ^C (and ^\) end it and the interactive shell
 * goes on: they reach the console's foreground group, the shell's and the program's
 * (Duplex's sh does no job control), and the shell catches them. */
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

enum line_result { LINE_READY, LINE_ABANDONED, LINE_END, LINE_NO_INPUT };

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

/* ------------------------------------------------------------------ parsing */

/* The operators a line may hold, outside quotes. A word is an operator only if it is
 * one of these very strings (a quoted "|" is a plain word). */
static const char pipe_operator[] = "|";
static const char input_operator[] = "<";
static const char output_operator[] = ">";
static const char append_operator[] = ">>";
static const char error_operator[] = "2>";
static const char error_to_output_operator[] = "2>&1";

static bool is_operator(const char *word)
{
	return word == pipe_operator || word == input_operator || word == output_operator ||
	       word == append_operator || word == error_operator ||
	       word == error_to_output_operator;
}

/* The operator at `in`, or NULL; *length is how many characters it takes. */
static const char *operator_at(const char *in, size_t *length)
{
	static const char *const operators[] = {error_to_output_operator, error_operator,
	                                        append_operator,          pipe_operator,
	                                        input_operator,           output_operator};
	for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++) {
		*length = strlen(operators[i]);
		if (strncmp(in, operators[i], *length) == 0)
			return operators[i];
	}
	return NULL;
}

/* Split `line` into words[0..MAX_WORDS) (copies in a buffer of their own) and end the
 * list with NULL. Outside quotes, |, <, >, >>, 2> and 2>&1 are operators and need no
 * spaces around them ("2>" only where a word begins). Returns the number of words, or
 * -1 after printing why the line is malformed. */
static int split_words(const char *line, char **words)
{
	static char pool[2 * LINE_SIZE];
	const char *in = line;
	char *out = pool;
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
		size_t length;
		const char *found = operator_at(in, &length);
		bool at_word_start = in == line || in[-1] == ' ' || in[-1] == '\t';
		bool names_fd = found == error_operator || found == error_to_output_operator;
		if (found && (!names_fd || at_word_start)) {
			words[count++] = (char *)found;
			in += length;
			continue;
		}
		words[count++] = out;
		/* Copy the word over the quotes and backslashes it loses. */
		bool quoted = false;
		while (*in != '\0' && (quoted || (*in != ' ' && *in != '\t'))) {
			if (!quoted && (*in == '|' || *in == '<' || *in == '>'))
				break; /* an operator ends the word */
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
		*out++ = '\0';
	}
	words[count] = NULL;
	return count;
}

/* One command of a pipeline: its words, and its redirections in the order given. */
struct redirection {
	int fd;           /* the descriptor it sets */
	const char *path; /* a file to open, or NULL: a copy of `from` */
	int flags;        /* open flags for `path` */
	int from;
};

#define MAX_COMMANDS     8
#define MAX_REDIRECTIONS 8

struct command {
	char *words[MAX_WORDS + 1];
	int count;
	struct redirection redirections[MAX_REDIRECTIONS];
	int redirection_count;
};

/* Cut words[0..count) into commands at each |, taking the redirections out of the
 * words. Returns the number of commands, or -1 after printing a syntax error. */
static int parse_pipeline(char **words, int count, struct command *commands)
{
	int commands_used = 1;
	struct command *command = &commands[0];
	command->count = command->redirection_count = 0;
	for (int i = 0; i < count; i++) {
		const char *word = words[i];
		if (word == pipe_operator) {
			if (command->count == 0 || i == count - 1 || commands_used == MAX_COMMANDS)
				goto syntax;
			command->words[command->count] = NULL;
			command = &commands[commands_used++];
			command->count = command->redirection_count = 0;
			continue;
		}
		if (!is_operator(word)) {
			command->words[command->count++] = words[i];
			continue;
		}
		if (command->redirection_count == MAX_REDIRECTIONS)
			goto syntax;
		struct redirection *redirection =
		    &command->redirections[command->redirection_count++];
		if (word == error_to_output_operator) {
			*redirection = (struct redirection){2, NULL, 0, 1};
			continue;
		}
		if (i == count - 1 || is_operator(words[i + 1]))
			goto syntax;
		const char *path = words[++i];
		if (word == input_operator)
			*redirection = (struct redirection){0, path, O_RDONLY, 0};
		else if (word == append_operator)
			*redirection =
			    (struct redirection){1, path, O_WRONLY | O_CREAT | O_APPEND, 0};
		else
			*redirection = (struct redirection){word == error_operator ? 2 : 1, path,
			                                    O_WRONLY | O_CREAT | O_TRUNC, 0};
	}
	if (command->count == 0)
		goto syntax;
	command->words[command->count] = NULL;
	return commands_used;
syntax:
	fprintf(stderr, "sh: syntax error\n");
	return -1;
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

/* Start words[0] as a program with `words` as its arguments (with the descriptors the
 * shell has now). Returns its pid, or -(the line's status) after saying why not. */
static pid_t start_program(char **words)
{
	char path[PATH_SIZE];

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
			return -127;
		}
		fprintf(stderr, "sh: %s: %s\n", words[0], strerror(errno));
		return -126;
	}
	return child;
}

/* Wait for a started program; its status as the line's. */
static int finish_program(pid_t child, bool report)
{
	int wait_status;
	if (child < 0)
		return -child;
	pid_t waited;
	while ((waited = waitpid(child, &wait_status, 0)) < 0 && errno == EINTR)
		; /* a ^C or ^\ for the program reached us too (see ignore_interrupts) */
	if (waited != child) {
		fprintf(stderr, "sh: wait: %s\n", strerror(errno));
		return 1;
	}
	if (!report)
		return WIFSIGNALED(wait_status) ? 128 + WTERMSIG(wait_status)
		                                : WEXITSTATUS(wait_status);
	return report_status(wait_status);
}

/* Make the shell's descriptors what `command`'s redirections say, in order. Files are
 * opened close-on-exec and copied into place, so only the copy reaches the program.
 * false after printing why one failed. */
static bool redirect(const struct command *command)
{
	for (int i = 0; i < command->redirection_count; i++) {
		const struct redirection *redirection = &command->redirections[i];
		int from = redirection->from;
		if (redirection->path) {
			from = open(redirection->path, redirection->flags | O_CLOEXEC, 0644);
			if (from < 0) {
				fprintf(stderr, "sh: %s: %s\n", redirection->path, strerror(errno));
				return false;
			}
		}
		int result = dup2(from, redirection->fd);
		if (redirection->path)
			close(from);
		if (result < 0) {
			fprintf(stderr, "sh: %d: %s\n", redirection->fd, strerror(errno));
			return false;
		}
	}
	return true;
}

/* Run a pipeline of programs, each command's output the next one's input, over pipes
 * (pipe2) and the descriptors spawn hands a child: for each command the shell makes
 * its own 0, 1 and 2 what the child should have (dup2), applies the redirections,
 * spawns it, and at the end puts its own descriptors back. Every descriptor the shell
 * keeps for itself is close-on-exec, so a child holds only its own ends and sees end of
 * file once its writer exits. Waits for all; the status is the last command's. */
static int run_pipeline(struct command *commands, int count)
{
	if (count == 1 && commands[0].redirection_count == 0) /* one program: nothing to move */
		return finish_program(start_program(commands[0].words), true);
	fflush(stdout);
	fflush(stderr);
	int saved[3];
	for (int fd = 0; fd < 3; fd++)
		saved[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	pid_t children[MAX_COMMANDS];
	int input = -1; /* the read end of the previous command's pipe */
	for (int i = 0; i < count; i++) {
		int ends[2] = {-1, -1};
		children[i] = -1;
		if (i < count - 1 && pipe2(ends, O_CLOEXEC) != 0) {
			fprintf(stderr, "sh: pipe: %s\n", strerror(errno));
			count = i;
			break;
		}
		int wanted[3] = {input >= 0 ? input : saved[0], ends[1] >= 0 ? ends[1] : saved[1],
		                 saved[2]};
		for (int fd = 0; fd < 3; fd++)
			if (wanted[fd] >= 0)
				dup2(wanted[fd], fd);
		if (input >= 0)
			close(input);
		if (ends[1] >= 0)
			close(ends[1]);
		input = ends[0];
		children[i] = redirect(&commands[i]) ? start_program(commands[i].words) : -1;
	}
	if (input >= 0)
		close(input);
	for (int fd = 0; fd < 3; fd++) {
		if (saved[fd] >= 0) {
			dup2(saved[fd], fd);
			close(saved[fd]);
		}
	}
	int status = 1;
	for (int i = 0; i < count; i++)
		status = finish_program(children[i], i == count - 1);
	return status;
}

/* A builtin alone, with redirections: run in the shell with its descriptors changed,
 * then put back. */
static int run_builtin(struct command *command, int (*builtin)(int count, char **words))
{
	if (command->redirection_count == 0)
		return builtin(command->count, command->words);
	fflush(stdout);
	fflush(stderr);
	int saved[3], status = 1;
	for (int fd = 0; fd < 3; fd++)
		saved[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	if (redirect(command)) {
		status = builtin(command->count, command->words);
		fflush(stdout);
		fflush(stderr);
	}
	for (int fd = 0; fd < 3; fd++) {
		if (saved[fd] >= 0) {
			dup2(saved[fd], fd);
			close(saved[fd]);
		}
	}
	return status;
}

static int help_command(int count, char **words)
{
	(void)count, (void)words;
	return builtin_help();
}

/* Run one command line; returns and remembers its status. */
static int run_line(char *line)
{
	char *words[MAX_WORDS + 1];
	static struct command commands[MAX_COMMANDS];
	int count = split_words(line, words);
	if (count == 0)
		return last_status; /* empty line: the status stays */
	int commands_count = count < 0 ? -1 : parse_pipeline(words, count, commands);
	if (commands_count < 0)
		last_status = 2;
	else if (commands_count == 1 && strcmp(commands[0].words[0], "exit") == 0)
		last_status = run_builtin(&commands[0], builtin_exit);
	else if (commands_count == 1 && strcmp(commands[0].words[0], "help") == 0)
		last_status = run_builtin(&commands[0], help_command);
	else
		last_status = run_pipeline(commands, commands_count);
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

/* The interactive shell's SIGINT and SIGQUIT handler: nothing. ^C and ^\ go to the
 * console's foreground process group, which holds the shell and the program it waits
 * for; the program's default action ends it, the shell's handler lets it go on (a
 * handler, not SIG_IGN, so that spawn gives the program the default action back, as
 * execve resets handlers but keeps ignored signals ignored). */
static void interrupted(int signal)
{
	(void)signal;
}

static void ignore_interrupts(void)
{
	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_handler = interrupted; /* no SA_RESTART: waitpid returns EINTR, retried */
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGQUIT, &action, NULL);
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
	ignore_interrupts();
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
		/* The settings go back before the newline is echoed: whoever waits for it to type
		 * at the program (a person, a test) then types into the program's canonical
		 * line, never into the raw input the mode switch hands out as one (Linux
		 * n_tty_set_termios). */
		if (terminal)
			tcsetattr(0, TCSANOW, &saved);
		if (result == LINE_READY || result == LINE_END)
			echo("\n");
		switch (result) {
		case LINE_READY:
			run_line(line);
			break;
		case LINE_ABANDONED:
			break;
		case LINE_END:
		case LINE_NO_INPUT:
			return 0;
		}
	}
}
