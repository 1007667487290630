/* Running a parsed command line.
 *
 * A builtin alone (no pipeline, no &) runs inside the shell, its redirections applied
 * to the shell's own descriptors and then undone. Anything else is a job: each command
 * of the pipeline is a child made by fork that sets up its descriptors (the pipes, then
 * its redirections, left to right) and becomes its program with execve. Under job
 * control every process of the job joins one new process group, named by the first
 * one's pid: parent and child both call setpgid, so the group exists whichever of the
 * two runs first (POSIX setpgid's rationale; dash's forkchild/forkparent). A foreground
 * job is given the terminal (tcsetpgrp) by the child, before its program can read, and
 * by the parent, and the shell waits for it (jobs.c); a background job (&) is not
 * waited for. The status of a line is its last program's exit code, or 128 + the
 * signal that killed or stopped it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

#define PATH_SIZE 128

/* The signals an interactive shell ignores for itself (main.c) and its children get
 * back at their defaults before execve: an ignored signal would stay ignored. */
static const int job_control_signals[] = {SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU};

/* Make the current process's descriptors what `command`'s redirections say, in order.
 * Files are opened close-on-exec and copied into place, so only the copy reaches the
 * program. false after printing why one failed. Called in a child before execve, and
 * by run_builtin in the shell. */
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

/* The child's side of one pipeline process, after fork: join the job's group (0: start
 * it), take the terminal if in the foreground, get the default signal actions back, put
 * the pipe ends on 0 and 1, apply the redirections and become the program. Never
 * returns: exits 127 for a program not found, 126 for one that cannot run, 1 for a
 * failed redirection. */
static void child_run(const struct command *command, pid_t group, int input, int output,
                      bool foreground)
{
	if (job_control) {
		setpgid(0, group);
		if (foreground)
			tcsetpgrp(terminal_fd, group ? group : getpid());
		for (size_t i = 0; i < sizeof job_control_signals / sizeof job_control_signals[0];
		     i++)
			signal(job_control_signals[i], SIG_DFL);
	}
	if (input >= 0)
		dup2(input, 0); /* the copy is not close-on-exec; the pipe's own end is */
	if (output >= 0)
		dup2(output, 1);
	if (!redirect(command))
		_exit(1);
	char path[PATH_SIZE];
	char *const *words = command->words;
	if (strchr(words[0], '/') != NULL)
		snprintf(path, sizeof path, "%s", words[0]);
	else
		snprintf(path, sizeof path, "/bin/%s", words[0]);
	execve(path, words, environ);
	if (errno == ENOENT) {
		fprintf(stderr, "sh: %s: command not found\n", words[0]);
		_exit(127);
	}
	fprintf(stderr, "sh: %s: %s\n", words[0], strerror(errno));
	_exit(126);
}

/* Start the pipeline of `parsed` as one job named `text`; wait for it in the
 * foreground, or (&) report "[1] PID" and return at once. Sleeps in waitpid. */
static int run_job(const struct parsed_line *parsed, const char *text)
{
	struct job *job = job_create(text);
	if (!job)
		return 1;
	bool foreground = !parsed->background;
	fflush(stdout); /* our output first, and never twice (the child's copy) */
	fflush(stderr);
	int input = -1; /* the read end of the previous command's pipe */
	for (int i = 0; i < parsed->count; i++) {
		int ends[2] = {-1, -1};
		if (i < parsed->count - 1 && pipe2(ends, O_CLOEXEC) != 0) {
			fprintf(stderr, "sh: pipe: %s\n", strerror(errno));
			break;
		}
		pid_t pid = fork();
		if (pid == 0)
			child_run(&parsed->commands[i], job->group, input, ends[1], foreground);
		if (pid < 0) {
			fprintf(stderr, "sh: fork: %s\n", strerror(errno));
			close(ends[0]);
			close(ends[1]);
			break;
		}
		if (job_control) {
			/* Fails harmlessly (EACCES) when the child has already run execve: then it
			 * made the same call itself. */
			setpgid(pid, job->group ? job->group : pid);
		}
		job_add_process(job, pid);
		if (i == 0 && foreground && job_control)
			tcsetpgrp(terminal_fd,
			          job->group); /* the child did too: whoever is first */
		if (input >= 0)
			close(input);
		if (ends[1] >= 0)
			close(ends[1]);
		input = ends[0];
	}
	if (input >= 0)
		close(input);
	if (job->count == 0) {
		terminal_give_to(shell_group);
		job_forget(job);
		return 1;
	}
	if (foreground)
		return job_wait_foreground(job);
	if (interactive)
		printf("[%d] %d\n", job->number, (int)job->pids[job->count - 1]);
	return 0;
}

/* A builtin alone, with redirections: run in the shell with its descriptors changed,
 * then put back. */
static int run_builtin(const struct command *command, builtin_function *builtin)
{
	if (command->redirection_count == 0)
		return builtin(command->count, (char **)command->words);
	fflush(stdout);
	fflush(stderr);
	int saved[3], status = 1;
	for (int fd = 0; fd < 3; fd++)
		saved[fd] = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	if (redirect(command)) {
		status = builtin(command->count, (char **)command->words);
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

/* The line as a job's name: without the spaces around it and its trailing &. */
static void job_text(const char *line, char *text, size_t size)
{
	while (*line == ' ' || *line == '\t')
		line++;
	size_t length = strlen(line);
	while (length > 0 && (line[length - 1] == ' ' || line[length - 1] == '\t'))
		length--;
	if (length > 0 && line[length - 1] == '&' && (length < 2 || line[length - 2] != '>'))
		length--;
	while (length > 0 && (line[length - 1] == ' ' || line[length - 1] == '\t'))
		length--;
	snprintf(text, size, "%.*s", (int)length, line);
}

/* Run one command line; returns and remembers its status. Called by main() for each
 * line typed (and for sh -c). Sleeps while a foreground job runs. */
int run_line(const char *line)
{
	static struct parsed_line parsed;
	int result = parse_line(line, &parsed);
	if (result == 0)
		return last_status; /* empty line: the status stays */
	if (result < 0)
		return last_status = 2;
	builtin_function *builtin = builtin_find(parsed.commands[0].words[0]);
	if (parsed.count == 1 && !parsed.background && builtin) {
		last_status = run_builtin(&parsed.commands[0], builtin);
	} else {
		char text[LINE_SIZE];
		job_text(line, text, sizeof text);
		last_status = run_job(&parsed, text);
	}
	return last_status;
}
