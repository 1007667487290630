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
	for (int i = 0; i < command->assignment_count; i++) {
		char name[PATH_SIZE];
		const char *equals = strchr(command->assignments[i], '=');
		snprintf(name, sizeof name, "%.*s", (int)(equals - command->assignments[i]),
		         command->assignments[i]);
		if (var_export(name, equals + 1) < 0)
			_exit(1);
	}
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

/* One pipeline of a line: tokens[first .. first + count), whether it runs only after
 * a success (&&) or a failure (||) of what came before, and whether & ends it. */
struct pipeline_span {
	int first, count;
	enum token_kind follows;  /* TOKEN_SEQUENCE for the line's first, else ;, &, && or || */
	enum token_kind ended_by; /* what ends it: ;, &, && or || (TOKEN_SEQUENCE at the end) */
	bool background;
};

/* The pipeline of `list` that starts at token *at into *span, moving *at past it and its
 * terminator. false at the end of the line. */
static bool next_pipeline(const struct token_list *list, int *at, struct pipeline_span *span)
{
	if (*at >= list->count)
		return false;
	span->follows = *at == 0 ? TOKEN_SEQUENCE : list->tokens[*at - 1].kind;
	span->first = *at;
	while (*at < list->count && list->tokens[*at].kind != TOKEN_SEQUENCE &&
	       list->tokens[*at].kind != TOKEN_BACKGROUND && list->tokens[*at].kind != TOKEN_AND &&
	       list->tokens[*at].kind != TOKEN_OR)
		(*at)++;
	span->count = *at - span->first;
	span->ended_by = *at < list->count ? list->tokens[*at].kind : TOKEN_SEQUENCE;
	span->background = span->ended_by == TOKEN_BACKGROUND;
	if (*at < list->count)
		(*at)++;
	return true;
}

/* 0 if every pipeline of `list` is well formed and every ;, &, && and || stands between
 * two (a line may end in ; or &); else -1 after saying why. */
static int check_line(const struct token_list *list)
{
	struct pipeline_span span;
	int at = 0;
	bool in_and_or = false; /* the pipeline follows && or || */
	while (next_pipeline(list, &at, &span)) {
		if (check_pipeline(list->tokens + span.first, span.count) < 0)
			return -1;
		bool joined = span.ended_by == TOKEN_AND || span.ended_by == TOKEN_OR;
		if (joined && at == list->count) {
			fprintf(stderr, "sh: syntax error: nothing after && or ||\n");
			return -1;
		}
		if (span.background && in_and_or) {
			fprintf(stderr, "sh: & after a list with && or || is not supported\n");
			return -1;
		}
		in_and_or = joined;
	}
	return 0;
}

/* Run one expanded pipeline: assignments alone set variables; a builtin alone runs in
 * the shell; else a job. Its status. */
static int run_pipeline(struct parsed_line *parsed, const char *text)
{
	struct command *first = &parsed->commands[0];
	if (parsed->count == 1 && first->count == 0) {
		int status = 0;
		for (int i = 0; i < first->assignment_count && !parsed->background; i++)
			status |= var_assign(first->assignments[i]) < 0;
		return status;
	}
	builtin_function *builtin = builtin_find(first->words[0]);
	if (parsed->count == 1 && !parsed->background && builtin) {
		if (first->assignment_count > 0) {
			fprintf(stderr, "sh: %s: NAME=VALUE before a builtin is not supported\n",
			        first->words[0]);
			return 1;
		}
		return run_builtin(first, builtin);
	}
	return run_job(parsed, text);
}

/* Run one command line, its pipelines in order: after ; or & always, after && only if
 * the status so far is 0, after || only if it is not (a pipeline skipped leaves the
 * status as it was). The whole line is checked first: a malformed one runs nothing and
 * has status 2. A foreground job ended by ^C ends the line, as in other shells. Returns
 * and remembers the status. Called by main() for each line typed (and for sh -c).
 * Sleeps while a foreground job runs. */
int run_line(const char *line)
{
	static struct token_list list;
	static struct parsed_line parsed;
	static struct fields words;
	int count = lex_line(line, &list);
	if (count == 0)
		return last_status; /* empty line: the status stays */
	if (count < 0 || check_line(&list) < 0)
		return last_status = 2;
	struct pipeline_span span;
	int at = 0;
	while (next_pipeline(&list, &at, &span)) {
		if ((span.follows == TOKEN_AND && last_status != 0) ||
		    (span.follows == TOKEN_OR && last_status == 0))
			continue;
		if (parse_pipeline(list.tokens + span.first, span.count, &parsed, &words) < 0) {
			last_status = 2;
			continue;
		}
		parsed.background = span.background;
		const struct token *last = &list.tokens[span.first + span.count - 1];
		char text[LINE_SIZE];
		int start = list.tokens[span.first].start;
		snprintf(text, sizeof text, "%.*s", last->end - start, line + start);
		job_interrupted = false;
		last_status = run_pipeline(&parsed, text);
		if (job_interrupted)
			break;
	}
	return last_status;
}
