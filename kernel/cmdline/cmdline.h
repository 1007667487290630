/* The kernel command line, Linux style: space-separated `key=value` or bare `flag`
 * parameters, double quotes to keep spaces inside a value, and `--` after which every
 * word is an argument for the first user program (Documentation/admin-guide/
 * kernel-parameters.rst). Later occurrences of a key win, so the build-time default
 * comes first, then /chosen/bootargs, then what the user typed.
 *
 * Pure code: no locks, no allocation; parsed once on the boot hart, read-only after. */
#ifndef DUPLEX_CMDLINE_H
#define DUPLEX_CMDLINE_H

#include <stdbool.h>
#include <stdint.h>

#define CMDLINE_MAX          1024 /* bytes of joined text, including the NUL */
#define CMDLINE_MAX_PARAMS   64
#define CMDLINE_MAX_ARGS     32
#define CMDLINE_MAX_PROBLEMS 8 /* bad words kept for the boot log; more are only counted */

struct cmdline_param {
	const char *key;
	const char *value; /* "" for a bare flag */
};

/* A word the parser could not keep, and why. */
struct cmdline_problem {
	const char *word; /* as written (in storage), or "" when the text itself is cut */
	const char *reason;
};

struct cmdline {
	char text[CMDLINE_MAX];    /* the joined line, as logged */
	char storage[CMDLINE_MAX]; /* tokens, NUL-separated, quotes removed */
	int param_count;
	struct cmdline_param params[CMDLINE_MAX_PARAMS];
	int init_argc;                               /* words after `--` */
	const char *init_argv[CMDLINE_MAX_ARGS + 1]; /* NULL-terminated */
	int problem_count; /* every bad word, even those past CMDLINE_MAX_PROBLEMS */
	struct cmdline_problem problems[CMDLINE_MAX_PROBLEMS];
	/* An init= word was among the dropped ones (too many parameters, or in the text
	 * beyond the limit): the first program the line asked for is unknown. */
	bool init_lost;
};

/* Join the non-NULL, non-empty parts with single spaces and parse them. A bad word
 * costs only itself: every other word is kept (as Linux's parse_args goes on past an
 * error). Bad words are a word with an unterminated quote (up to the next space; the
 * words after it are parsed normally), a parameter or init argument beyond the limits,
 * and the text beyond CMDLINE_MAX - 1 bytes (cut at a word boundary). Returns how many
 * problems there were (0: a clean line); line->problems says which. */
int cmdline_parse(struct cmdline *line, const char *const *parts, int part_count);

/* Value of the last occurrence of `key`, "" for a bare flag, NULL if absent. */
const char *cmdline_get(const struct cmdline *line, const char *key);
/* True if `key` is present (as flag or with any value). */
bool cmdline_has(const struct cmdline *line, const char *key);
/* `key` parsed as an unsigned decimal or 0x-hex number with an optional k/K, m/M, g/G
 * suffix (x1024); `fallback` if absent. Returns false if present but malformed. */
bool cmdline_get_u64(const struct cmdline *line, const char *key, uint64_t fallback,
                     uint64_t *value);

#endif
