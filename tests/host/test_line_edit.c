/* Host grading tests for lab line-edit (docs/teaching/labs/line-edit.md): canonical
 * mode's VERASE, VWERASE and VKILL (erase() in drivers/console/line_discipline.c), bytes
 * typed into the pure line discipline, then the line read() gets, the echo, byte for
 * byte, and counters.edits.
 *
 *   test_line_edit            every group (make check-host)
 *   test_line_edit GROUP...   only those: erase, start, word, kill, echok, quiet (the
 *                             grading tests of tests/labs/test_lab_line_edit.py)
 *
 * A failed expectation prints one line for the student:
 *   GROUP: typed "...": WHAT = "got", expected "E" (why)
 * its group stops there, and the program exits 1. Deterministic: no clock, no threads. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "drivers/console/line_discipline.h"

#define B38400_CODE 0000017

static struct line_discipline line;
static const char *group; /* the group running, for the messages */
static char typed[256];   /* what was typed since reset(), shown in the messages */
static size_t typed_length;
static int failures; /* expectations that failed */
static int failures_before_group;
static int groups_passed, groups_failed;

/* After a case: a group stops at its first failure, which is the one to fix (and a line
 * discipline erasing past the line's start would make the next case loop round the
 * whole buffer). */
#define STOP_IF_FAILED()                                                                           \
	do {                                                                                       \
		if (failures != failures_before_group)                                             \
			return;                                                                    \
	} while (0)

/* `text` as a C string literal would show it: "\b", "\r", "\n", "\t", "\x7f". */
static const char *shown(const char *text, size_t length)
{
	static char buffers[3][4 * 512 + 3]; /* three in one message */
	static int next;
	char *out = buffers[next++ % 3];
	size_t n = 0;
	out[n++] = '"';
	for (size_t i = 0; i < length && n < sizeof buffers[0] - 6; i++) {
		unsigned char c = (unsigned char)text[i];
		const char *escape = c == '\b'   ? "\\b"
		                     : c == '\r' ? "\\r"
		                     : c == '\n' ? "\\n"
		                     : c == '\t' ? "\\t"
		                     : c == '"'  ? "\\\""
		                     : c == '\\' ? "\\\\"
		                                 : 0;
		if (escape)
			n += (size_t)sprintf(out + n, "%s", escape);
		else if (c < ' ' || c >= 0177)
			n += (size_t)sprintf(out + n, "\\x%02x", c);
		else
			out[n++] = (char)c;
	}
	out[n++] = '"';
	out[n] = 0;
	return out;
}

static void reset(uint32_t lflag_off)
{
	line_discipline_init(&line, B38400_CODE);
	line.termios.c_lflag &= ~lflag_off;
	typed_length = 0;
}

/* Type `text` (what a terminal would send; no RX errors). */
static void type(const char *text)
{
	for (size_t i = 0; text[i]; i++) {
		line_discipline_receive(&line, (uint8_t)text[i], 0);
		if (typed_length < sizeof typed)
			typed[typed_length++] = text[i];
	}
}

static void expect_text(const char *what, const char *got, size_t got_length, const char *expected,
                        const char *why)
{
	if (got_length == strlen(expected) && memcmp(got, expected, got_length) == 0)
		return;
	failures++;
	fprintf(stderr, "%s: typed %s: %s = %s, expected %s (%s)\n", group,
	        shown(typed, typed_length), what, shown(got, got_length),
	        shown(expected, strlen(expected)), why);
}

static void expect_count(const char *what, uint64_t got, uint64_t expected, const char *why)
{
	if (got == expected)
		return;
	failures++;
	fprintf(stderr, "%s: typed %s: %s = %llu, expected %llu (%s)\n", group,
	        shown(typed, typed_length), what, (unsigned long long)got,
	        (unsigned long long)expected, why);
}

/* The echo queued since the last look, checked, then forgotten. */
static void expect_echo(const char *expected, const char *why)
{
	expect_text("echo", (const char *)line.echo, line.echo_length, expected, why);
	line.echo_length = 0;
}

/* One read(): canonical, so at most one line; checked. */
static void expect_line(const char *expected, const char *why)
{
	char text[LINE_BUFFER_SIZE];
	bool end_of_file;
	uint32_t count = line_discipline_read(&line, (uint8_t *)text, sizeof text, &end_of_file);
	expect_text("the line read", text, count, expected, why);
}

#define RUBOUT "\b \b"

/* ---------------------------------------------------------------- the groups */

static void erase_rubs_out(void)
{
	reset(0);
	type("helo\177lo\n");
	expect_echo("helo" RUBOUT "lo\r\n",
	            "ECHOE: an erased character is rubbed out, backspace space backspace");
	expect_line("hello\n", "VERASE removes the character before it");
	expect_count("counters.edits", line.counters.edits, 1, "one VERASE that erased");
	STOP_IF_FAILED();

	reset(0);
	type("abc\177\177d\n");
	expect_echo("abc" RUBOUT RUBOUT "d\r\n", "each VERASE rubs out one character");
	expect_line("ad\n", "two VERASEs remove two characters");
	expect_count("counters.edits", line.counters.edits, 2, "each VERASE that erased");
	STOP_IF_FAILED();

	reset(0);
	type("x\001\177\n"); /* ^A echoed as "^A" takes two columns: erase_one knows */
	expect_echo("x^A" RUBOUT RUBOUT "\r\n",
	            "a control character echoed as ^X is two columns: erase_one rubs out both");
	expect_line("x\n", "VERASE removes the ^A");
}

static void stops_at_line_start(void)
{
	static const char *const alone[] = {"\177", "\027", "\025"};
	for (int i = 0; i < 3; i++) {
		reset(0);
		type(alone[i]);
		expect_echo("", "on an empty line there is nothing to erase: no echo");
		expect_count(
		    "counters.edits", line.counters.edits, 0,
		    "on an empty line VERASE, VWERASE and VKILL erase nothing, count nothing");
		STOP_IF_FAILED();
	}

	reset(0);
	type("ab\177\177");
	line.echo_length = 0;
	type("\177");
	expect_echo("", "the third VERASE finds the line empty: no echo");
	expect_count("counters.edits", line.counters.edits, 2,
	             "only the VERASEs that erased something count");
	STOP_IF_FAILED();
	type("c\n");
	expect_line("c\n", "erasing stops at the start of the line");
	STOP_IF_FAILED();

	reset(0);
	type("abc\n"); /* a finished line, not read yet */
	line.echo_length = 0;
	type("\177");
	expect_echo("", "the finished line before is not the line being edited: nothing to erase");
	STOP_IF_FAILED();
	type("\027\025");
	expect_echo("", "the finished line before is not the line being edited: nothing to erase");
	STOP_IF_FAILED();
	type("x\n");
	expect_line("abc\n", "a finished line is never erased, even before it is read");
	expect_line("x\n", "the new line, after three edits that found it empty");
	expect_count("counters.edits", line.counters.edits, 0,
	             "nothing was erased: the new line was empty each time");
	STOP_IF_FAILED();

	reset(0);
	type("abc\n");
	expect_line("abc\n", "the first line");
	line.echo_length = 0;
	type("\177");
	expect_echo("", "nothing before the line's start is rubbed out");
	STOP_IF_FAILED();
	type("ok\n");
	expect_line("ok\n", "VERASE at the start of a line, after one was read, does nothing");
}

static void word_erase(void)
{
	reset(0);
	type("one two\027three\n");
	expect_echo("one two" RUBOUT RUBOUT RUBOUT "three\r\n",
	            "VWERASE rubs out the word, one \"\\b \\b\" per character");
	expect_line("one three\n", "VWERASE removes the last word, keeps the blank before it");
	expect_count("counters.edits", line.counters.edits, 1, "one VWERASE");
	STOP_IF_FAILED();

	reset(0);
	type("one two  \027three\n");
	expect_echo("one two  " RUBOUT RUBOUT RUBOUT RUBOUT RUBOUT "three\r\n",
	            "the blanks after the word are rubbed out with it");
	expect_line("one three\n", "VWERASE removes the blanks at the end, then the word");
	STOP_IF_FAILED();

	reset(0);
	type("a-b\027c\n");
	expect_line("a-c\n", "a word is letters, digits and '_': '-' ends it");
	STOP_IF_FAILED();

	reset(0);
	type("go \027\027x\n");
	expect_line("x\n", "the first VWERASE takes \"go \", the second finds the line empty");
	expect_count("counters.edits", line.counters.edits, 1,
	             "the second VWERASE erased nothing: not counted");
}

static void kill_rubs_out(void)
{
	reset(0);
	type("junk\025world\n");
	expect_echo("junk" RUBOUT RUBOUT RUBOUT RUBOUT "world\r\n",
	            "ECHOKE: VKILL rubs the line out character by character");
	expect_line("world\n", "VKILL removes the whole line");
	expect_count("counters.edits", line.counters.edits, 1, "one VKILL");
	STOP_IF_FAILED();

	reset(0);
	type("a\tb\025\n"); /* b at column 8: the tab took 7 columns, only backed over */
	expect_echo("a\tb" RUBOUT "\b\b\b\b\b\b\b" RUBOUT "\r\n",
	            "VKILL rubs out each character as VERASE would (erase_one), a tab by "
	            "backing over its columns");
	expect_line("\n", "VKILL removed a, the tab and b");
	STOP_IF_FAILED();

	reset(0);
	type("abc\n");
	line.echo_length = 0;
	type("de\025f\n");
	expect_echo("de" RUBOUT RUBOUT "f\r\n", "VKILL rubs out only the line being edited");
	expect_line("abc\n", "the finished line before is not killed");
	expect_line("f\n", "VKILL removed \"de\"");
}

static void kill_echok(void)
{
	reset(ECHOKE);
	type("abc\025x\n");
	expect_echo("abc^U\r\nx\r\n",
	            "ECHOK without ECHOKE: the kill character is echoed (^U), then a newline");
	expect_line("x\n", "VKILL removes the line whatever the echo");
	expect_count("counters.edits", line.counters.edits, 1, "one VKILL");
	STOP_IF_FAILED();

	reset(ECHOKE | ECHOK);
	type("abc\025x\n");
	expect_echo("abc^Ux\r\n", "neither ECHOK nor ECHOKE: only the kill character, ^U");
	expect_line("x\n", "VKILL removes the line whatever the echo");
	STOP_IF_FAILED();

	reset(ECHOE);
	type("ab\025c\n");
	expect_echo("ab^U\r\nc\r\n",
	            "ECHOKE rubs out only with ECHOE too: without it, ^U and ECHOK's newline");
	expect_line("c\n", "VKILL removes the line whatever the echo");
}

static void quiet(void)
{
	reset(ECHOE);
	type("ab\177\n");
	expect_echo("ab^?\r\n", "ECHO without ECHOE: the erase character itself is shown, ^?");
	expect_line("a\n", "VERASE removes the character whatever the echo");
	expect_count("counters.edits", line.counters.edits, 1, "one VERASE");
	STOP_IF_FAILED();

	reset(ECHO);
	type("ab\177cd\027ef\025gh\n");
	expect_echo("", "without ECHO nothing is echoed, edits included");
	expect_line("gh\n", "VERASE, VWERASE and VKILL edit the line without ECHO too");
	expect_count("counters.edits", line.counters.edits, 3, "three edits that erased");
}

static const struct {
	const char *name;
	void (*run)(void);
} groups[] = {
    {"erase", erase_rubs_out}, {"start", stops_at_line_start}, {"word", word_erase},
    {"kill", kill_rubs_out},   {"echok", kill_echok},          {"quiet", quiet},
};

#define GROUP_COUNT (sizeof groups / sizeof groups[0])

static void run_group(size_t i)
{
	failures_before_group = failures;
	group = groups[i].name;
	groups[i].run();
	if (failures == failures_before_group) {
		groups_passed++;
		printf("ok   %s\n", group);
	} else {
		groups_failed++;
		fprintf(stderr, "FAIL %s\n", group);
	}
}

int main(int argc, char **argv)
{
	if (argc == 1) {
		for (size_t i = 0; i < GROUP_COUNT; i++)
			run_group(i);
	}
	for (int a = 1; a < argc; a++) {
		size_t i = 0;
		while (i < GROUP_COUNT && strcmp(argv[a], groups[i].name) != 0)
			i++;
		if (i == GROUP_COUNT) {
			fprintf(stderr, "test_line_edit: no group %s\n", argv[a]);
			return 2;
		}
		run_group(i);
	}
	printf("%d passed, %d failed\n", groups_passed, groups_failed);
	return groups_failed ? 1 : 0;
}
