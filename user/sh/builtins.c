/* The shell's builtins: exit [N], help, jobs, fg [%N], bg [%N], cd [DIR], export
 * [NAME[=VALUE]...], unset NAME... Each takes the command's words (words[0] is its name)
 * and returns the line's status; each runs in the shell itself (run.c's run_builtin),
 * so `fg`, `cd`, `export` and `exit` act on the shell. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <duplex.h>

#include "sh.h"

#define MAX_PROGRAMS   64
#define NAME_POOL_SIZE 2048

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
static int builtin_help(int count, char **words)
{
	(void)count, (void)words;
	puts("builtins: exit [N], help, jobs, fg [%N], bg [%N], cd [DIR],");
	puts("          export [NAME[=VALUE]...], unset NAME..., NAME=VALUE");
	list_programs();
	puts("keys: Backspace erases, ^C abandons the line, ^D on an empty line exits;");
	puts("      while a program runs ^C ends it, ^Z stops it (fg or bg continue it)");
	puts("lines: a | b, a; b, a && b, a || b, a & (background), < > >> 2> 2>&1,");
	puts("       $NAME ${NAME} $? $$ ~, 'literal', \"with $NAME\", # comment");
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

/* jobs: every job, by number: "[1]+ Stopped  spin -s 0". Ended jobs are listed once
 * and forgotten. */
static int builtin_jobs(int count, char **words)
{
	(void)count, (void)words;
	job_report_changes(); /* collect, report and forget what ended meanwhile */
	for (int number = 1; number <= job_slots(); number++) {
		for (int i = 0; i < job_slots(); i++) {
			struct job *job = job_at(i);
			if (job && job->number == number)
				job_print(job);
		}
	}
	return 0;
}

/* The job `fg` or `bg` acts on: words[1] if given, else the current one. */
static struct job *job_argument(int count, char **words)
{
	if (count > 2) {
		fprintf(stderr, "sh: %s: too many arguments\n", words[0]);
		return NULL;
	}
	struct job *job = job_find(count == 2 ? words[1] : NULL);
	if (!job)
		fprintf(stderr, "sh: %s: %s: no such job\n", words[0],
		        count == 2 ? words[1] : "current");
	return job;
}

/* fg [%N]: continue the job in the foreground (it gets the terminal) and wait for it
 * to end or stop again. Sleeps. */
static int builtin_fg(int count, char **words)
{
	if (!job_control) {
		fprintf(stderr, "sh: fg: no job control\n");
		return 1;
	}
	struct job *job = job_argument(count, words);
	if (!job)
		return 1;
	printf("%s\n", job->text);
	fflush(stdout);
	job_continue(job, true);
	return job_wait_foreground(job);
}

/* bg [%N]: continue a stopped job in the background: "[1]+ spin -s 0 &". */
static int builtin_bg(int count, char **words)
{
	if (!job_control) {
		fprintf(stderr, "sh: bg: no job control\n");
		return 1;
	}
	struct job *job = job_argument(count, words);
	if (!job)
		return 1;
	job_continue(job, false);
	printf("[%d]%c %s &\n", job->number, job_mark(job), job->text);
	return 0;
}

/* cd [DIR]: change the working directory (to $HOME without DIR) and set PWD. */
static int builtin_cd(int count, char **words)
{
	if (count > 2) {
		fprintf(stderr, "sh: cd: too many arguments\n");
		return 1;
	}
	const char *directory = count == 2 ? words[1] : var_get("HOME");
	if (!directory) {
		fprintf(stderr, "sh: cd: HOME not set\n");
		return 1;
	}
	if (chdir(directory) != 0) {
		fprintf(stderr, "sh: cd: %s: %s\n", directory, strerror(errno));
		return 1;
	}
	char path[LINE_SIZE];
	if (getcwd(path, sizeof path) && var_set("PWD", path) < 0)
		return 1;
	return 0;
}

/* export [NAME[=VALUE]...]: put the variables in the environment of the programs the
 * shell starts; alone, list the exported ones. */
static int builtin_export(int count, char **words)
{
	int status = 0;
	if (count == 1)
		var_print_exported();
	for (int i = 1; i < count; i++) {
		const char *equals = strchr(words[i], '=');
		size_t length = equals ? (size_t)(equals - words[i]) : strlen(words[i]);
		if (!is_name(words[i], length)) {
			fprintf(stderr, "sh: export: %s: not a valid name\n", words[i]);
			status = 1;
			continue;
		}
		char name[LINE_SIZE];
		snprintf(name, sizeof name, "%.*s", (int)length, words[i]);
		if (var_export(name, equals ? equals + 1 : NULL) < 0)
			status = 1;
	}
	return status;
}

/* unset NAME...: forget the variables. */
static int builtin_unset(int count, char **words)
{
	int status = 0;
	for (int i = 1; i < count; i++) {
		if (!is_name(words[i], strlen(words[i]))) {
			fprintf(stderr, "sh: unset: %s: not a valid name\n", words[i]);
			status = 1;
			continue;
		}
		var_unset(words[i]);
	}
	return status;
}

/* The builtin called `name`, or NULL for a program. Called by run_line. */
builtin_function *builtin_find(const char *name)
{
	static const struct {
		const char *name;
		builtin_function *function;
	} builtins[] = {{"exit", builtin_exit},     {"help", builtin_help},  {"jobs", builtin_jobs},
	                {"fg", builtin_fg},         {"bg", builtin_bg},      {"cd", builtin_cd},
	                {"export", builtin_export}, {"unset", builtin_unset}};
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (strcmp(name, builtins[i].name) == 0)
			return builtins[i].function;
	return NULL;
}
