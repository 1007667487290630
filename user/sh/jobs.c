/* The job table: every command line that runs programs is a job, one process group
 * under job control, with one entry per process of its pipeline. A foreground job is
 * waited for with WUNTRACED, so that a ^Z (SIGTSTP to the terminal's foreground group)
 * hands the terminal back to the shell and keeps the job here, Stopped; `fg` and `bg`
 * continue it with SIGCONT to its group. Background jobs are looked at (WNOHANG) before
 * each prompt, and changes reported then. The sequence is a small POSIX shell's
 * (dash's and busybox ash's jobs.c: waitforjob, dowait, showjobs).
 *
 * A job's state comes from its processes: Done when all have ended, Running while one
 * has neither stopped nor ended, else Stopped. "%+" (the current job) is the one most
 * recently stopped, started in the background or continued; "%-" the one before. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <duplex.h>

#include "sh.h"

#define MAX_JOBS 16

enum job_state { JOB_RUNNING, JOB_STOPPED, JOB_DONE };

/* Linux's wait4 option and status word for a continued child (uapi/linux/wait.h,
 * POSIX WCONTINUED): picolibc's <sys/wait.h> has neither. */
#define WAIT_CONTINUED         8
#define STATUS_IS_CONTINUED(s) ((s) == 0xffff)

static struct job jobs[MAX_JOBS];
static unsigned long job_clock; /* counts starts, stops and continues, for %+ and %- */
/* Jobs with a change the user has not been told about (a background job ended). */
static bool changed[MAX_JOBS];

/* The status a command line gets from a wait status: the exit code, or 128 + the Linux
 * number of the signal that killed or stopped it (as Linux shells report). Called by
 * run.c and here. */
int status_of(int wait_status)
{
	if (WIFSTOPPED(wait_status))
		return 128 + linux_signal_number(WSTOPSIG(wait_status));
	if (WIFSIGNALED(wait_status))
		return 128 + linux_signal_number(WTERMSIG(wait_status));
	return WEXITSTATUS(wait_status);
}

/* "SIGINT" for SIGINT, into name[0..SIG2STR_MAX + 3). */
static void signal_name(int signal, char *name)
{
	strcpy(name, "SIG");
	if (sig2str(signal, name + 3) != 0)
		strcpy(name, "SIG?");
}

/* A free slot with the smallest free job number, for a line about to start its
 * programs; NULL (after saying so) when the table is full. Called by run.c. */
struct job *job_create(const char *text)
{
	struct job *free_slot = NULL;
	int number = 1;
	for (bool taken = true; taken; number += taken) {
		taken = false;
		for (int i = 0; i < MAX_JOBS; i++)
			taken |= jobs[i].used && jobs[i].number == number;
	}
	for (int i = 0; i < MAX_JOBS && !free_slot; i++)
		if (!jobs[i].used)
			free_slot = &jobs[i];
	if (!free_slot) {
		fprintf(stderr, "sh: too many jobs\n");
		return NULL;
	}
	memset(free_slot, 0, sizeof *free_slot);
	free_slot->used = true;
	free_slot->number = number;
	free_slot->touched = ++job_clock;
	snprintf(free_slot->text, sizeof free_slot->text, "%s", text);
	changed[free_slot - jobs] = false;
	return free_slot;
}

/* A process of the job's pipeline was forked; the first one's pid names the group
 * (under job control). Called by run.c, in the parent. */
void job_add_process(struct job *job, pid_t pid)
{
	if (job->count == 0 && job_control)
		job->group = pid;
	job->pids[job->count] = pid;
	job->running[job->count] = true;
	job->ended[job->count] = false;
	job->count++;
}

/* Done, Running or Stopped, from the job's processes. Called within jobs.c. Never
 * sleeps. */
static enum job_state job_state(const struct job *job)
{
	bool all_ended = true;
	for (int i = 0; i < job->count; i++) {
		if (job->running[i])
			return JOB_RUNNING;
		all_ended &= job->ended[i];
	}
	return all_ended ? JOB_DONE : JOB_STOPPED;
}

/* Note what waitpid said about `pid` in its job. Returns the job, or NULL for a pid
 * that is none of ours (init's adopted orphans, when the shell is the first program). */
static struct job *record(pid_t pid, int wait_status)
{
	for (int j = 0; j < MAX_JOBS; j++) {
		struct job *job = &jobs[j];
		for (int i = 0; job->used && i < job->count; i++) {
			if (job->pids[i] != pid)
				continue;
			if (STATUS_IS_CONTINUED(wait_status)) {
				job->running[i] = true;
			} else if (WIFSTOPPED(wait_status)) {
				job->running[i] = false;
				job->stop_signal = WSTOPSIG(wait_status);
				job->touched = ++job_clock;
			} else {
				job->running[i] = false;
				job->ended[i] = true;
				if (i == job->count - 1)
					job->last_status = wait_status;
			}
			changed[j] = true;
			return job;
		}
	}
	return NULL;
}

/* Give the terminal to `group` (tcsetpgrp): to a job before it runs in the foreground,
 * back to the shell's group once it stopped or ended. The shell ignores SIGTTOU, so
 * this works from the background too (POSIX tcsetpgrp; Linux __tty_check_change). */
void terminal_give_to(pid_t group)
{
	if (job_control && tcsetpgrp(terminal_fd, group) != 0)
		fprintf(stderr, "sh: tcsetpgrp: %s\n", strerror(errno));
}

/* How the job stands, in words: "Running", "Stopped", "Done", "Exit 3",
 * "Killed (SIGTERM)". */
static void describe(const struct job *job, char *text, size_t size)
{
	char name[SIG2STR_MAX + 4];
	switch (job_state(job)) {
	case JOB_RUNNING:
		snprintf(text, size, "Running");
		return;
	case JOB_STOPPED:
		signal_name(job->stop_signal, name);
		if (job->stop_signal == SIGTSTP)
			snprintf(text, size, "Stopped");
		else
			snprintf(text, size, "Stopped (%s)", name);
		return;
	case JOB_DONE:
		if (WIFSIGNALED(job->last_status)) {
			signal_name(WTERMSIG(job->last_status), name);
			snprintf(text, size, "Killed (%s)", name);
		} else if (WEXITSTATUS(job->last_status) != 0) {
			snprintf(text, size, "Exit %d", WEXITSTATUS(job->last_status));
		} else {
			snprintf(text, size, "Done");
		}
		return;
	}
}

/* '+' for the current job (the newest touched), '-' for the one before, else ' '. */
char job_mark(const struct job *job)
{
	int newer = 0;
	for (int i = 0; i < MAX_JOBS; i++)
		if (jobs[i].used && &jobs[i] != job && jobs[i].touched > job->touched)
			newer++;
	return newer == 0 ? '+' : newer == 1 ? '-' : ' ';
}

/* One line for `jobs` and the reports: "[1]+ Stopped  spin -s 0". */
void job_print(const struct job *job)
{
	char state[48];
	describe(job, state, sizeof state);
	printf("[%d]%c %s  %s\n", job->number, job_mark(job), state, job->text);
}

/* Free the job's slot (and its number): it ended and was reported, or never started.
 * Called here and by run.c. */
void job_forget(struct job *job)
{
	changed[job - jobs] = false;
	job->used = false;
}

/* Wait until the foreground job `job` has ended or stopped, then take the terminal
 * back. Ended: its status, reported as before job control ("[exit 3]", "[killed by
 * signal 2 (SIGINT)]"), and the job is forgotten. Stopped: "[1]+ Stopped  cmd", the
 * job stays, and the status is 128 + the stop signal. Sleeps in waitpid; called by
 * run.c and by `fg`. Other children that change meanwhile are recorded for the next
 * prompt's report. */
int job_wait_foreground(struct job *job)
{
	while (job_state(job) == JOB_RUNNING) {
		int wait_status;
		pid_t pid = waitpid(-1, &wait_status, WUNTRACED);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0) { /* ECHILD: nothing left to wait for (never expected) */
			fprintf(stderr, "sh: wait: %s\n", strerror(errno));
			for (int i = 0; i < job->count; i++)
				job->running[i] = false, job->ended[i] = true;
			break;
		}
		record(pid, wait_status);
	}
	terminal_give_to(shell_group);
	changed[job - jobs] = false;
	if (job_state(job) == JOB_STOPPED) {
		if (interactive) {
			putchar('\n'); /* after the "^Z" the terminal echoed */
			job_print(job);
		}
		int stopped = 0x7f | job->stop_signal << 8; /* a wait status, for status_of */
		return status_of(stopped);
	}
	int wait_status = job->last_status;
	job_forget(job);
	if (interactive && WIFSIGNALED(wait_status)) {
		int signal = WTERMSIG(wait_status);
		job_interrupted = signal == SIGINT;
		char name[SIG2STR_MAX + 4];
		signal_name(signal, name);
		if (signal == SIGINT || signal == SIGQUIT)
			putchar('\n'); /* after the "^C" the terminal echoed */
		printf("[killed by signal %d (%s)]\n", linux_signal_number(signal), name);
	} else if (interactive && WEXITSTATUS(wait_status) != 0) {
		printf("[exit %d]\n", WEXITSTATUS(wait_status));
	}
	return status_of(wait_status);
}

/* `fg` and `bg`: continue a stopped (or running background) job, in the foreground (the
 * terminal is its group's first) or in the background. Called by builtins.c. */
void job_continue(struct job *job, bool foreground)
{
	for (int i = 0; i < job->count; i++)
		job->running[i] = !job->ended[i];
	job->touched = ++job_clock;
	if (foreground)
		terminal_give_to(job->group);
	if (job->group > 0) {
		kill(-job->group, SIGCONT);
	} else {
		for (int i = 0; i < job->count; i++)
			if (!job->ended[i])
				kill(job->pids[i], SIGCONT);
	}
}

/* Before each prompt: collect what changed without waiting (WNOHANG), then report each
 * background job that ended, stopped or was continued by someone else, and forget the
 * ended ones. Called by main(). Never sleeps. */
void job_report_changes(void)
{
	int wait_status;
	pid_t pid;
	while ((pid = waitpid(-1, &wait_status, WNOHANG | WUNTRACED | WAIT_CONTINUED)) > 0)
		record(pid, wait_status);
	for (int i = 0; i < MAX_JOBS; i++) {
		if (!jobs[i].used || !changed[i])
			continue;
		changed[i] = false;
		if (interactive)
			job_print(&jobs[i]);
		if (job_state(&jobs[i]) == JOB_DONE)
			job_forget(&jobs[i]);
	}
	fflush(stdout);
}

/* The job a `fg`/`bg` argument names: none (the current job), %N or N, %+ or %%
 * (current), %- (previous). NULL if there is no such job. */
struct job *job_find(const char *spec)
{
	char wanted = '+';
	int number = 0;
	if (spec && spec[0] == '%')
		spec++;
	if (spec && (strcmp(spec, "%") == 0 || strcmp(spec, "+") == 0))
		spec = NULL;
	if (spec && strcmp(spec, "-") == 0) {
		wanted = '-';
		spec = NULL;
	}
	if (spec) {
		char *end;
		number = (int)strtol(spec, &end, 10);
		if (end == spec || *end != '\0' || number <= 0)
			return NULL;
	}
	for (int i = 0; i < MAX_JOBS; i++) {
		if (!jobs[i].used)
			continue;
		if (number ? jobs[i].number == number : job_mark(&jobs[i]) == wanted)
			return &jobs[i];
	}
	return NULL;
}

/* Slot `index` (0 .. job_slots() - 1) of the table if it holds a job, else NULL; for
 * the `jobs` builtin. */
struct job *job_at(int index)
{
	return jobs[index].used ? &jobs[index] : NULL;
}

/* How many slots job_at takes: MAX_JOBS. */
int job_slots(void)
{
	return MAX_JOBS;
}
