/* Host unit tests for the kernel log's record store (kernel/log/log_buffer.c): records
 * come back by number with their bytes, a full store overwrites the oldest, a number
 * that was overwritten or not written yet reads as gone, long lines are cut, and
 * shrinking at boot keeps the newest records. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "kernel/log/log_buffer.h"

#define SLOTS 4

static struct log_slot slots[SLOTS];

static void append_text(struct log_buffer *buffer, const char *text)
{
	log_buffer_append(buffer, text, strlen(text));
}

/* Record `number` as a string ("" when gone). */
static const char *record(const struct log_buffer *buffer, uint64_t number)
{
	static char text[LOG_LINE_MAX + 1];
	size_t length = log_buffer_get(buffer, number, text);
	text[length] = 0;
	return text;
}

static void test_append_and_get(void)
{
	struct log_buffer buffer;
	log_buffer_init(&buffer, slots, SLOTS);
	CHECK_EQ_U64(log_buffer_get(&buffer, 0, 0), 0);
	CHECK_EQ_U64(log_buffer_append(&buffer, "one\n", 4), 0);
	CHECK_EQ_U64(log_buffer_append(&buffer, "two\n", 4), 1);
	CHECK_STR(record(&buffer, 0), "one\n");
	CHECK_STR(record(&buffer, 1), "two\n");
	CHECK_EQ_U64(log_buffer_get(&buffer, 1, 0), 4);
	CHECK_STR(record(&buffer, 2), ""); /* not written yet */
	CHECK_EQ_U64(buffer.first, 0);
	CHECK_EQ_U64(buffer.next, 2);
}

static void test_full_store_overwrites_oldest(void)
{
	struct log_buffer buffer;
	char text[32];
	log_buffer_init(&buffer, slots, SLOTS);
	for (int i = 0; i < 10; i++) {
		snprintf(text, sizeof text, "line %d\n", i);
		append_text(&buffer, text);
	}
	CHECK_EQ_U64(buffer.first, 10 - SLOTS);
	CHECK_EQ_U64(buffer.next, 10);
	CHECK_STR(record(&buffer, 5), ""); /* overwritten */
	for (int i = 10 - SLOTS; i < 10; i++) {
		snprintf(text, sizeof text, "line %d\n", i);
		CHECK_STR(record(&buffer, (uint64_t)i), text);
	}
}

static void test_long_line_is_cut_and_empty_ignored(void)
{
	struct log_buffer buffer;
	char text[LOG_LINE_MAX + 10];
	memset(text, 'x', sizeof text);
	log_buffer_init(&buffer, slots, SLOTS);
	log_buffer_append(&buffer, text, sizeof text);
	CHECK_EQ_U64(log_buffer_get(&buffer, 0, 0), LOG_LINE_MAX);
	log_buffer_append(&buffer, text, 0);
	CHECK_EQ_U64(buffer.next, 1);
}

static void test_shrink_keeps_newest(void)
{
	struct log_buffer buffer;
	log_buffer_init(&buffer, slots, SLOTS);
	append_text(&buffer, "a\n");
	append_text(&buffer, "b\n");
	append_text(&buffer, "c\n");
	CHECK_EQ_U64(log_buffer_shrink(&buffer, 0), (uint64_t)-1);
	CHECK_EQ_U64(log_buffer_shrink(&buffer, SLOTS + 1), (uint64_t)-1);
	CHECK_EQ_U64(log_buffer_shrink(&buffer, 2), 0);
	CHECK_EQ_U64(buffer.first, 1);
	CHECK_STR(record(&buffer, 1), "b\n");
	CHECK_STR(record(&buffer, 2), "c\n");
	append_text(&buffer, "d\n");
	CHECK_STR(record(&buffer, 1), "");
	CHECK_STR(record(&buffer, 2), "c\n");
	CHECK_STR(record(&buffer, 3), "d\n");
	/* Once wrapped, the slots no longer match the numbers: refused. */
	CHECK_EQ_U64(log_buffer_shrink(&buffer, 1), (uint64_t)-1);
}

int main(void)
{
	RUN(test_append_and_get);
	RUN(test_full_store_overwrites_oldest);
	RUN(test_long_line_is_cut_and_empty_ignored);
	RUN(test_shrink_keeps_newest);
	return check_summary();
}
