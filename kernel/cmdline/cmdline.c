/* Kernel command line parsing (see cmdline.h for the syntax).
 *
 * The joined text is kept verbatim in line->text for the boot log; tokens are copied,
 * quotes removed, into line->storage, and params/init_argv point there. Each stored
 * word takes at most the text it came from plus one NUL, and words are separated by at
 * least one space, so storage (as big as text) always has room.
 *
 * Pure code: no locks, no allocation, never sleeps. struct cmdline points into itself,
 * so it must not be copied after parsing. */
#include "kernel/cmdline/cmdline.h"
#include "kernel/lib/string.h"

/* Separators between words. Firmware-provided bootargs may contain newlines or tabs. */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Record a bad word. Called by cmdline_parse() and its helpers. */
static void add_problem(struct cmdline *line, const char *word, const char *reason)
{
	if (line->problem_count < CMDLINE_MAX_PROBLEMS)
		line->problems[line->problem_count] = (struct cmdline_problem){word, reason};
	line->problem_count++;
}

/* Where join_parts stopped: the part and the offset in it of the first dropped byte. */
struct dropped_tail {
	int part;
	size_t offset;
};

/* Join the non-empty parts into line->text with single spaces. A part that does not fit
 * is cut at the last word boundary that does (a word is never cut in two), and the
 * rest of the line is dropped. Returns false, with *tail set, if anything was dropped.
 * Called by cmdline_parse(). */
static bool join_parts(struct cmdline *line, const char *const *parts, int part_count,
                       struct dropped_tail *tail)
{
	size_t used = 0;

	line->text[0] = '\0';
	for (int i = 0; parts && i < part_count; i++) {
		if (!parts[i] || parts[i][0] == '\0')
			continue;
		size_t separator = used > 0 ? 1 : 0;
		size_t length = strnlen(parts[i], CMDLINE_MAX);
		bool fits = used + separator + length < CMDLINE_MAX;
		if (!fits) {
			/* Room for `length` bytes; back up to a space, or to nothing. */
			length =
			    used + separator < CMDLINE_MAX ? CMDLINE_MAX - 1 - used - separator : 0;
			if (parts[i][length] != '\0' && !is_space(parts[i][length]))
				while (length > 0 && !is_space(parts[i][length - 1]))
					length--;
		}
		if (separator && length > 0)
			line->text[used++] = ' ';
		memcpy(line->text + used, parts[i], length);
		used += length;
		line->text[used] = '\0';
		if (!fits) {
			*tail = (struct dropped_tail){i, length};
			return false;
		}
	}
	return true;
}

/* True if the dropped text from `tail` on has an init= word before any `--`.
 * Called by cmdline_parse(). */
static bool tail_names_init(const char *const *parts, int part_count, struct dropped_tail tail)
{
	for (int i = tail.part; i < part_count; i++) {
		const char *text = parts[i] ? parts[i] + (i == tail.part ? tail.offset : 0) : "";
		while (*text != '\0') {
			while (is_space(*text))
				text++;
			const char *word = text;
			while (*text != '\0' && !is_space(*text))
				text++;
			size_t length = (size_t)(text - word);
			if (length == 2 && word[0] == '-' && word[1] == '-')
				return false;
			if (length >= 5 && memcmp(word, "init=", 5) == 0)
				return true;
		}
	}
	return false;
}

/* Copy the word starting at *cursor into storage at *stored, dropping the double quotes
 * and keeping spaces inside them; advance both. Returns the stored word, or NULL if a
 * quote is never closed: the word is then taken, quotes and all, up to the next space,
 * stored for the boot log and recorded as a problem. Called by cmdline_parse(). */
static char *next_word(struct cmdline *line, const char **cursor, size_t *stored)
{
	const char *start = *cursor, *text = start;
	char *word = line->storage + *stored;
	size_t length = 0;
	bool quoted = false;

	for (; *text != '\0' && (quoted || !is_space(*text)); text++) {
		if (*text == '"')
			quoted = !quoted;
		else
			word[length++] = *text;
	}
	if (quoted) { /* the raw word is its own source text: it fits, as every word does */
		for (length = 0, text = start; *text != '\0' && !is_space(*text); text++)
			word[length++] = *text;
	}
	word[length] = '\0';
	*stored += length + 1;
	*cursor = text;
	if (quoted) {
		add_problem(line, word, "unterminated quote");
		return NULL;
	}
	return word;
}

/* Called once by the boot hart while starting up; never sleeps, needs no lock. */
int cmdline_parse(struct cmdline *line, const char *const *parts, int part_count)
{
	const char *cursor = line->text;
	size_t stored = 0;
	bool after_separator = false; /* seen `--`: the rest is for init */

	line->param_count = 0;
	line->init_argc = 0;
	line->init_argv[0] = NULL;
	line->problem_count = 0;
	line->init_lost = false;
	struct dropped_tail tail = {0, 0};
	bool whole = join_parts(line, parts, part_count, &tail);
	for (;;) {
		while (is_space(*cursor))
			cursor++;
		if (*cursor == '\0')
			break;
		char *word = next_word(line, &cursor, &stored);
		if (!word)
			continue;

		if (after_separator) {
			if (line->init_argc == CMDLINE_MAX_ARGS) {
				add_problem(line, word, "too many init arguments");
				continue;
			}
			line->init_argv[line->init_argc++] = word;
			line->init_argv[line->init_argc] = NULL;
			continue;
		}
		if (strcmp(word, "--") == 0) {
			after_separator = true;
			continue;
		}
		char *equals = strchr(word, '=');
		if (equals == word || word[0] == '\0')
			continue; /* no key ("=x" or ""): nothing anyone could look up */
		if (line->param_count == CMDLINE_MAX_PARAMS) {
			add_problem(line, word, "too many parameters");
			if (strncmp(word, "init=", 5) == 0)
				line->init_lost = true;
			continue;
		}
		struct cmdline_param *param = &line->params[line->param_count++];
		param->key = word;
		if (equals) {
			*equals = '\0'; /* word is our own copy in storage */
			param->value = equals + 1;
		} else {
			param->value = word + strlen(word); /* "" */
		}
	}
	if (!whole) {
		add_problem(line, "", "command line too long: the rest was dropped");
		if (!after_separator && tail_names_init(parts, part_count, tail))
			line->init_lost = true;
	}
	return line->problem_count;
}

/* Any caller after cmdline_parse(); never sleeps. Searching backwards makes the last
 * occurrence win. */
const char *cmdline_get(const struct cmdline *line, const char *key)
{
	for (int i = line->param_count - 1; i >= 0; i--)
		if (strcmp(line->params[i].key, key) == 0)
			return line->params[i].value;
	return NULL;
}

/* Any caller after cmdline_parse(); never sleeps. */
bool cmdline_has(const struct cmdline *line, const char *key)
{
	return cmdline_get(line, key) != NULL;
}

/* Value of one digit in `base` (10 or 16), or -1. Called by cmdline_get_u64(). */
static int digit_value(char c, unsigned base)
{
	int value;

	if (c >= '0' && c <= '9')
		value = c - '0';
	else if (c >= 'a' && c <= 'f')
		value = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		value = c - 'A' + 10;
	else
		return -1;
	return (unsigned)value < base ? value : -1;
}

/* Any caller after cmdline_parse(); never sleeps. When the value is malformed or
 * overflows, *value is set to `fallback` as well, so a caller that only warns still
 * gets something sane. */
bool cmdline_get_u64(const struct cmdline *line, const char *key, uint64_t fallback,
                     uint64_t *value)
{
	const char *text = cmdline_get(line, key);
	unsigned base = 10;
	uint64_t number = 0;
	int digit, shift = 0;
	size_t digits = 0;

	*value = fallback;
	if (!text)
		return true;
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		base = 16;
		text += 2;
	}
	for (; (digit = digit_value(*text, base)) >= 0; text++, digits++) {
		if (number > (UINT64_MAX - (uint64_t)digit) / base)
			return false;
		number = number * base + (uint64_t)digit;
	}
	if (digits == 0)
		return false;
	switch (*text) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	}
	if (shift != 0)
		text++;
	if (*text != '\0' || number > (UINT64_MAX >> shift))
		return false;
	*value = number << shift;
	return true;
}
