/* The line discipline; see line_discipline.h. The order of the receive steps, the
 * echo forms and the erase rules follow Linux drivers/tty/n_tty.c
 * (n_tty_receive_char_special, eraser, echo_char, isig, n_tty_receive_break,
 * n_tty_receive_parity_error); POSIX.1-2017 "General Terminal Interface" (XBD 11)
 * defines what each flag means. Callers hold the console input lock; nothing here
 * sleeps or touches hardware. */
#include "drivers/console/line_discipline.h"

/* UART_ERROR_* (drivers/uart/uart.h), as the backends hand them over. */
#define ERROR_OVERRUN 0x02
#define ERROR_PARITY  0x04
#define ERROR_FRAMING 0x08
#define ERROR_BREAK   0x10

#define MASK        (LINE_BUFFER_SIZE - 1)
#define DISABLED    0 /* _POSIX_VDISABLE on Linux: a c_cc entry of 0 matches nothing */
#define TAB_WIDTH   8
#define CONTROL(c)  ((c)&037)
#define DELETE_CHAR 0177

static bool is_control(uint8_t c)
{
	return c < ' ' || c == DELETE_CHAR;
}

static bool flag(const struct line_discipline *line, uint32_t lflag)
{
	return (line->termios.c_lflag & lflag) != 0;
}

static bool iflag(const struct line_discipline *line, uint32_t bits)
{
	return (line->termios.c_iflag & bits) != 0;
}

/* c is the special character at `index`, which is not disabled. */
static bool is_char(const struct line_discipline *line, uint8_t c, int index)
{
	uint8_t special = line->termios.c_cc[index];
	return special != DISABLED && c == special;
}

static bool bit_get(const uint8_t *bits, uint32_t index)
{
	index &= MASK;
	return (bits[index >> 3] >> (index & 7)) & 1;
}

static void bit_put(uint8_t *bits, uint32_t index, bool value)
{
	index &= MASK;
	if (value)
		bits[index >> 3] |= (uint8_t)(1u << (index & 7));
	else
		bits[index >> 3] &= (uint8_t) ~(1u << (index & 7));
}

void line_discipline_init(struct line_discipline *line, uint32_t speed_code)
{
	uint8_t *bytes = (uint8_t *)line;
	for (size_t i = 0; i < sizeof *line; i++)
		bytes[i] = 0;
	/* tty_std_termios (Linux drivers/tty/tty_io.c); CLOCAL added: no modem lines. */
	line->termios.c_iflag = ICRNL | IXON;
	line->termios.c_oflag = OPOST | ONLCR;
	line->termios.c_cflag = speed_code | CS8 | CREAD | HUPCL | CLOCAL;
	line->termios.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN;
	/* INIT_C_CC (Linux include/linux/tty.h), in termbits.h's index order. */
	static const uint8_t defaults[TERMIOS_NCCS] = {
	    [VINTR] = CONTROL('C'),
	    [VQUIT] = CONTROL('\\'),
	    [VERASE] = DELETE_CHAR,
	    [VKILL] = CONTROL('U'),
	    [VEOF] = CONTROL('D'),
	    [VTIME] = 0,
	    [VMIN] = 1,
	    [VSTART] = CONTROL('Q'),
	    [VSTOP] = CONTROL('S'),
	    [VSUSP] = CONTROL('Z'),
	    [VREPRINT] = CONTROL('R'),
	    [VDISCARD] = CONTROL('O'),
	    [VWERASE] = CONTROL('W'),
	    [VLNEXT] = CONTROL('V'),
	};
	for (int i = 0; i < TERMIOS_NCCS; i++)
		line->termios.c_cc[i] = defaults[i];
}

/* ---------------------------------------------------------------- output and echo */

/* The column after printing c at `column` (a UTF-8 continuation byte takes none). */
static uint32_t column_after(uint32_t column, uint8_t c)
{
	if (c == '\t')
		return (column | (TAB_WIDTH - 1)) + 1;
	if (c == '\b')
		return column ? column - 1 : 0;
	if (c == '\r' || c == '\n')
		return 0;
	if (is_control(c) || (c & 0xc0) == 0x80)
		return column;
	return column + 1;
}

/* One output byte through OPOST into out[]; returns how many bytes it became (0-2).
 * n_tty's do_output_char. */
static size_t output_byte(struct line_discipline *line, uint8_t c, uint8_t *out)
{
	uint32_t oflag = line->termios.c_oflag;
	if (!(oflag & OPOST)) {
		out[0] = c;
		return 1;
	}
	switch (c) {
	case '\n':
		if (oflag & ONLRET)
			line->column = 0;
		if (oflag & ONLCR) {
			line->column = 0;
			out[0] = '\r';
			out[1] = '\n';
			return 2;
		}
		out[0] = '\n';
		return 1;
	case '\r':
		if ((oflag & ONOCR) && line->column == 0)
			return 0;
		if (oflag & OCRNL) {
			if (oflag & ONLRET)
				line->column = 0;
			out[0] = '\n';
			return 1;
		}
		line->column = 0;
		out[0] = '\r';
		return 1;
	default:
		if ((oflag & OLCUC) && c >= 'a' && c <= 'z')
			c = (uint8_t)(c - 'a' + 'A');
		line->column = column_after(line->column, c);
		out[0] = c;
		return 1;
	}
}

size_t line_discipline_process_output(struct line_discipline *line, const uint8_t *in,
                                      size_t length, uint8_t *out)
{
	size_t produced = 0;
	for (size_t i = 0; i < length; i++)
		produced += output_byte(line, in[i], out + produced);
	return produced;
}

size_t line_discipline_output_taken(struct line_discipline *line, uint32_t start_column,
                                    const uint8_t *in, size_t length, size_t sent)
{
	uint8_t scratch[2];
	size_t produced = 0;
	line->column = start_column;
	for (size_t i = 0; i < length; i++) {
		uint32_t column = line->column;
		size_t count = output_byte(line, in[i], scratch);
		if (produced + count > sent) {
			line->column = column;
			return i;
		}
		produced += count;
	}
	return length;
}

static void echo_put(struct line_discipline *line, uint8_t c)
{
	if (line->echo_length == LINE_ECHO_SIZE) {
		line->counters.echo_dropped++;
		return;
	}
	line->echo[line->echo_length++] = c;
	line->counters.echoed++;
}

void line_discipline_send_flow_char(struct line_discipline *line, uint8_t byte)
{
	line->flow_char = byte;
}

/* Echo c through OPOST, as written output would go (n_tty's echo_char_raw). */
static void echo_raw(struct line_discipline *line, uint8_t c)
{
	uint8_t out[2];
	size_t count = output_byte(line, c, out);
	for (size_t i = 0; i < count; i++)
		echo_put(line, out[i]);
}

/* Echo c as the user should see it: ECHOCTL shows a control character other than tab
 * and newline as ^X (DEL as ^?), n_tty's echo_char. */
static void echo_char(struct line_discipline *line, uint8_t c)
{
	if (flag(line, ECHOCTL) && is_control(c) && c != '\t' && c != '\n') {
		echo_raw(line, '^');
		echo_raw(line, c == DELETE_CHAR ? '?' : (uint8_t)(c ^ 0100));
		return;
	}
	echo_raw(line, c);
}

/* How wide c is on the screen as echo_char shows it. */
static uint32_t echo_width(const struct line_discipline *line, uint8_t c, uint32_t column)
{
	if (c == '\t')
		return ((column | (TAB_WIDTH - 1)) + 1) - column;
	if (is_control(c))
		return flag(line, ECHOCTL) ? 2 : 0;
	return (c & 0xc0) == 0x80 ? 0 : 1;
}

/* ---------------------------------------------------------------- the buffer */

static uint32_t used(const struct line_discipline *line)
{
	return line->head - line->tail;
}

/* Put c at the head. Canonical mode keeps the last slot for the line's end, so a full
 * line can still be ended (n_tty does the same); returns false when there is no room. */
static bool put(struct line_discipline *line, uint8_t c, bool ends_line)
{
	uint32_t limit = LINE_BUFFER_SIZE - (flag(line, ICANON) && !ends_line ? 1 : 0);
	if (used(line) >= limit) {
		line->counters.input_dropped++;
		return false;
	}
	line->buffer[line->head & MASK] = c;
	bit_put(line->line_end, line->head, ends_line);
	bit_put(line->end_of_file, line->head, false);
	line->head++;
	return true;
}

/* Canonical: the line being edited is complete (n_tty_receive_handle_newline). */
static void end_line(struct line_discipline *line)
{
	line->committed = line->head;
	line->line_column = line->column;
	line->counters.lines++;
}

/* Non-canonical bytes are readable at once. */
static void commit_if_raw(struct line_discipline *line)
{
	if (!flag(line, ICANON))
		line->committed = line->head;
}

void line_discipline_flush_input(struct line_discipline *line)
{
	line->tail = line->committed = line->head;
	line->line_column = line->column;
	line->literal_next = false;
}

/* ---------------------------------------------------------------- editing */

enum erase_kind { ERASE_CHARACTER, ERASE_WORD, ERASE_LINE };

static bool is_word_char(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_' || c >= 0x80;
}

/* The column the byte at index `at` of the line being edited starts at. An `at` before
 * the line's start (a caller's bug: erasing past it) gives the line's start column
 * rather than a walk of 2^32 slots round the buffer. */
static uint32_t column_of(const struct line_discipline *line, uint32_t at)
{
	uint32_t column = line->line_column;
	for (uint32_t i = line->committed; (int32_t)(at - i) > 0; i++)
		column += echo_width(line, line->buffer[i & MASK], column);
	return column;
}

/* Remove the last character of the line being edited (every byte of a UTF-8
 * sequence under IUTF8) and rub it out on the screen under ECHO|ECHOE. */
static void erase_one(struct line_discipline *line)
{
	uint32_t at = line->head - 1;
	if (iflag(line, IUTF8))
		while (at != line->committed && (line->buffer[at & MASK] & 0xc0) == 0x80)
			at--;
	uint8_t first = line->buffer[at & MASK];
	uint32_t start_column = column_of(line, at);
	uint32_t width = 0;
	for (uint32_t i = at; i != line->head; i++)
		width += echo_width(line, line->buffer[i & MASK], start_column + width);
	line->head = at;
	if (!flag(line, ECHO) || !flag(line, ECHOE))
		return;
	bool tab = first == '\t';
	for (uint32_t i = 0; i < width; i++) {
		echo_raw(line, '\b');
		if (!tab) { /* a tab is only backed over (n_tty's ECHO_OP_ERASE_TAB) */
			echo_raw(line, ' ');
			echo_raw(line, '\b');
		}
	}
}

/* VERASE, VWERASE, VKILL on the line being edited (n_tty's eraser): receive_canonical
 * calls it for the special character `c` of `kind`; the caller holds the console input
 * lock (input.c); it never sleeps. Lab line-edit has students write it
 * (docs/teaching/labs/line-edit.md). What it does:
 *   - Only the line being edited, [committed, head), shrinks: a finished line before
 *     `committed`, read or not, is never touched. On an empty line nothing happens:
 *     nothing erased, echoed or counted.
 *   - Otherwise counters.edits counts the character once, whatever it erased.
 *   - ERASE_CHARACTER: the last character goes (erase_one: a whole UTF-8 sequence, rubbed
 *     out under ECHO|ECHOE, "\b \b" per column it took, a tab only backed over). Under
 *     ECHO without ECHOE, `c` itself is echoed instead (echo_char: "^?").
 *   - ERASE_WORD: the non-word characters at the end of the line go, then the word
 *     (is_word_char) before them, each through erase_one; the blank before that word
 *     stays.
 *   - ERASE_LINE: the whole line goes. Under ECHO with ECHOK, ECHOKE and ECHOE it is
 *     rubbed out character by character (erase_one); under ECHO without all three, `c`
 *     is echoed (echo_char: "^U"), then a newline if ECHOK, and the next line starts at
 *     the column that leaves (line_column). Without ECHO nothing is echoed. */
static void erase(struct line_discipline *line, uint8_t c, enum erase_kind kind)
{
	if (line->head == line->committed)
		return; /* nothing to erase: no echo either */
	line->counters.edits++;
	if (kind == ERASE_LINE) {
		if (!flag(line, ECHO)) {
			line->head = line->committed;
			return;
		}
		if (!flag(line, ECHOK) || !flag(line, ECHOKE) || !flag(line, ECHOE)) {
			line->head = line->committed;
			echo_char(line, c);
			if (flag(line, ECHOK))
				echo_raw(line, '\n');
			line->line_column = line->column;
			return;
		}
	}
	if (kind == ERASE_CHARACTER && flag(line, ECHO) && !flag(line, ECHOE)) {
		erase_one(line);
		echo_char(line, c); /* without ECHOE the erase character itself is shown */
		return;
	}
	bool seen_word = false;
	while (line->head != line->committed) {
		uint8_t last = line->buffer[(line->head - 1) & MASK];
		if (kind == ERASE_WORD) {
			if (is_word_char(last))
				seen_word = true;
			else if (seen_word)
				break;
		}
		erase_one(line);
		if (kind == ERASE_CHARACTER)
			break;
	}
}

/* VREPRINT: the erase-free line again on a new line (n_tty's reprint). */
static void reprint(struct line_discipline *line, uint8_t c)
{
	if (!flag(line, ECHO))
		return;
	echo_char(line, c);
	echo_raw(line, '\n');
	line->line_column = line->column;
	for (uint32_t i = line->committed; i != line->head; i++)
		echo_char(line, line->buffer[i & MASK]);
}

/* ---------------------------------------------------------------- receiving */

/* ISIG: VINTR, VQUIT, VSUSP (and a break under BRKINT): input (and output) flushed
 * unless NOFLSH, the character echoed, the signal handed up (n_tty's isig and
 * n_tty_receive_signal_char). */
static uint32_t raise_signal(struct line_discipline *line, int signal, uint8_t c, bool echo)
{
	uint32_t events = LINE_EVENT_SIGNAL;
	line->signal = signal;
	line->counters.signals++;
	if (!flag(line, NOFLSH)) {
		line_discipline_flush_input(line);
		events |= LINE_EVENT_FLUSH_OUTPUT;
	}
	if (iflag(line, IXON) && line->output_stopped) {
		line->output_stopped = false;
		events |= LINE_EVENT_FLOW;
	}
	if (echo && flag(line, ECHO)) {
		echo_char(line, c);
		line->line_column = line->column;
	}
	return events;
}

/* A byte with nothing special about it (or taken literally): into the buffer, echoed.
 * PARMRK without ISTRIP doubles a real \377 so that it cannot be read as a mark. */
static uint32_t ordinary(struct line_discipline *line, uint8_t c)
{
	if (c == 0377 && iflag(line, PARMRK) && !iflag(line, ISTRIP))
		put(line, c, false);
	if (!put(line, c, false))
		return 0;
	if (flag(line, ECHO))
		echo_char(line, c);
	commit_if_raw(line);
	return flag(line, ICANON) ? 0 : LINE_EVENT_INPUT;
}

/* A marked byte for PARMRK: \377 \0 c (c = \0 for a break). */
static uint32_t marked(struct line_discipline *line, uint8_t c)
{
	put(line, 0377, false);
	put(line, 0, false);
	put(line, c, false);
	commit_if_raw(line);
	return flag(line, ICANON) ? 0 : LINE_EVENT_INPUT;
}

/* A break, or a byte with a parity or framing error (n_tty_receive_break,
 * n_tty_receive_parity_error). Returns the events, or ~0u when the byte is to be
 * received normally after all. */
static uint32_t receive_error(struct line_discipline *line, uint8_t c, uint8_t errors)
{
	if (errors & ERROR_BREAK) {
		line->counters.breaks++;
		if (iflag(line, IGNBRK))
			return 0;
		if (iflag(line, BRKINT)) /* SIGINT whatever ISIG says, as n_tty */
			return raise_signal(line, LINE_SIGINT, 0, false);
		if (iflag(line, PARMRK))
			return marked(line, 0);
		return ordinary(line, 0);
	}
	line->counters.bad_bytes++;
	if (!iflag(line, INPCK))
		return ~0u;
	if (iflag(line, IGNPAR))
		return 0;
	if (iflag(line, PARMRK))
		return marked(line, c);
	return ordinary(line, 0);
}

/* IXOFF: ask the sender to stop before the buffer overflows. */
static void throttle_if_full(struct line_discipline *line)
{
	if (!iflag(line, IXOFF) || line->throttled)
		return;
	if (LINE_BUFFER_SIZE - used(line) < LINE_THROTTLE_ROOM &&
	    line->termios.c_cc[VSTOP] != DISABLED) {
		line->throttled = true;
		line->counters.throttles++;
		line_discipline_send_flow_char(line, line->termios.c_cc[VSTOP]);
	}
}

/* Canonical mode's special characters; returns ~0u for a byte that is ordinary. */
static uint32_t receive_canonical(struct line_discipline *line, uint8_t c)
{
	bool extended = flag(line, IEXTEN);
	if (is_char(line, c, VERASE)) {
		erase(line, c, ERASE_CHARACTER);
		return 0;
	}
	if (is_char(line, c, VKILL)) {
		erase(line, c, ERASE_LINE);
		return 0;
	}
	if (extended && is_char(line, c, VWERASE)) {
		erase(line, c, ERASE_WORD);
		return 0;
	}
	if (extended && is_char(line, c, VREPRINT)) {
		reprint(line, c);
		return 0;
	}
	if (c == '\n') {
		if (!put(line, c, true))
			return 0;
		if (flag(line, ECHO) || flag(line, ECHONL))
			echo_raw(line, '\n');
		end_line(line);
		return LINE_EVENT_INPUT;
	}
	if (is_char(line, c, VEOF)) {
		if (!put(line, c, true))
			return 0;
		bit_put(line->end_of_file, line->head - 1, true); /* not echoed, never read */
		end_line(line);
		return LINE_EVENT_INPUT;
	}
	if (is_char(line, c, VEOL) || (extended && is_char(line, c, VEOL2))) {
		if (!put(line, c, true))
			return 0;
		if (flag(line, ECHO))
			echo_char(line, c);
		end_line(line);
		return LINE_EVENT_INPUT;
	}
	return ~0u;
}

uint32_t line_discipline_receive(struct line_discipline *line, uint8_t c, uint8_t errors)
{
	line->counters.received++;
	uint32_t events = 0;
	bool was_stopped = line->output_stopped;
	if (errors & (ERROR_BREAK | ERROR_PARITY | ERROR_FRAMING)) {
		uint32_t handled = receive_error(line, c, errors);
		if (handled != ~0u) {
			throttle_if_full(line);
			return handled;
		}
	}
	if (iflag(line, ISTRIP))
		c &= 0177;
	if (line->literal_next) {
		line->literal_next = false;
		events = ordinary(line, c);
		goto done;
	}
	if (iflag(line, IXON)) {
		if (line->output_stopped && iflag(line, IXANY))
			line->output_stopped = false;
		if (is_char(line, c, VSTART)) {
			line->output_stopped = false;
			goto done;
		}
		if (is_char(line, c, VSTOP)) {
			if (!line->output_stopped)
				line->counters.flow_stops++;
			line->output_stopped = true;
			goto done;
		}
	}
	if (flag(line, ISIG)) {
		int signal = is_char(line, c, VINTR)   ? LINE_SIGINT
		             : is_char(line, c, VQUIT) ? LINE_SIGQUIT
		             : is_char(line, c, VSUSP) ? LINE_SIGTSTP
		                                       : 0;
		if (signal) {
			events = raise_signal(line, signal, c, true);
			goto done;
		}
	}
	if (flag(line, IEXTEN) && is_char(line, c, VLNEXT) && flag(line, ICANON)) {
		line->literal_next = true;
		if (flag(line, ECHO) && flag(line, ECHOCTL)) {
			echo_raw(line, '^');
			echo_raw(line, '\b');
		}
		goto done;
	}
	if (c == '\r') {
		if (iflag(line, IGNCR))
			goto done;
		if (iflag(line, ICRNL))
			c = '\n';
	} else if (c == '\n' && iflag(line, INLCR)) {
		c = '\r';
	}
	if (flag(line, ICANON)) {
		uint32_t special = receive_canonical(line, c);
		if (special != ~0u) {
			events = special;
			goto done;
		}
	}
	events = ordinary(line, c);
done:
	if (line->output_stopped != was_stopped)
		events |= LINE_EVENT_FLOW;
	throttle_if_full(line);
	return events;
}

/* ---------------------------------------------------------------- reading */

void line_discipline_set_termios(struct line_discipline *line, const struct kernel_termios *t)
{
	bool was_canonical = flag(line, ICANON);
	bool was_ixon = iflag(line, IXON);
	line->termios = *t;
	if (was_canonical != flag(line, ICANON)) {
		/* Whatever is buffered becomes readable at once (n_tty_set_termios). */
		for (uint32_t i = line->tail; i != line->head; i++)
			bit_put(line->line_end, i, false);
		if (line->head != line->tail)
			bit_put(line->line_end, line->head - 1, true);
		line->committed = line->head;
		line->line_column = line->column;
		line->literal_next = false;
	}
	if (was_ixon && !iflag(line, IXON))
		line->output_stopped = false; /* the caller tells the backend */
}

uint32_t line_discipline_readable(const struct line_discipline *line)
{
	uint32_t count = 0;
	for (uint32_t i = line->tail; i != line->committed; i++)
		if (!bit_get(line->end_of_file, i))
			count++;
	return count;
}

bool line_discipline_input_ready(const struct line_discipline *line)
{
	return __atomic_load_n(&line->committed, __ATOMIC_ACQUIRE) !=
	       __atomic_load_n(&line->tail, __ATOMIC_RELAXED);
}

/* IXOFF: the reader has made room again. */
static void unthrottle_if_empty(struct line_discipline *line)
{
	if (line->throttled && used(line) < LINE_THROTTLE_ROOM) {
		line->throttled = false;
		if (line->termios.c_cc[VSTART] != DISABLED)
			line_discipline_send_flow_char(line, line->termios.c_cc[VSTART]);
	}
}

uint32_t line_discipline_read(struct line_discipline *line, uint8_t *out, uint32_t length,
                              bool *end_of_file)
{
	uint32_t count = 0;
	*end_of_file = false;
	bool canonical = flag(line, ICANON);
	while (count < length && line->tail != line->committed) {
		uint32_t at = line->tail;
		if (canonical && bit_get(line->end_of_file, at)) {
			line->tail++;
			*end_of_file = count == 0;
			break; /* the marker ends the line; alone it is end of file */
		}
		out[count++] = line->buffer[at & MASK];
		line->tail++;
		if (canonical && bit_get(line->line_end, at))
			break;
	}
	if (canonical && count == length && line->tail != line->committed &&
	    bit_get(line->end_of_file, line->tail) && bit_get(line->line_end, line->tail))
		line->tail++; /* "abc^D" read with room for 3: the marker goes with it */
	unthrottle_if_empty(line);
	return count;
}
