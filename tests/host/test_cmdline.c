/* Host tests for the kernel command line parser (kernel/cmdline/cmdline.c). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel/cmdline/cmdline.h"

/* struct cmdline is a few KiB and points into itself: tests share one static copy. */
static struct cmdline line;

/* Parse a single string; returns cmdline_parse()'s result (the problem count). */
static int parse_one(const char *text)
{
	const char *parts[] = {text};
	return cmdline_parse(&line, parts, 1);
}

static void test_join_parts(void)
{
	const char *parts[] = {"console=ttyS0", NULL, "", "loglevel=7", "quiet"};

	CHECK(cmdline_parse(&line, parts, 5) == 0);
	CHECK_STR(line.text, "console=ttyS0 loglevel=7 quiet");
	CHECK(line.param_count == 3);
	CHECK_STR(cmdline_get(&line, "console"), "ttyS0");
	CHECK_STR(cmdline_get(&line, "loglevel"), "7");
	CHECK(line.init_argc == 0);
	CHECK(line.init_argv[0] == NULL);

	/* Only the first part_count parts count. */
	CHECK(cmdline_parse(&line, parts, 1) == 0);
	CHECK_STR(line.text, "console=ttyS0");

	/* Nothing at all. */
	CHECK(cmdline_parse(&line, NULL, 3) == 0);
	CHECK_STR(line.text, "");
	CHECK(line.param_count == 0);
	CHECK(cmdline_parse(&line, parts, 0) == 0);
	CHECK(cmdline_get(&line, "console") == NULL);
	const char *empty[] = {NULL, "", "   "};
	CHECK(cmdline_parse(&line, empty, 3) == 0);
	CHECK_STR(line.text, "   ");
	CHECK(line.param_count == 0);
}

static void test_later_occurrence_wins(void)
{
	const char *parts[] = {"loglevel=3 smp=4", "loglevel=7", "smp"};

	CHECK(cmdline_parse(&line, parts, 3) == 0);
	CHECK(line.param_count == 4);
	CHECK_STR(cmdline_get(&line, "loglevel"), "7");
	CHECK_STR(cmdline_get(&line, "smp"), ""); /* the bare flag came last */
	CHECK(cmdline_has(&line, "smp"));
}

/* The Lichee RV's stock chain: Allwinner's U-Boot puts Tina's bootargs (env.cfg
 * setargs_mmc: a Linux console= and init=/pseudo_init) first and appends the Android
 * image's command line (U-Boot common/image-android.c). The last init= wins, as
 * Linux's init_setup keeps the last one it is given (init/main.c), so the image's
 * init=/bin/sh (boards/boards.mk) starts Duplex's shell; its console= wins as well. */
static void test_tina_bootargs_then_the_image(void)
{
	const char *parts[] = {
	    "console=async", /* DEFAULT_CMDLINE */
	    "earlyprintk=sunxi-uart,0x02500000 clk_ignore_unused initcall_debug=0 "
	    "console=ttyS0,115200 loglevel=8 root=/dev/mmcblk0p5 init=/pseudo_init "
	    "partitions=boot-resource@mmcblk0p1:env@mmcblk0p2:boot@mmcblk0p4:rootfs@mmcblk0p5 "
	    "cma=8M snum= mac_addr= wifi_mac= bt_mac= specialstr= gpt=1 "
	    "console=async init=/bin/sh"};
	CHECK(cmdline_parse(&line, parts, 2) == 0);
	CHECK_STR(cmdline_get(&line, "init"), "/bin/sh");
	CHECK_STR(cmdline_get(&line, "console"), "async");
	CHECK(!line.init_lost);
	CHECK(line.init_argc == 0);
	/* Without the image's init= the firmware's wins: /pseudo_init, which Duplex has not. */
	const char *tina_only[] = {"console=async", "console=ttyS0,115200 init=/pseudo_init "
	                                            "console=async"};
	CHECK(cmdline_parse(&line, tina_only, 2) == 0);
	CHECK_STR(cmdline_get(&line, "init"), "/pseudo_init");
}

static void test_flags_and_values(void)
{
	CHECK(parse_one("  quiet\tdebug=\n a=b=c  =orphan x=\"\" ") == 0);
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
	CHECK(parse_one("msg=\"hello  world\" \"quoted=flag value\" path=a\"b c\"d") == 0);
	CHECK_STR(cmdline_get(&line, "msg"), "hello  world");
	CHECK_STR(cmdline_get(&line, "quoted"), "flag value");
	CHECK_STR(cmdline_get(&line, "path"), "ab cd");
	CHECK(line.param_count == 3);
}

static void test_init_arguments(void)
{

	CHECK(parse_one("init=/bin/sh -- -c \"exit 3\"") == 0);
	CHECK_STR(cmdline_get(&line, "init"), "/bin/sh");
	CHECK(line.param_count == 1);
	CHECK(line.init_argc == 2);
	CHECK_STR(line.init_argv[0], "-c");
	CHECK_STR(line.init_argv[1], "exit 3");
	CHECK(line.init_argv[2] == NULL);

	/* After the first `--` everything is an argument, even `--` and key=value. */
	CHECK(parse_one("a=1 -- b=2 -- \"\" quiet") == 0);
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
	CHECK(cmdline_parse(&line, parts, 1) == 0);
	CHECK(line.init_argc == 0);
	CHECK(line.init_argv[0] == NULL);
	CHECK(cmdline_parse(&line, parts, 2) == 0);
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

/* The n-th recorded problem is `word` for `reason`. */
static void check_problem(int n, const char *word, const char *reason)
{
	CHECK(line.problem_count > n);
	if (line.problem_count > n) {
		CHECK_STR(line.problems[n].word, word);
		CHECK_STR(line.problems[n].reason, reason);
	}
}

static void test_limits(void)
{
	static char text[2 * CMDLINE_MAX];

	/* CMDLINE_MAX - 1 characters fit; one more does not, and the word is not cut. */
	memset(text, 'a', CMDLINE_MAX - 1);
	text[CMDLINE_MAX - 1] = '\0';
	CHECK(parse_one(text) == 0);
	CHECK(strlen(line.text) == CMDLINE_MAX - 1);
	CHECK(cmdline_has(&line, text));
	memset(text, 'a', CMDLINE_MAX);
	text[CMDLINE_MAX] = '\0';
	CHECK(parse_one(text) == 1);
	check_problem(0, "", "command line too long: the rest was dropped");
	CHECK(line.param_count == 0);
	CHECK(!line.init_lost);

	/* Too long: the words before the limit are kept, whole. */
	strcpy(text, "console=polling x=");
	memset(text + strlen(text), 'b', CMDLINE_MAX);
	strcpy(text + strlen(text), " init=/bin/hello");
	CHECK(parse_one(text) == 1);
	CHECK(line.param_count == 1);
	CHECK_STR(cmdline_get(&line, "console"), "polling");
	CHECK(!cmdline_has(&line, "x"));
	CHECK(line.init_lost); /* the dropped text named the first program */
	strcpy(text + strlen(text) - strlen(" init=/bin/hello"), " -- init=/bin/hello");
	CHECK(parse_one(text) == 1);
	CHECK(!line.init_lost); /* after `--` it is an argument, not init= */

	/* The joining space counts too: 511 + 1 + 511 characters fit, 511 + 1 + 512 do not. */
	static char left[512], right[513];
	memset(left, 'b', sizeof(left) - 1);
	memset(right, 'c', sizeof(right) - 1);
	const char *fits[] = {left, right + 1};
	CHECK(cmdline_parse(&line, fits, 2) == 0);
	CHECK(strlen(line.text) == CMDLINE_MAX - 1);
	const char *too_long[] = {left, right, "init=/bin/sh"};
	CHECK(cmdline_parse(&line, too_long, 3) == 1);
	CHECK_STR(line.text, left); /* the second part's one word did not fit */
	CHECK(cmdline_has(&line, left));
	CHECK(line.init_lost);

	/* Parameters: the maximum, then one too many: only that one goes. */
	repeat_words(text, "f", CMDLINE_MAX_PARAMS);
	CHECK(parse_one(text) == 0);
	CHECK(line.param_count == CMDLINE_MAX_PARAMS);
	repeat_words(text, "f", CMDLINE_MAX_PARAMS);
	strcat(text, " g init=/bin/hello -- arg");
	CHECK(parse_one(text) == 2);
	check_problem(0, "g", "too many parameters");
	check_problem(1, "init=/bin/hello", "too many parameters");
	CHECK(line.param_count == CMDLINE_MAX_PARAMS);
	CHECK(cmdline_has(&line, "f"));
	CHECK(!cmdline_has(&line, "g"));
	CHECK(line.init_lost);
	CHECK(line.init_argc == 1); /* the words after `--` still count */

	/* Init arguments: the extra ones go, the rest stay. */
	strcpy(text, "root=x -- ");
	repeat_words(text + strlen(text), "arg", CMDLINE_MAX_ARGS);
	CHECK(parse_one(text) == 0);
	CHECK(line.init_argc == CMDLINE_MAX_ARGS);
	CHECK(line.init_argv[CMDLINE_MAX_ARGS] == NULL);
	strcat(text, " one-more");
	CHECK(parse_one(text) == 1);
	check_problem(0, "one-more", "too many init arguments");
	CHECK_STR(cmdline_get(&line, "root"), "x");
	CHECK(line.init_argc == CMDLINE_MAX_ARGS);
	CHECK(line.init_argv[CMDLINE_MAX_ARGS] == NULL);
	CHECK(!line.init_lost);

	/* More problems than are kept: all counted. */
	repeat_words(text, "f", CMDLINE_MAX_PARAMS + CMDLINE_MAX_PROBLEMS + 3);
	CHECK(parse_one(text) == CMDLINE_MAX_PROBLEMS + 3);
	CHECK(line.param_count == CMDLINE_MAX_PARAMS);
}

static void test_unterminated_quote(void)
{
	/* The bad word, up to the next space, goes; every other word stays. */
	CHECK(parse_one("a=1 msg=\"never closed init=/bin/hello") == 1);
	check_problem(0, "msg=\"never", "unterminated quote");
	CHECK_STR(cmdline_get(&line, "a"), "1");
	CHECK_STR(cmdline_get(&line, "init"), "/bin/hello");
	CHECK(!cmdline_has(&line, "msg"));
	CHECK(cmdline_has(&line, "closed"));
	CHECK(!line.init_lost);
	CHECK_STR(line.text, "a=1 msg=\"never closed init=/bin/hello"); /* logged as given */

	CHECK(parse_one("init=\"unterminated") == 1);
	check_problem(0, "init=\"unterminated", "unterminated quote");
	CHECK(!cmdline_has(&line, "init"));

	CHECK(parse_one("a=1 -- \"x y") == 1);
	check_problem(0, "\"x", "unterminated quote");
	CHECK(line.init_argc == 1);
	CHECK_STR(line.init_argv[0], "y");
	CHECK_STR(cmdline_get(&line, "a"), "1");

	/* A clean line has no problems. */
	CHECK(parse_one("a=\"x y\" b") == 0);
	CHECK(line.problem_count == 0);
}

static void test_get_u64(void)
{
	uint64_t value = 0;

	CHECK(parse_one("mem=64M a=12 b=0x1000 c=0X10k d=3g e=7K f=0xffffffffffffffff "
	                "big=18446744073709551615 over=18446744073709551616 "
	                "overk=0x40000000000000k maxk=0x3fffffffffffffk "
	                "h=0xAbC word=abc kb=12kb hex=0x sfx=k neg=-1 sp=\" 1\" flag t=16T") == 0);
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
	RUN(test_tina_bootargs_then_the_image);
	RUN(test_flags_and_values);
	RUN(test_quotes);
	RUN(test_init_arguments);
	RUN(test_limits);
	RUN(test_unterminated_quote);
	RUN(test_get_u64);
	return check_summary();
}
