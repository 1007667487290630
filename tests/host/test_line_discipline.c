/* Host unit tests for the console's line discipline (drivers/console/line_discipline.c):
 * bytes in, then what read() gets and what was echoed, byte for byte, under Linux's
 * default termios and with flags changed one at a time. Pure functions over a buffer:
 * no clock, no threads, deterministic. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "drivers/console/line_discipline.h"

#define B38400_CODE 0000017

static struct line_discipline line;
static uint32_t events_seen;

static void reset(void)
{
	line_discipline_init(&line, B38400_CODE);
	events_seen = 0;
}

/* Feed `text` (NUL-terminated; use feed_bytes for a NUL) with no RX errors. */
static void feed_bytes(const char *text, size_t length)
{
	for (size_t i = 0; i < length; i++)
		events_seen |= line_discipline_receive(&line, (uint8_t)text[i], 0);
}

static void feed(const char *text)
{
	feed_bytes(text, strlen(text));
}

/* The echo so far, as a string, and forget it. */
static const char *take_echo(void)
{
	static char text[LINE_ECHO_SIZE + 1];
	memcpy(text, line.echo, line.echo_length);
	text[line.echo_length] = 0;
	line.echo_length = 0;
	return text;
}

/* One read of up to `length` bytes, as a string; *eof as the discipline says. */
static const char *read_some(uint32_t length, bool *eof)
{
	static char text[LINE_BUFFER_SIZE + 1];
	uint32_t count = line_discipline_read(&line, (uint8_t *)text, length, eof);
	text[count] = 0;
	return text;
}

static const char *read_line(void)
{
	bool eof;
	return read_some(LINE_BUFFER_SIZE, &eof);
}

static void set_lflag(uint32_t on, uint32_t off)
{
	struct kernel_termios t = line.termios;
	t.c_lflag = (t.c_lflag | on) & ~off;
	line_discipline_set_termios(&line, &t);
}

static void set_iflag(uint32_t on, uint32_t off)
{
	struct kernel_termios t = line.termios;
	t.c_iflag = (t.c_iflag | on) & ~off;
	line_discipline_set_termios(&line, &t);
}

static void test_defaults_are_linux(void)
{
	reset();
	CHECK_EQ_U64(line.termios.c_iflag, ICRNL | IXON);
	CHECK_EQ_U64(line.termios.c_oflag, OPOST | ONLCR);
	CHECK_EQ_U64(line.termios.c_lflag,
	             ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN);
	static const uint8_t cc[TERMIOS_NCCS] = {3,   034, 0177, 025, 4,   0,   1,   0, 021,
	                                         023, 032, 0,    022, 017, 027, 026, 0};
	CHECK(memcmp(line.termios.c_cc, cc, sizeof cc) == 0);
}

static void test_canonical_line_is_held_until_newline(void)
{
	reset();
	feed("hello");
	CHECK(!line_discipline_input_ready(&line));
	CHECK_EQ_U64(line_discipline_readable(&line), 0);
	CHECK_STR(take_echo(), "hello");
	feed("\r"); /* ICRNL */
	CHECK(events_seen & LINE_EVENT_INPUT);
	CHECK_STR(take_echo(), "\r\n"); /* ONLCR on the echo */
	CHECK_EQ_U64(line_discipline_readable(&line), 6);
	CHECK_STR(read_line(), "hello\n");
	CHECK(!line_discipline_input_ready(&line));
	CHECK_EQ_U64(line.counters.lines, 1);
}

static void test_erase_kill_and_retype(void)
{
	reset();
	feed("helo\177lo");
	CHECK_STR(take_echo(), "helo\b \blo");
	feed("\025"); /* ^U with ECHOKE: "hello" rubbed out character by character */
	CHECK_STR(take_echo(), "\b \b\b \b\b \b\b \b\b \b");
	feed("world\n");
	CHECK_STR(take_echo(), "world\r\n");
	CHECK_STR(read_line(), "world\n");
	CHECK_EQ_U64(line.counters.edits, 2);
}

static void test_kill_without_echoke_echoes_it_and_newline(void)
{
	reset();
	set_lflag(0, ECHOKE);
	feed("abc\025");
	CHECK_STR(take_echo(), "abc^U\r\n");
	feed("x\n");
	CHECK_STR(read_line(), "x\n");
}

static void test_erase_without_echoe_shows_the_character(void)
{
	reset();
	set_lflag(0, ECHOE);
	feed("ab\177\n");
	CHECK_STR(take_echo(), "ab^?\r\n");
	CHECK_STR(read_line(), "a\n");
}

static void test_word_erase(void)
{
	reset();
	feed("one two  \027three\n"); /* ^W takes "two  " */
	CHECK_STR(read_line(), "one three\n");
}

static void test_erase_on_empty_line_does_nothing(void)
{
	reset();
	feed("\177\025\027");
	CHECK_STR(take_echo(), "");
	CHECK_EQ_U64(line.counters.edits, 0);
}

static void test_erase_control_character_and_tab(void)
{
	reset();
	feed("a\001"); /* ^A shows as two columns */
	CHECK_STR(take_echo(), "a^A");
	feed("\177");
	CHECK_STR(take_echo(), "\b \b\b \b");
	feed("\t\177"); /* the tab from column 1 to 8: backed over 7 times */
	CHECK_STR(take_echo(), "\t\b\b\b\b\b\b\b");
	feed("\n");
	CHECK_STR(read_line(), "a\n");
}

static void test_utf8_erase_takes_the_whole_character(void)
{
	reset();
	set_iflag(IUTF8, 0);
	feed("a\xc3\xa9\177\n");
	CHECK_STR(take_echo(), "a\xc3\xa9\b \b\r\n");
	CHECK_STR(read_line(), "a\n");
}

static void test_eof_at_empty_line_reads_zero(void)
{
	reset();
	feed("\004");
	CHECK_STR(take_echo(), ""); /* VEOF is not echoed */
	CHECK(line_discipline_input_ready(&line));
	bool eof = false;
	CHECK_STR(read_some(100, &eof), "");
	CHECK(eof);
	CHECK(!line_discipline_input_ready(&line));
}

static void test_eof_after_text_ends_the_line_without_itself(void)
{
	reset();
	feed("abc\004");
	bool eof = true;
	CHECK_STR(read_some(100, &eof), "abc");
	CHECK(!eof);
	CHECK(!line_discipline_input_ready(&line));
	feed("abc\004"); /* read with room for exactly the text: the marker goes too */
	CHECK_STR(read_some(3, &eof), "abc");
	CHECK(!line_discipline_input_ready(&line));
}

static void test_partial_reads_of_a_line(void)
{
	reset();
	feed("abcdef\nxy\n");
	bool eof;
	CHECK_STR(read_some(4, &eof), "abcd");
	CHECK_STR(read_some(100, &eof), "ef\n"); /* one line per read */
	CHECK_STR(read_some(100, &eof), "xy\n");
}

static void test_veol_ends_a_line(void)
{
	reset();
	struct kernel_termios t = line.termios;
	t.c_cc[VEOL] = ';';
	line_discipline_set_termios(&line, &t);
	feed("ls;");
	CHECK_STR(read_line(), "ls;");
}

static void test_lnext_takes_the_next_byte_literally(void)
{
	reset();
	feed("a\026\177\026\003\n"); /* ^V DEL, ^V ^C */
	CHECK_STR(take_echo(), "a^\b^?^\b^C\r\n");
	CHECK_STR(read_line(), "a\177\003\n");
	CHECK_EQ_U64(line.counters.signals, 0);
}

static void test_reprint(void)
{
	reset();
	feed("abc\022");
	CHECK_STR(take_echo(), "abc^R\r\nabc");
}

static void test_echo_off_and_echonl(void)
{
	reset();
	set_lflag(0, ECHO);
	feed("secret\n");
	CHECK_STR(take_echo(), "");
	set_lflag(ECHONL, 0);
	feed("secret\n");
	CHECK_STR(take_echo(), "\r\n");
	CHECK_STR(read_line(), "secret\n");
}

static void test_input_mapping(void)
{
	reset();
	set_iflag(IGNCR, 0);
	feed("a\rb\n");
	CHECK_STR(read_line(), "ab\n");
	set_iflag(INLCR, IGNCR | ICRNL);
	set_lflag(0, ICANON);
	feed("\n\r");
	CHECK_STR(read_line(), "\r\r");
	set_iflag(ISTRIP, INLCR);
	feed("\xc1");
	CHECK_STR(read_line(), "A");
}

static void test_isig_flushes_echoes_and_signals(void)
{
	reset();
	feed("half a line\003");
	CHECK(events_seen & LINE_EVENT_SIGNAL);
	CHECK(events_seen & LINE_EVENT_FLUSH_OUTPUT);
	CHECK_EQ_U64(line.signal, LINE_SIGINT);
	CHECK_STR(take_echo(), "half a line^C");
	feed("next\n");
	CHECK_STR(read_line(), "next\n"); /* the half line was flushed */
	events_seen = 0;
	feed("\034");
	CHECK_EQ_U64(line.signal, LINE_SIGQUIT);
	feed("\032");
	CHECK_EQ_U64(line.signal, LINE_SIGTSTP);
	CHECK_EQ_U64(line.counters.signals, 3);
	set_lflag(NOFLSH, 0);
	events_seen = 0;
	feed("kept\003\n");
	CHECK(!(events_seen & LINE_EVENT_FLUSH_OUTPUT));
	CHECK_STR(read_line(), "kept\n");
	set_lflag(0, ISIG);
	feed("\003\n");
	CHECK_STR(read_line(), "\003\n");
	CHECK_EQ_U64(line.counters.signals, 4);
}

static void test_ixon_stops_and_starts_output(void)
{
	reset();
	feed("\023");
	CHECK(line.output_stopped);
	CHECK(events_seen & LINE_EVENT_FLOW);
	events_seen = 0;
	feed("x"); /* not IXANY: an ordinary byte does not restart */
	CHECK(line.output_stopped);
	feed("\021");
	CHECK(!line.output_stopped);
	CHECK(events_seen & LINE_EVENT_FLOW);
	feed("\n");
	CHECK_STR(read_line(), "x\n"); /* ^S and ^Q never reach the reader */
	set_iflag(IXANY, 0);
	feed("\023y");
	CHECK(!line.output_stopped);
	set_iflag(0, IXON);
	feed("\023\n");
	CHECK_STR(read_line(), "y\023\n");
	CHECK_EQ_U64(line.counters.flow_stops, 2);
}

static void test_raw_mode_hands_out_bytes_at_once(void)
{
	reset();
	set_lflag(0, ICANON | ECHO | ISIG | IEXTEN);
	set_iflag(0, ICRNL | IXON);
	feed_bytes("a\0\177\003\r\025", 6);
	CHECK(events_seen & LINE_EVENT_INPUT);
	CHECK_EQ_U64(line_discipline_readable(&line), 6);
	uint8_t out[8];
	bool eof;
	CHECK_EQ_U64(line_discipline_read(&line, out, 8, &eof), 6);
	CHECK(memcmp(out, "a\0\177\003\r\025", 6) == 0);
	CHECK_STR(take_echo(), "");
}

static void test_switching_to_canonical_keeps_raw_bytes_readable(void)
{
	reset();
	set_lflag(0, ICANON);
	feed("abc");
	CHECK_STR(take_echo(), "abc");
	set_lflag(ICANON, 0);
	CHECK(line_discipline_input_ready(&line));
	CHECK_STR(read_line(), "abc");
	feed("de"); /* canonical again: held until the line ends */
	set_lflag(0, ICANON);
	CHECK_STR(read_line(), "de");
}

static void test_breaks_and_errors_per_termios(void)
{
	reset(); /* default: neither IGNBRK nor BRKINT: a break reads as \0 */
	line_discipline_receive(&line, 0, 0x10);
	feed("\n");
	bool eof;
	uint8_t out[8];
	CHECK_EQ_U64(line_discipline_read(&line, out, 8, &eof), 2);
	CHECK(out[0] == 0 && out[1] == '\n');
	set_iflag(IGNBRK, 0);
	line_discipline_receive(&line, 0, 0x10);
	CHECK(!line_discipline_input_ready(&line));
	set_iflag(BRKINT, IGNBRK);
	uint32_t events = line_discipline_receive(&line, 0, 0x10);
	CHECK(events & LINE_EVENT_SIGNAL);
	CHECK_EQ_U64(line.signal, LINE_SIGINT);
	set_iflag(PARMRK, BRKINT);
	set_lflag(0, ICANON);
	line_discipline_receive(&line, 0, 0x10);
	CHECK_EQ_U64(line_discipline_read(&line, out, 8, &eof), 3);
	CHECK(memcmp(out, "\377\0\0", 3) == 0);
	/* Parity error: ignored by INPCK|IGNPAR, marked by INPCK|PARMRK, \0 by INPCK
	 * alone, received as it is without INPCK. */
	line_discipline_receive(&line, 'p', 0x04);
	CHECK_EQ_U64(line_discipline_read(&line, out, 8, &eof), 1);
	CHECK(out[0] == 'p');
	set_iflag(INPCK, 0);
	line_discipline_receive(&line, 'p', 0x08);
	CHECK_EQ_U64(line_discipline_read(&line, out, 8, &eof), 3);
	CHECK(memcmp(out, "\377\0p", 3) == 0);
	set_iflag(IGNPAR, 0);
	line_discipline_receive(&line, 'p', 0x04);
	CHECK(!line_discipline_input_ready(&line));
	set_iflag(0, IGNPAR | PARMRK);
	line_discipline_receive(&line, 'p', 0x04);
	CHECK_EQ_U64(line_discipline_read(&line, out, 8, &eof), 1);
	CHECK(out[0] == 0);
	set_iflag(PARMRK, 0);
	feed("\377"); /* a real \377 under PARMRK is doubled */
	CHECK_EQ_U64(line_discipline_read(&line, out, 8, &eof), 2);
	CHECK(out[0] == 0377 && out[1] == 0377);
	CHECK_EQ_U64(line.counters.breaks, 4);
	CHECK_EQ_U64(line.counters.bad_bytes, 4);
}

static void test_full_buffer_counts_what_it_drops(void)
{
	reset();
	set_lflag(0, ICANON | ECHO);
	for (int i = 0; i < LINE_BUFFER_SIZE + 10; i++)
		line_discipline_receive(&line, 'x', 0);
	CHECK_EQ_U64(line_discipline_readable(&line), LINE_BUFFER_SIZE);
	CHECK_EQ_U64(line.counters.input_dropped, 10);
	/* Canonical: the last slot is kept for the newline. */
	reset();
	set_lflag(0, ECHO);
	for (int i = 0; i < LINE_BUFFER_SIZE + 10; i++)
		line_discipline_receive(&line, 'x', 0);
	line_discipline_receive(&line, '\n', 0);
	CHECK_EQ_U64(line_discipline_readable(&line), LINE_BUFFER_SIZE);
	CHECK_EQ_U64(line.counters.input_dropped, 11);
}

/* The STOP/START waiting to be sent, taken (0: none). */
static uint8_t take_flow_char(void)
{
	uint8_t c = line.flow_char;
	line.flow_char = 0;
	return c;
}

static void test_ixoff_sends_stop_and_start(void)
{
	reset();
	set_lflag(0, ICANON | ECHO);
	set_iflag(IXOFF, 0);
	for (int i = 0; i < LINE_BUFFER_SIZE - LINE_THROTTLE_ROOM; i++)
		line_discipline_receive(&line, 'x', 0);
	CHECK_EQ_U64(take_flow_char(), 0);
	line_discipline_receive(&line, 'x', 0);
	CHECK_EQ_U64(take_flow_char(), 023);
	CHECK(line.throttled);
	static uint8_t out[LINE_BUFFER_SIZE];
	bool eof;
	line_discipline_read(&line, out, LINE_BUFFER_SIZE - 2 * LINE_THROTTLE_ROOM, &eof);
	CHECK_EQ_U64(take_flow_char(), 0); /* still more than the threshold queued */
	line_discipline_read(&line, out, LINE_BUFFER_SIZE, &eof);
	CHECK_EQ_U64(take_flow_char(), 021);
	CHECK_EQ_U64(line.counters.throttles, 1);
}

/* Under a TX flood echo waits for room and fills up; IXOFF's STOP must still go, and
 * not behind the echo (Linux's x_char): it has its own slot, never in `echo`. */
static void test_stop_is_not_dropped_with_the_echo(void)
{
	reset();
	set_iflag(IXOFF, 0); /* ICANON and ECHO: the defaults */
	for (int i = 0; i < LINE_BUFFER_SIZE - LINE_THROTTLE_ROOM + 1; i++)
		line_discipline_receive(&line, 'x', 0); /* nobody takes the echo */
	CHECK_EQ_U64(line.echo_length, LINE_ECHO_SIZE);
	CHECK(line.counters.echo_dropped > 0);
	CHECK_EQ_U64(line.counters.throttles, 1);
	CHECK_EQ_U64(line.flow_char, 023);
	CHECK(memchr(line.echo, 023, line.echo_length) == NULL); /* not behind the echo */
	/* A START before the STOP went replaces it (uart_send_xchar overwrites x_char). */
	line_discipline_receive(&line, '\n', 0);
	static uint8_t out[LINE_BUFFER_SIZE];
	bool eof;
	line_discipline_read(&line, out, sizeof out, &eof);
	CHECK_EQ_U64(take_flow_char(), 021);
	/* TCIOFF / TCION's characters take the same slot. */
	line_discipline_send_flow_char(&line, 023);
	CHECK_EQ_U64(take_flow_char(), 023);
	CHECK(memchr(line.echo, 023, line.echo_length) == NULL);
}

static void test_output_processing(void)
{
	reset();
	uint8_t out[64];
	size_t n = line_discipline_process_output(&line, (const uint8_t *)"a\nb\r", 4, out);
	CHECK_EQ_U64(n, 5);
	CHECK(memcmp(out, "a\r\nb\r", 5) == 0);
	CHECK_EQ_U64(line.column, 0);
	struct kernel_termios t = line.termios;
	t.c_oflag = OPOST | OCRNL;
	line_discipline_set_termios(&line, &t);
	n = line_discipline_process_output(&line, (const uint8_t *)"a\r\n", 3, out);
	CHECK_EQ_U64(n, 3);
	CHECK(memcmp(out, "a\n\n", 3) == 0);
	t.c_oflag = OPOST | ONOCR | OLCUC;
	line_discipline_set_termios(&line, &t);
	line.column = 0;
	n = line_discipline_process_output(&line, (const uint8_t *)"\rab\r", 4, out);
	CHECK_EQ_U64(n, 3);
	CHECK(memcmp(out, "AB\r", 3) == 0);
	t.c_oflag = ONLCR; /* no OPOST: nothing happens */
	line_discipline_set_termios(&line, &t);
	n = line_discipline_process_output(&line, (const uint8_t *)"a\n", 2, out);
	CHECK_EQ_U64(n, 2);
	CHECK(memcmp(out, "a\n", 2) == 0);
}

/* A write the backend took only part of (a signal): the input count that went whole. */
static void test_output_taken_after_a_partial_write(void)
{
	reset();
	uint8_t out[64];
	const uint8_t *text = (const uint8_t *)"ab\ncd";
	uint32_t start = line.column;
	size_t n = line_discipline_process_output(&line, text, 6, out); /* "ab\r\ncd" */
	CHECK_EQ_U64(n, 7);
	CHECK_EQ_U64(line_discipline_output_taken(&line, start, text, 6, 7), 6);
	CHECK_EQ_U64(line_discipline_output_taken(&line, start, text, 6, 0), 0);
	CHECK_EQ_U64(line_discipline_output_taken(&line, start, text, 6, 2), 2);
	CHECK_EQ_U64(line.column, 2);
	/* "\r" of "\r\n" went, "\n" not: the newline counts as not written */
	CHECK_EQ_U64(line_discipline_output_taken(&line, start, text, 6, 3), 2);
	CHECK_EQ_U64(line_discipline_output_taken(&line, start, text, 6, 4), 3);
	CHECK_EQ_U64(line.column, 0);
	CHECK_EQ_U64(line_discipline_output_taken(&line, start, text, 6, 5), 4);
	CHECK_EQ_U64(line.column, 1);
}

int main(void)
{
	RUN(test_defaults_are_linux);
	RUN(test_canonical_line_is_held_until_newline);
	RUN(test_erase_kill_and_retype);
	RUN(test_kill_without_echoke_echoes_it_and_newline);
	RUN(test_erase_without_echoe_shows_the_character);
	RUN(test_word_erase);
	RUN(test_erase_on_empty_line_does_nothing);
	RUN(test_erase_control_character_and_tab);
	RUN(test_utf8_erase_takes_the_whole_character);
	RUN(test_eof_at_empty_line_reads_zero);
	RUN(test_eof_after_text_ends_the_line_without_itself);
	RUN(test_partial_reads_of_a_line);
	RUN(test_veol_ends_a_line);
	RUN(test_lnext_takes_the_next_byte_literally);
	RUN(test_reprint);
	RUN(test_echo_off_and_echonl);
	RUN(test_input_mapping);
	RUN(test_isig_flushes_echoes_and_signals);
	RUN(test_ixon_stops_and_starts_output);
	RUN(test_raw_mode_hands_out_bytes_at_once);
	RUN(test_switching_to_canonical_keeps_raw_bytes_readable);
	RUN(test_breaks_and_errors_per_termios);
	RUN(test_full_buffer_counts_what_it_drops);
	RUN(test_ixoff_sends_stop_and_start);
	RUN(test_stop_is_not_dropped_with_the_echo);
	RUN(test_output_processing);
	RUN(test_output_taken_after_a_partial_write);
	return check_summary();
}
