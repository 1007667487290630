/* Host tests for the kernel command line parser (kernel/cmdline/cmdline.c). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel/cmdline/cmdline.h"

/* struct cmdline is a few KiB and points into itself: tests share one static copy. */
static struct cmdline line;

/* Parse a single string; returns cmdline_parse()'s result. */
static int parse_one(const char *text, const char **error)
{
	const char *parts[] = {text};
	return cmdline_parse(&line, parts, 1, error);
}

static void test_join_parts(void)
{
	const char *parts[] = {"console=ttyS0", NULL, "", "loglevel=7", "quiet"};
	const char *error = NULL;

	CHECK(cmdline_parse(&line, parts, 5, &error) == 0);
	CHECK(error == NULL);
	CHECK_STR(line.text, "console=ttyS0 loglevel=7 quiet");
	CHECK(line.param_count == 3);
	CHECK_STR(cmdline_get(&line, "console"), "ttyS0");
	CHECK_STR(cmdline_get(&line, "loglevel"), "7");
	CHECK(line.init_argc == 0);
	CHECK(line.init_argv[0] == NULL);

	/* Only the first part_count parts count. */
	CHECK(cmdline_parse(&line, parts, 1, &error) == 0);
	CHECK_STR(line.text, "console=ttyS0");

	/* Nothing at all. */
	CHECK(cmdline_parse(&line, NULL, 3, &error) == 0);
	CHECK_STR(line.text, "");
	CHECK(line.param_count == 0);
	CHECK(cmdline_parse(&line, parts, 0, NULL) == 0);
	CHECK(cmdline_get(&line, "console") == NULL);
	const char *empty[] = {NULL, "", "   "};
	CHECK(cmdline_parse(&line, empty, 3, NULL) == 0);
	CHECK_STR(line.text, "   ");
	CHECK(line.param_count == 0);
}

static void test_later_occurrence_wins(void)
{
	const char *parts[] = {"loglevel=3 smp=4", "loglevel=7", "smp"};

	CHECK(cmdline_parse(&line, parts, 3, NULL) == 0);
	CHECK(line.param_count == 4);
	CHECK_STR(cmdline_get(&line, "loglevel"), "7");
	CHECK_STR(cmdline_get(&line, "smp"), ""); /* the bare flag came last */
	CHECK(cmdline_has(&line, "smp"));
}

static void test_flags_and_values(void)
{
	CHECK(parse_one("  quiet\tdebug=\n a=b=c  =orphan x=\"\" ", NULL) == 0);
	CHECK(cmdline_has(&line, "quiet"));
	CHECK_STR(cmdline_get(&line, "quiet"), "");
	CHECK(cmdline_has(&line, "debug")); /* `key=` is present with an empty value */
	CHECK_STR(cmdline_get(&line, "debug"), "");
	CHECK_STR(cmdline_get(&line, "a"), "b=c"); /* split at the first '=' */
	CHECK_STR(cmdline_get(&line, "x"), "");
	CHECK(!cmdline_has(&line, "")); /* "=orphan" has no key and is dropped */
	CHECK(!cmdline_has(&line, "quie"));
	CHECK(!cmdline_has(&line, "quiets"));
	CHECK(cmdline_get(&line, "missing") == NULL);
	CHECK(line.param_count == 4);
	/* The text is logged as given. */
	CHECK_STR(line.text, "  quiet\tdebug=\n a=b=c  =orphan x=\"\" ");
}

static void test_quotes(void)
{
	CHECK(parse_one("msg=\"hello  world\" \"quoted=flag value\" path=a\"b c\"d", NULL) == 0);
	CHECK_STR(cmdline_get(&line, "msg"), "hello  world");
	CHECK_STR(cmdline_get(&line, "quoted"), "flag value");
	CHECK_STR(cmdline_get(&line, "path"), "ab cd");
	CHECK(line.param_count == 3);
}

static void test_init_arguments(void)
{
	const char *error = NULL;

	CHECK(parse_one("init=/bin/sh -- -c \"exit 3\"", &error) == 0);
	CHECK_STR(cmdline_get(&line, "init"), "/bin/sh");
	CHECK(line.param_count == 1);
	CHECK(line.init_argc == 2);
	CHECK_STR(line.init_argv[0], "-c");
	CHECK_STR(line.init_argv[1], "exit 3");
	CHECK(line.init_argv[2] == NULL);

	/* After the first `--` everything is an argument, even `--` and key=value. */
	CHECK(parse_one("a=1 -- b=2 -- \"\" quiet", NULL) == 0);
	CHECK(line.param_count == 1);
	CHECK(!cmdline_has(&line, "b"));
	CHECK(line.init_argc == 4);
	CHECK_STR(line.init_argv[0], "b=2");
	CHECK_STR(line.init_argv[1], "--");
	CHECK_STR(line.init_argv[2], ""); /* an explicitly empty argument survives */
	CHECK_STR(line.init_argv[3], "quiet");
	CHECK(line.init_argv[4] == NULL);

	/* `--` at the end: no arguments. Parts join before splitting. */
	const char *parts[] = {"quiet --", "-x"};
	CHECK(cmdline_parse(&line, parts, 1, NULL) == 0);
	CHECK(line.init_argc == 0);
	CHECK(line.init_argv[0] == NULL);
	CHECK(cmdline_parse(&line, parts, 2, NULL) == 0);
	CHECK(line.init_argc == 1);
	CHECK_STR(line.init_argv[0], "-x");
}

/* Fill `buffer` with `count` copies of `word`, space separated. */
static void repeat_words(char *buffer, const char *word, int count)
{
	buffer[0] = '\0';
	for (int i = 0; i < count; i++) {
		if (i > 0)
			strcat(buffer, " ");
		strcat(buffer, word);
	}
}

static void test_limits(void)
{
	static char text[2 * CMDLINE_MAX];
	const char *error;

	/* CMDLINE_MAX - 1 characters fit; one more does not. */
	memset(text, 'a', CMDLINE_MAX - 1);
	text[CMDLINE_MAX - 1] = '\0';
	CHECK(parse_one(text, NULL) == 0);
	CHECK(strlen(line.text) == CMDLINE_MAX - 1);
	CHECK(cmdline_has(&line, text));
	memset(text, 'a', CMDLINE_MAX);
	text[CMDLINE_MAX] = '\0';
	error = NULL;
	CHECK(parse_one(text, &error) == -1);
	CHECK_STR(error, "command line too long");
	CHECK(line.param_count == 0);

	/* The joining space counts too: 511 + 1 + 511 characters fit, 511 + 1 + 512 do not. */
	static char left[512], right[513];
	memset(left, 'b', sizeof(left) - 1);
	memset(right, 'c', sizeof(right) - 1);
	const char *fits[] = {left, right + 1};
	CHECK(cmdline_parse(&line, fits, 2, NULL) == 0);
	CHECK(strlen(line.text) == CMDLINE_MAX - 1);
	const char *too_long[] = {left, right};
	error = NULL;
	CHECK(cmdline_parse(&line, too_long, 2, &error) == -1);
	CHECK_STR(error, "command line too long");

	/* Parameters: the maximum, then one too many (which wipes the others). */
	repeat_words(text, "f", CMDLINE_MAX_PARAMS);
	CHECK(parse_one(text, NULL) == 0);
	CHECK(line.param_count == CMDLINE_MAX_PARAMS);
	repeat_words(text, "f", CMDLINE_MAX_PARAMS + 1);
	error = NULL;
	CHECK(parse_one(text, &error) == -1);
	CHECK_STR(error, "too many command line parameters");
	CHECK(line.param_count == 0);
	CHECK(!cmdline_has(&line, "f"));

	/* Init arguments likewise. */
	strcpy(text, "root=x -- ");
	repeat_words(text + strlen(text), "arg", CMDLINE_MAX_ARGS);
	CHECK(parse_one(text, NULL) == 0);
	CHECK(line.init_argc == CMDLINE_MAX_ARGS);
	CHECK(line.init_argv[CMDLINE_MAX_ARGS] == NULL);
	strcat(text, " one-more");
	error = NULL;
	CHECK(parse_one(text, &error) == -1);
	CHECK_STR(error, "too many init arguments on command line");
	CHECK(line.param_count == 0);
	CHECK(line.init_argc == 0);
	CHECK(line.init_argv[0] == NULL);
}

static void test_unterminated_quote(void)
{
	const char *error = NULL;

	CHECK(parse_one("a=1 msg=\"never closed", &error) == -1);
	CHECK_STR(error, "unterminated quote in command line");
	CHECK(line.param_count == 0);
	CHECK(!cmdline_has(&line, "a"));
	CHECK_STR(line.text, "a=1 msg=\"never closed"); /* still there to be logged */
	error = NULL;
	CHECK(parse_one("a=1 -- \"x", &error) == -1);
	CHECK(error != NULL);
	CHECK(line.init_argc == 0);
}

static void test_get_u64(void)
{
	uint64_t value = 0;

	CHECK(parse_one("mem=64M a=12 b=0x1000 c=0X10k d=3g e=7K f=0xffffffffffffffff "
	                "big=18446744073709551615 over=18446744073709551616 "
	                "overk=0x40000000000000k maxk=0x3fffffffffffffk "
	                "h=0xAbC word=abc kb=12kb hex=0x sfx=k neg=-1 sp=\" 1\" flag t=16T",
	                NULL) == 0);
	CHECK(cmdline_get_u64(&line, "mem", 0, &value));
	CHECK_EQ_U64(value, 64ull << 20);
	CHECK(cmdline_get_u64(&line, "a", 0, &value));
	CHECK_EQ_U64(value, 12);
	CHECK(cmdline_get_u64(&line, "b", 0, &value));
	CHECK_EQ_U64(value, 0x1000);
	CHECK(cmdline_get_u64(&line, "c", 0, &value));
	CHECK_EQ_U64(value, 16 << 10);
	CHECK(cmdline_get_u64(&line, "d", 0, &value));
	CHECK_EQ_U64(value, 3ull << 30);
	CHECK(cmdline_get_u64(&line, "e", 0, &value));
	CHECK_EQ_U64(value, 7 << 10);
	CHECK(cmdline_get_u64(&line, "f", 0, &value));
	CHECK_EQ_U64(value, UINT64_MAX);
	CHECK(cmdline_get_u64(&line, "big", 0, &value));
	CHECK_EQ_U64(value, UINT64_MAX);
	CHECK(cmdline_get_u64(&line, "h", 0, &value));
	CHECK_EQ_U64(value, 0xabc);
	CHECK(cmdline_get_u64(&line, "maxk", 0, &value));
	CHECK_EQ_U64(value, 0x3fffffffffffffull << 10);

	/* Absent: the fallback, and success. */
	CHECK(cmdline_get_u64(&line, "absent", 42, &value));
	CHECK_EQ_U64(value, 42);

	/* Present but malformed or overflowing: false, and the fallback. */
	const char *bad[] = {"over", "overk", "word", "kb", "hex", "sfx", "neg", "sp", "flag", "t"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		value = 0;
		CHECK(!cmdline_get_u64(&line, bad[i], 99, &value));
		CHECK_EQ_U64(value, 99);
	}
}

int main(void)
{
	RUN(test_join_parts);
	RUN(test_later_occurrence_wins);
	RUN(test_flags_and_values);
	RUN(test_quotes);
	RUN(test_init_arguments);
	RUN(test_limits);
	RUN(test_unterminated_quote);
	RUN(test_get_u64);
	return check_summary();
}
