/* sh: the Duplex shell.
 *
 *   sh              interactive: prints /etc/motd, then reads command lines at a "$ " prompt
 *   sh -c "LINE"    runs one command line and exits with its status
 *
 * A command line is words and operators (lex.c): pipelines joined by ;, &&, || and &,
 * run in order, && only after a success and || only after a failure (run.c). Each word
 * is expanded just before its pipeline runs (expand.c): '...' literal, "..." expanding
 * $NAME, \ quoting a character, $NAME ${NAME} $? $$ and a leading ~, an unquoted
 * expansion split at blanks. The first word of a command is a builtin (exit, help,
 * jobs, fg, bg, cd, export, unset: builtins.c) or a program, /bin/WORD (or the path
 * itself if it contains a '/'), run by fork and execve and waited for; NAME=VALUE words
 * before it go to the program's environment, or alone set shell variables
 * (variables.c). The status of a pipeline is its last program's exit code, or 128 + the
 * signal that killed or stopped it. What the shell does not know is refused with a
 * message before any of the line runs, never run as something else.
 *
 * Pipelines and redirections: `a | b | c` runs the programs at once, each one's output
 * the next one's input (the status is c's); `> FILE`, `>> FILE`, `< FILE`, `2> FILE`,
 * `2>&1` and `>&2` change a command's descriptors, left to right (so `> /dev/null 2>&1`
 * silences both, `2>&1 > /dev/null` sends errors where the output went before). A `&`
 * after a pipeline runs it in the background.
 *
 * Job control (interactive, with the console as controlling terminal): each line is a
 * job in a process group of its own, which gets the terminal while it runs in the
 * foreground, so a typed ^C (SIGINT), ^\ (SIGQUIT) or ^Z (SIGTSTP) reaches the job and
 * not the shell. A job stopped by ^Z is kept ("[1]+ Stopped  cmd"); `jobs` lists the
 * jobs, `fg [%N]` continues one in the foreground, `bg [%N]` in the background; the end
 * of a background job is reported before the next prompt (jobs.c).
 *
 * The shell edits its line itself (line_editor.c), with the terminal in raw mode while
 * it reads (no ICANON, ECHO, ISIG, ICRNL: busybox's line editor does the same) and its
 * settings put back before a program runs. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "sh.h"

bool interactive;
bool job_control;
int terminal_fd = -1;
pid_t shell_group;
int last_status;
bool job_interrupted;

/* The group that had the terminal when the shell started, given it back at exit. */
static pid_t original_group;

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

/* At exit: the terminal goes back to whoever had it before the shell started (a shell
 * that started this one without job control of its own still reads from it). */
static void give_terminal_back(void)
{
	fflush(stdout);
	if (original_group != shell_group)
		tcsetpgrp(terminal_fd, original_group);
}

/* The interactive shell's SIGINT and SIGQUIT handler without job control: nothing.
 * ^C and ^\ then go to the group that holds the shell and the program it waits for;
 * the program's default action ends it (execve resets a handler, where an ignored
 * signal would stay ignored), the shell goes on. */
static void interrupted(int signal)
{
	(void)signal;
}

/* Turn job control on, as a small POSIX shell does at start (dash's and ash's
 * setjobctl): wait until the shell's group is the terminal's foreground (a shell
 * started in the background stops itself with SIGTTIN until it is continued in the
 * foreground), ignore the job-control signals for itself, lead a process group of its
 * own and take the terminal. Without a controlling terminal the shell runs its programs
 * in its own group and only catches ^C. Called once by main(). */
static void start_job_control(void)
{
	terminal_fd = fcntl(0, F_DUPFD_CLOEXEC, 10);
	pid_t foreground = terminal_fd >= 0 ? tcgetpgrp(terminal_fd) : -1;
	if (foreground < 0) {
		close(terminal_fd);
		terminal_fd = -1;
		struct sigaction action;
		memset(&action, 0, sizeof action);
		action.sa_handler = interrupted; /* no SA_RESTART: waitpid returns EINTR, retried */
		sigaction(SIGINT, &action, NULL);
		sigaction(SIGQUIT, &action, NULL);
		return;
	}
	while ((foreground = tcgetpgrp(terminal_fd)) >= 0 && foreground != getpgrp())
		kill(0, SIGTTIN);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
	original_group = getpgrp();
	/* A session leader (the first program) leads its group already and may not move. */
	if (getpgrp() != getpid() && setpgid(0, 0) != 0)
		fprintf(stderr, "sh: setpgid: %s\n", strerror(errno));
	shell_group = getpgrp();
	job_control = true;
	terminal_give_to(shell_group);
	atexit(give_terminal_back);
}

/* As the first program (pid 1), the interactive shell runs in a child and pid 1 only
 * waits: a job whose parent is init counts as orphaned, so the kernel would discard
 * its ^Z, as Linux does (kernel/exit.c will_become_orphaned_pgrp skips children of
 * init); busybox init and getty keep the shell off pid 1 for the same reason. Pid 1
 * also reaps the orphans the kernel gives it, and leaves (powering off) with the
 * shell's status. Returns only in the child; called by main. */
static void keep_the_shell_off_init(void)
{
	pid_t shell = fork();
	if (shell < 0) {
		fprintf(stderr, "sh: fork: %s (job control stays off)\n", strerror(errno));
		return;
	}
	if (shell == 0)
		return;
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);
	for (;;) {
		int wait_status;
		pid_t ended = waitpid(-1, &wait_status, 0);
		if (ended == shell)
			exit(status_of(wait_status));
		if (ended < 0 && errno != EINTR) {
			fprintf(stderr, "sh: waitpid: %s\n", strerror(errno));
			exit(1);
		}
	}
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
	if (getpid() == 1 && isatty(0))
		keep_the_shell_off_init();
	start_job_control();
	print_motd();
	for (;;) {
		job_report_changes();
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
