/* The pieces of Duplex's sh (user/sh/), each in its own file:
 *
 *   main.c         the interactive loop, the terminal's raw mode at the prompt, and the
 *                  start of job control
 *   line_editor.c  reading a command line key by key (read_line)
 *   lex.c          a line into words and operators, and its lists of pipelines (lex_line)
 *   expand.c       a word's quotes, $VAR, $? and ~ into fields (expand_word)
 *   parse.c        one pipeline's expanded words into commands and redirections
 *                  (parse_pipeline)
 *   run.c          running a line: its pipelines in order (;, &&, ||, &), builtins in
 *                  the shell, programs with fork, setpgid and execve (run_line)
 *   variables.c    shell and environment variables (var_get, var_set, var_export)
 *   jobs.c         the job table: waiting for jobs, their states, the reports
 *   builtins.c     exit, help, jobs, fg, bg, cd, export, unset
 *
 * The shell is one thread; none of these functions takes a lock, and those that wait
 * (for input, for a job) say so. */
#ifndef DUPLEX_SH_H
#define DUPLEX_SH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define LINE_SIZE        256
#define MAX_WORDS        32
#define MAX_COMMANDS     8
#define MAX_REDIRECTIONS 8
#define MAX_TOKENS       64
#define MAX_ASSIGNMENTS  8

/* ---------------------------------------------------------------- shell state (main.c) */

/* Interactive: report "[exit N]", kills and job changes after each program. */
extern bool interactive;
/* Job control is on: each job runs in a process group of its own, and the terminal
 * (terminal_fd) is handed to the foreground job's group. Only an interactive shell with
 * the console as its controlling terminal has it (POSIX set -m). */
extern bool job_control;
/* The terminal, kept on a close-on-exec descriptor of its own: a job's fd 0 may be a
 * pipe or a file, the group still has to be given the terminal. -1 without job control. */
extern int terminal_fd;
/* The shell's own process group, which takes the terminal back after each job. */
extern pid_t shell_group;
/* The status of the last pipeline run, for `exit` without an argument, $?, && and ||. */
extern int last_status;
/* The foreground job just waited for was killed by ^C (SIGINT): the rest of the line is
 * not run. Set by jobs.c, cleared by run.c. */
extern bool job_interrupted;

/* ---------------------------------------------------------------- line_editor.c */

enum line_result { LINE_READY, LINE_ABANDONED, LINE_END, LINE_NO_INPUT };
enum line_result read_line(char *line, size_t size);
void echo(const char *text);

/* ---------------------------------------------------------------- lex.c */

/* What a token of a line is. A redirection token holds its descriptor and kind; the word
 * after it is its target. */
enum token_kind {
	TOKEN_WORD,
	TOKEN_PIPE,       /* | */
	TOKEN_AND,        /* && */
	TOKEN_OR,         /* || */
	TOKEN_SEQUENCE,   /* ; */
	TOKEN_BACKGROUND, /* & */
	TOKEN_REDIRECT,   /* [N]< [N]> [N]>> [N]>& [N]<& */
};

enum redirect_kind { REDIRECT_READ, REDIRECT_WRITE, REDIRECT_APPEND, REDIRECT_DUP };

struct token {
	enum token_kind kind;
	char *text; /* TOKEN_WORD: the word as typed, quotes and $ included */
	int fd;     /* TOKEN_REDIRECT: the descriptor it sets */
	enum redirect_kind redirect;
	int start, end; /* its place in the line: line[start..end) */
};

/* A line's tokens, in order. Its pipelines are the runs of tokens between ;, &&, || and
 * & (run.c's next_pipeline finds them). */
struct token_list {
	struct token tokens[MAX_TOKENS];
	int count;
};

int lex_line(const char *line, struct token_list *list);

/* ---------------------------------------------------------------- expand.c */

/* Where expand_word puts its fields: `count` NUL-terminated strings in `fields`, their
 * bytes in `pool`. */
struct fields {
	char *fields[MAX_WORDS];
	int count;
	char pool[4 * LINE_SIZE];
	size_t used;
};

int expand_word(const char *word, struct fields *out, bool split, bool check_only);
bool is_assignment(const char *word);
bool is_name(const char *text, size_t length);

/* ---------------------------------------------------------------- parse.c */

/* One redirection of a command: set `fd` to a file opened with `flags`, or (path NULL)
 * to a copy of `from`. */
struct redirection {
	int fd;
	const char *path;
	int flags;
	int from;
};

/* One command of a pipeline: its NAME=VALUE assignments, its words (NULL-terminated)
 * and its redirections in the order given. */
struct command {
	char *assignments[MAX_ASSIGNMENTS];
	int assignment_count;
	char *words[MAX_WORDS + 1];
	int count;
	struct redirection redirections[MAX_REDIRECTIONS];
	int redirection_count;
};

/* One pipeline, expanded: its commands, and whether it ended in & (run in the
 * background). */
struct parsed_line {
	struct command commands[MAX_COMMANDS];
	int count;
	bool background;
};

int check_pipeline(const struct token *tokens, int count);
int parse_pipeline(const struct token *tokens, int count, struct parsed_line *parsed,
                   struct fields *store);

/* ---------------------------------------------------------------- run.c */

int run_line(const char *line);
int status_of(int wait_status);

/* ---------------------------------------------------------------- variables.c */

const char *var_get(const char *name);
int var_set(const char *name, const char *value);
int var_assign(const char *assignment);
int var_export(const char *name, const char *value);
int var_unset(const char *name);
void var_print_exported(void);

/* ---------------------------------------------------------------- jobs.c */

struct job {
	bool used;
	int number;  /* [1], [2], ...: the smallest free one when the job starts */
	pid_t group; /* the pid of its first process (job control), or 0 */
	int count;   /* processes in the pipeline */
	pid_t pids[MAX_COMMANDS];
	bool running[MAX_COMMANDS]; /* not yet stopped or ended */
	bool ended[MAX_COMMANDS];
	int last_status; /* wait status of the pipeline's last process, once it ended */
	int stop_signal; /* why it stopped */
	unsigned long
	    touched;          /* when it was last started, stopped or continued: %+ is the newest */
	char text[LINE_SIZE]; /* the command line, for reports */
};

struct job *job_create(const char *text);
void job_add_process(struct job *job, pid_t pid);
int job_wait_foreground(struct job *job);
void job_continue(struct job *job, bool foreground);
void job_report_changes(void);
void job_print(const struct job *job);
void job_forget(struct job *job);
struct job *job_find(const char *spec);
struct job *job_at(int index);
int job_slots(void);
char job_mark(const struct job *job);
void terminal_give_to(pid_t group);

/* ---------------------------------------------------------------- builtins.c */

/* The builtin named `name`, or NULL. */
typedef int builtin_function(int count, char **words);
builtin_function *builtin_find(const char *name);

#endif
