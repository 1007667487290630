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

#define CMDLINE_MAX        1024 /* bytes of joined text, including the NUL */
#define CMDLINE_MAX_PARAMS 64
#define CMDLINE_MAX_ARGS   32

struct cmdline_param {
	const char *key;
	const char *value; /* "" for a bare flag */
};

struct cmdline {
	char text[CMDLINE_MAX];    /* the joined line, as logged */
	char storage[CMDLINE_MAX]; /* tokens, NUL-separated, quotes removed */
	int param_count;
	struct cmdline_param params[CMDLINE_MAX_PARAMS];
	int init_argc;                               /* words after `--` */
	const char *init_argv[CMDLINE_MAX_ARGS + 1]; /* NULL-terminated */
};

/* Join the non-NULL, non-empty parts with single spaces and parse them.
 * Returns 0, or -1 with *error set when the text is too long, a quote is unterminated,
 * or there are too many parameters or arguments; on error *line holds no parameters. */
int cmdline_parse(struct cmdline *line, const char *const *parts, int part_count,
                  const char **error);

/* Value of the last occurrence of `key`, "" for a bare flag, NULL if absent. */
const char *cmdline_get(const struct cmdline *line, const char *key);
/* True if `key` is present (as flag or with any value). */
bool cmdline_has(const struct cmdline *line, const char *key);
/* `key` parsed as an unsigned decimal or 0x-hex number with an optional k/K, m/M, g/G
 * suffix (x1024); `fallback` if absent. Returns false if present but malformed. */
bool cmdline_get_u64(const struct cmdline *line, const char *key, uint64_t fallback,
                     uint64_t *value);

#endif
