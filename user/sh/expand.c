/* Expanding a word as POSIX does (XCU 2.6) for the forms Duplex's sh knows: a ~ that
 * starts the word ($HOME), $NAME and ${NAME} (empty when unset), $? (the last status)
 * and $$ (the shell's pid); then field splitting of what an unquoted $ gave, at blanks
 * and newlines (IFS's default), and quote removal. '...' is literal; in "..." only $
 * expands and \ quotes $ ` " \ alone; outside quotes \ quotes any character. A word of
 * quotes alone ("") is one empty field; an unquoted expansion that gives nothing gives
 * no field.
 *
 * Refused, with a message: the other special parameters ($1, $#, $@, $*, $!, $-),
 * ${NAME...} forms other than ${NAME}, ~user, and an unquoted * ? [ (pattern matching
 * is not done, so the word would be passed on unexpanded). Never sleeps. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

/* The field being built and where it goes. */
struct builder {
	struct fields *out;
	bool split;   /* field splitting applies (not for assignments and redirections) */
	bool started; /* the current field exists, even if empty (a quote began it) */
	size_t field_start;
};

static bool is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

/* Whether text[0..length) is a variable name: a letter or _, then letters, digits, _.
 * Called by builtins.c and here. */
bool is_name(const char *text, size_t length)
{
	if (length == 0 || !is_name_start(text[0]))
		return false;
	for (size_t i = 1; i < length; i++)
		if (!is_name_char(text[i]))
			return false;
	return true;
}

/* Whether `word` (as typed) is an assignment NAME=VALUE. Called by parse.c. */
bool is_assignment(const char *word)
{
	const char *equals = strchr(word, '=');
	return equals && is_name(word, (size_t)(equals - word));
}

static int too_long(void)
{
	fprintf(stderr, "sh: the words expand to too much\n");
	return -1;
}

static int put_char(struct builder *builder, char c)
{
	struct fields *out = builder->out;
	if (out->used + 2 > sizeof out->pool)
		return too_long();
	out->pool[out->used++] = c;
	builder->started = true;
	return 0;
}

static int end_field(struct builder *builder)
{
	struct fields *out = builder->out;
	if (out->count == MAX_WORDS) {
		fprintf(stderr, "sh: more than %d words\n", MAX_WORDS);
		return -1;
	}
	out->pool[out->used++] = '\0';
	out->fields[out->count++] = out->pool + builder->field_start;
	builder->field_start = out->used;
	builder->started = false;
	return 0;
}

/* Append `text`; where `splittable` (an unquoted expansion) blanks end the field. */
static int put_text(struct builder *builder, const char *text, bool splittable)
{
	for (; *text; text++) {
		if (splittable && builder->split && strchr(" \t\n", *text)) {
			if (builder->started && end_field(builder) < 0)
				return -1;
			continue;
		}
		if (put_char(builder, *text) < 0)
			return -1;
	}
	return 0;
}

/* The parameter after a '$' at `in`: append its value (unless check_only) and return
 * how many characters after the '$' it took; 0 for a '$' that stays literal (nothing
 * that could be a parameter follows), -1 after saying why it is refused. */
static int parameter(const char *in, struct builder *builder, bool quoted, bool check_only)
{
	char number[16];
	const char *value = NULL;
	int taken;
	char name[LINE_SIZE];

	if (*in == '?' || *in == '$') {
		snprintf(number, sizeof number, "%d", *in == '?' ? last_status : (int)getpid());
		value = number;
		taken = 1;
	} else if (*in == '{') {
		const char *close = strchr(in, '}');
		size_t length = close ? (size_t)(close - in - 1) : 0;
		if (!close || !is_name(in + 1, length)) {
			fprintf(stderr, "sh: ${%.*s: only ${NAME} is supported\n",
			        close ? (int)(close - in) : (int)strlen(in + 1), in + 1);
			return -1;
		}
		snprintf(name, sizeof name, "%.*s", (int)length, in + 1);
		taken = (int)length + 2;
	} else if (is_name_start(*in)) {
		size_t length = 1;
		while (is_name_char(in[length]))
			length++;
		snprintf(name, sizeof name, "%.*s", (int)length, in);
		taken = (int)length;
	} else if ((*in >= '0' && *in <= '9') || (*in != '\0' && strchr("#@*!-", *in))) {
		fprintf(stderr,
		        "sh: $%c: not supported (of the special parameters only $? and $$)\n", *in);
		return -1;
	} else if (*in == '(') {
		fprintf(stderr, "sh: $(...): command substitution is not supported\n");
		return -1;
	} else {
		return 0;
	}
	if (check_only)
		return taken;
	if (!value)
		value = var_get(name);
	if (value && put_text(builder, value, !quoted) < 0)
		return -1;
	return taken;
}

/* Expand `word` (as typed, quotes included) into fields appended to *out: split at
 * blanks from unquoted expansions if `split`, else exactly one field. Returns the
 * number of fields appended, or -1 after saying why the word is refused. With
 * `check_only` nothing is looked up (lex.c checks each word so). Called by lex.c and
 * parse.c. */
int expand_word(const char *word, struct fields *out, bool split, bool check_only)
{
	struct builder builder = {out, split, false, out->used};
	int before = out->count;
	const char *in = word;

	if (*in == '~') {
		size_t length = strcspn(in, "/");
		if (length > 1) {
			fprintf(stderr, "sh: %.*s: ~user is not supported\n", (int)length, in);
			return -1;
		}
		const char *home = check_only ? NULL : var_get("HOME");
		if (home || check_only) {
			if (home && put_text(&builder, home, false) < 0)
				return -1;
			builder.started = true;
			in++;
		}
	}
	while (*in) {
		if (*in == '\'') {
			const char *close = strchr(in + 1, '\'');
			builder.started = true;
			for (in++; in < close; in++)
				if (put_char(&builder, *in) < 0)
					return -1;
			in++;
		} else if (*in == '"') {
			builder.started = true;
			for (in++; *in != '"'; in++) {
				if (*in == '\\' && strchr("$`\"\\", in[1]))
					in++;
				else if (*in == '`') {
					fprintf(
					    stderr,
					    "sh: `...`: command substitution is not supported\n");
					return -1;
				} else if (*in == '$') {
					int taken = parameter(in + 1, &builder, true, check_only);
					if (taken < 0)
						return -1;
					if (taken > 0) {
						in += taken;
						continue;
					}
				}
				if (put_char(&builder, *in) < 0)
					return -1;
			}
			in++;
		} else if (*in == '\\') {
			if (put_char(&builder, in[1]) < 0)
				return -1;
			in += 2;
		} else if (*in == '$') {
			int taken = parameter(in + 1, &builder, false, check_only);
			if (taken < 0)
				return -1;
			if (taken == 0 && put_char(&builder, '$') < 0)
				return -1;
			in += 1 + taken;
		} else if (strchr("*?[", *in)) {
			fprintf(stderr,
			        "sh: %s: pattern matching (* ? [) is not supported; quote it\n",
			        word);
			return -1;
		} else {
			if (put_char(&builder, *in) < 0)
				return -1;
			in++;
		}
	}
	if ((builder.started || !split) && end_field(&builder) < 0)
		return -1;
	return out->count - before;
}
