/* stty: show or change the terminal settings of fd 0, as POSIX stty and GNU coreutils'
 * stty do, for the flags Duplex's line discipline implements.
 *
 *   stty, stty -a        everything: speed, rows, columns, every c_cc, every flag (GNU
 *                        stty without -a shows only what differs from "sane"; this
 *                        one always shows all)
 *   stty size            "ROWS COLUMNS"
 *   stty speed           the speed in baud
 *   stty SETTING...      each of: raw, -raw (= cooked), sane, [-]echo, [-]icanon,
 *                        [-]isig, [-]iexten, [-]ixon, [-]ixoff, [-]icrnl, [-]opost,
 *                        [-]onlcr, [-]echoe, [-]echok, [-]echonl, [-]echoctl,
 *                        [-]echoke, [-]noflsh, [-]istrip, [-]inlcr, [-]igncr,
 *                        [-]ignbrk, [-]brkint, [-]parmrk, [-]inpck, [-]ignpar,
 *                        [-]ixany, [-]iutf8, [-]ocrnl, [-]onocr, [-]onlret,
 *                        [-]olcuc, rows N, cols N (columns N), min N, time N,
 *                        BAUD (a number: the speed), intr/quit/erase/kill/eof/eol/
 *                        eol2/start/stop/susp/rprnt/werase/lnext/discard C (^X, ^?,
 *                        undef, or a character)
 * Settings apply with TCSETSW (tcsetattr TCSADRAIN), the window size with TIOCSWINSZ. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>

enum field { INPUT, OUTPUT, CONTROL, LOCAL };

static const struct flag {
	const char *name;
	enum field field;
	tcflag_t bit;
} flags[] = {
    {"parenb", CONTROL, PARENB}, {"parodd", CONTROL, PARODD}, {"cstopb", CONTROL, CSTOPB},
    {"cread", CONTROL, CREAD},   {"hupcl", CONTROL, HUPCL},   {"clocal", CONTROL, CLOCAL},
    {"ignbrk", INPUT, IGNBRK},   {"brkint", INPUT, BRKINT},   {"ignpar", INPUT, IGNPAR},
    {"parmrk", INPUT, PARMRK},   {"inpck", INPUT, INPCK},     {"istrip", INPUT, ISTRIP},
    {"inlcr", INPUT, INLCR},     {"igncr", INPUT, IGNCR},     {"icrnl", INPUT, ICRNL},
    {"ixon", INPUT, IXON},       {"ixoff", INPUT, IXOFF},     {"ixany", INPUT, IXANY},
    {"imaxbel", INPUT, IMAXBEL}, {"iutf8", INPUT, IUTF8},     {"opost", OUTPUT, OPOST},
    {"olcuc", OUTPUT, OLCUC},    {"ocrnl", OUTPUT, OCRNL},    {"onlcr", OUTPUT, ONLCR},
    {"onocr", OUTPUT, ONOCR},    {"onlret", OUTPUT, ONLRET},  {"isig", LOCAL, ISIG},
    {"icanon", LOCAL, ICANON},   {"iexten", LOCAL, IEXTEN},   {"echo", LOCAL, ECHO},
    {"echoe", LOCAL, ECHOE},     {"echok", LOCAL, ECHOK},     {"echonl", LOCAL, ECHONL},
    {"noflsh", LOCAL, NOFLSH},   {"tostop", LOCAL, TOSTOP},   {"echoprt", LOCAL, ECHOPRT},
    {"echoctl", LOCAL, ECHOCTL}, {"echoke", LOCAL, ECHOKE},
};
#define FLAG_COUNT (sizeof flags / sizeof flags[0])

static const struct {
	const char *name;
	int index;
} characters[] = {
    {"intr", VINTR},     {"quit", VQUIT},   {"erase", VERASE},     {"kill", VKILL},
    {"eof", VEOF},       {"eol", VEOL},     {"eol2", VEOL2},       {"swtch", VSWTC},
    {"start", VSTART},   {"stop", VSTOP},   {"susp", VSUSP},       {"rprnt", VREPRINT},
    {"werase", VWERASE}, {"lnext", VLNEXT}, {"discard", VDISCARD},
};
#define CHARACTER_COUNT (sizeof characters / sizeof characters[0])

static const struct {
	speed_t code;
	unsigned long baud;
} speeds[] = {
    {B50, 50},           {B75, 75},           {B110, 110},         {B134, 134},
    {B150, 150},         {B200, 200},         {B300, 300},         {B600, 600},
    {B1200, 1200},       {B1800, 1800},       {B2400, 2400},       {B4800, 4800},
    {B9600, 9600},       {B19200, 19200},     {B38400, 38400},     {B57600, 57600},
    {B115200, 115200},   {B230400, 230400},   {B460800, 460800},   {B500000, 500000},
    {B576000, 576000},   {B921600, 921600},   {B1000000, 1000000}, {B1500000, 1500000},
    {B2000000, 2000000}, {B3000000, 3000000}, {B4000000, 4000000},
};
#define SPEED_COUNT (sizeof speeds / sizeof speeds[0])

static tcflag_t *field_of(struct termios *t, enum field field)
{
	switch (field) {
	case INPUT:
		return &t->c_iflag;
	case OUTPUT:
		return &t->c_oflag;
	case CONTROL:
		return &t->c_cflag;
	default:
		return &t->c_lflag;
	}
}

static unsigned long baud_of(speed_t code)
{
	for (size_t i = 0; i < SPEED_COUNT; i++)
		if (speeds[i].code == code)
			return speeds[i].baud;
	return 0;
}

/* A c_cc value as stty shows it: ^C, ^?, <undef>, or the character. */
static const char *show_character(unsigned char c)
{
	static char text[8];
	if (c == 0)
		return "<undef>";
	if (c == 0177)
		return "^?";
	if (c < ' ')
		snprintf(text, sizeof text, "^%c", c + '@');
	else
		snprintf(text, sizeof text, "%c", c);
	return text;
}

static int parse_character(const char *text, unsigned char *c)
{
	if (strcmp(text, "undef") == 0 || strcmp(text, "^-") == 0)
		*c = 0;
	else if (text[0] == '^' && text[1] == '?' && !text[2])
		*c = 0177;
	else if (text[0] == '^' && text[1] && !text[2])
		*c = (unsigned char)(text[1] & 037);
	else if (text[0] && !text[1])
		*c = (unsigned char)text[0];
	else
		return -1;
	return 0;
}

static void print_all(const struct termios *t, const struct winsize *size)
{
	printf("speed %lu baud; rows %u; columns %u; line = %u;\n", baud_of(cfgetospeed(t)),
	       size->ws_row, size->ws_col, t->c_line);
	for (size_t i = 0; i < CHARACTER_COUNT; i++)
		printf("%s = %s; ", characters[i].name,
		       show_character(t->c_cc[characters[i].index]));
	printf("min = %u; time = %u;\n", t->c_cc[VMIN], t->c_cc[VTIME]);
	printf("cs%d", (t->c_cflag & CSIZE) == CS8 ? 8 : (t->c_cflag & CSIZE) == CS7 ? 7 : 6);
	enum field last = CONTROL;
	for (size_t i = 0; i < FLAG_COUNT; i++) {
		struct termios copy = *t;
		if (flags[i].field != last)
			printf("\n");
		else
			printf(" ");
		last = flags[i].field;
		printf("%s%s", (*field_of(&copy, flags[i].field) & flags[i].bit) ? "" : "-",
		       flags[i].name);
	}
	printf("\n");
}

static void make_raw(struct termios *t)
{
	t->c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | IGNPAR | PARMRK | INPCK | ISTRIP | INLCR |
	                          IGNCR | ICRNL | IXON | IXOFF | IXANY | IMAXBEL);
	t->c_oflag &= ~(tcflag_t)OPOST;
	t->c_lflag &= ~(tcflag_t)(ISIG | ICANON | IEXTEN | ECHO);
	t->c_cc[VMIN] = 1;
	t->c_cc[VTIME] = 0;
}

/* -raw, cooked and sane: what GNU stty restores (Linux's defaults). */
static void make_sane(struct termios *t, int all)
{
	t->c_iflag |= BRKINT | ICRNL | IXON | IMAXBEL;
	t->c_iflag &= ~(tcflag_t)(IGNBRK | INLCR | IGNCR | IXOFF | IXANY);
	t->c_oflag |= OPOST | ONLCR;
	t->c_oflag &= ~(tcflag_t)(OLCUC | OCRNL | ONOCR | ONLRET);
	t->c_lflag |= ISIG | ICANON | IEXTEN | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE;
	t->c_lflag &= ~(tcflag_t)(ECHONL | NOFLSH | TOSTOP | ECHOPRT);
	t->c_cc[VMIN] = 1;
	t->c_cc[VTIME] = 0;
	if (all) {
		static const unsigned char defaults[NCCS] = {
		    3, 034, 0177, 025, 4, 0, 1, 0, 021, 023, 032, 0, 022, 017, 027, 026, 0};
		memcpy(t->c_cc, defaults, NCCS);
	}
}

static int number(const char *text, unsigned long *value)
{
	char *end;
	errno = 0;
	*value = strtoul(text, &end, 10);
	return errno || end == text || *end ? -1 : 0;
}

static int bad(const char *what)
{
	fprintf(stderr, "stty: invalid argument '%s'\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	struct termios t;
	struct winsize size = {0, 0, 0, 0};
	if (tcgetattr(0, &t) != 0) {
		perror("stty: standard input");
		return 1;
	}
	ioctl(0, TIOCGWINSZ, &size);
	if (argc == 1 || (argc == 2 && strcmp(argv[1], "-a") == 0)) {
		print_all(&t, &size);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "size") == 0) {
		printf("%u %u\n", size.ws_row, size.ws_col);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "speed") == 0) {
		printf("%lu\n", baud_of(cfgetospeed(&t)));
		return 0;
	}
	int window_changed = 0;
	for (int i = 1; i < argc; i++) {
		const char *word = argv[i];
		int off = word[0] == '-';
		const char *name = word + off;
		unsigned long value;
		size_t f;
		for (f = 0; f < FLAG_COUNT; f++)
			if (strcmp(name, flags[f].name) == 0)
				break;
		if (f < FLAG_COUNT) {
			tcflag_t *field = field_of(&t, flags[f].field);
			*field = off ? *field & ~flags[f].bit : *field | flags[f].bit;
			continue;
		}
		if (strcmp(word, "raw") == 0) {
			make_raw(&t);
		} else if (strcmp(word, "-raw") == 0 || strcmp(word, "cooked") == 0) {
			make_sane(&t, 0);
		} else if (strcmp(word, "sane") == 0) {
			make_sane(&t, 1);
		} else if ((strcmp(word, "rows") == 0 || strcmp(word, "cols") == 0 ||
		            strcmp(word, "columns") == 0 || strcmp(word, "min") == 0 ||
		            strcmp(word, "time") == 0)) {
			if (i + 1 >= argc || number(argv[i + 1], &value) != 0 || value > 65535)
				return bad(word);
			i++;
			if (word[0] == 'r') {
				size.ws_row = (unsigned short)value;
				window_changed = 1;
			} else if (word[0] == 'c') {
				size.ws_col = (unsigned short)value;
				window_changed = 1;
			} else if (value > 255) {
				return bad(argv[i]);
			} else {
				t.c_cc[word[0] == 'm' ? VMIN : VTIME] = (cc_t)value;
			}
		} else if (number(word, &value) == 0) {
			size_t s;
			for (s = 0; s < SPEED_COUNT && speeds[s].baud != value; s++)
				;
			if (s == SPEED_COUNT)
				return bad(word);
			cfsetospeed(&t, speeds[s].code);
			cfsetispeed(&t, 0);
		} else {
			size_t c;
			for (c = 0; c < CHARACTER_COUNT; c++)
				if (strcmp(word, characters[c].name) == 0)
					break;
			unsigned char character;
			if (c == CHARACTER_COUNT || i + 1 >= argc ||
			    parse_character(argv[i + 1], &character) != 0)
				return bad(word);
			t.c_cc[characters[c].index] = character;
			i++;
		}
	}
	if (tcsetattr(0, TCSADRAIN, &t) != 0) {
		perror("stty");
		return 1;
	}
	if (window_changed && ioctl(0, TIOCSWINSZ, &size) != 0) {
		perror("stty: TIOCSWINSZ");
		return 1;
	}
	return 0;
}
