/* Host unit test for trace= parsing (kernel/trace/classes.c): names, lists, "all",
 * "off", empty words, and unknown names reported by position. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "kernel/trace/trace.h"

static uint32_t parse(const char *text, bool *ok, const char **bad)
{
	uint32_t mask = 0xdead;
	*bad = 0;
	*ok = trace_parse_classes(text, &mask, bad);
	return mask;
}

static void test_names_and_lists(void)
{
	bool ok;
	const char *bad;
	CHECK_EQ_U64(parse("console", &ok, &bad), TRACE_CONSOLE);
	CHECK(ok);
	CHECK_EQ_U64(parse("console,sched,irq,syscall,wire", &ok, &bad), TRACE_ALL);
	CHECK(ok);
	CHECK_EQ_U64(parse("all", &ok, &bad), TRACE_ALL);
	CHECK_EQ_U64(parse("syscall,,wire,", &ok, &bad), TRACE_SYSCALL | TRACE_WIRE);
	CHECK(ok);
	CHECK_EQ_U64(parse("off", &ok, &bad), 0);
	CHECK(ok);
	CHECK_EQ_U64(parse("", &ok, &bad), 0);
	CHECK(ok);
}

static void test_unknown_names(void)
{
	bool ok;
	const char *bad;
	const char *text = "console,shed,irq";
	CHECK_EQ_U64(parse(text, &ok, &bad), 0);
	CHECK(!ok);
	CHECK(bad == text + 8);
	CHECK_EQ_U64(parse("consoles", &ok, &bad), 0);
	CHECK(!ok);
	CHECK_EQ_U64(parse("Console", &ok, &bad), 0); /* names are lower case, as Linux's */
	CHECK(!ok);
}

int main(void)
{
	RUN(test_names_and_lists);
	RUN(test_unknown_names);
	return check_summary();
}
