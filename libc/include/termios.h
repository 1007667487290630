/* Terminal settings (replaces picolibc's <termios.h>, which needs a <sys/termios.h> that
 * picolibc does not ship).
 *
 * struct termios is the Linux kernel's own layout (36 bytes, what TCGETS/TCSETS copy), and
 * every constant is the Linux value (uapi/termios.h), so libc passes them through
 * unchanged. */
#ifndef DUPLEX_TERMIOS_H
#define DUPLEX_TERMIOS_H

/* The flag bits, speed codes, c_cc indices and tcflush/tcflow arguments: the user ABI
 * the kernel shares (uapi/termios.h). */
#include <uapi/termios.h>

typedef unsigned int tcflag_t;
typedef unsigned char cc_t;
typedef unsigned int speed_t;

#define NCCS TERMIOS_NCCS

struct termios {
	tcflag_t c_iflag; /* input modes */
	tcflag_t c_oflag; /* output modes */
	tcflag_t c_cflag; /* control modes */
	tcflag_t c_lflag; /* local modes */
	cc_t c_line;      /* line discipline */
	cc_t c_cc[NCCS];  /* special characters */
};

/* tcsetattr() `when` */
#define TCSANOW   0 /* change now */
#define TCSADRAIN 1 /* after all output has been sent */
#define TCSAFLUSH 2 /* after all output has been sent, pending input discarded */

/* Read fd's settings into *t. 0, or -1 with errno (ENOTTY: not a terminal). */
int tcgetattr(int fd, struct termios *t);
/* Apply *t to fd now or after output drains (see `when`). 0, or -1 with errno. */
int tcsetattr(int fd, int when, const struct termios *t);
/* Turn *t into raw mode (no echo, no line editing, no signals, 8 bits, no output
 * processing), as glibc does; apply it with tcsetattr(). */
void cfmakeraw(struct termios *t);
/* The speed in *t (a B* code), as TCGETS reports the line's real one. The input
 * speed is the output speed unless set apart. */
speed_t cfgetospeed(const struct termios *t);
speed_t cfgetispeed(const struct termios *t);
/* Put a B* code into *t (0, or -1 with EINVAL for a value that is not one); apply it
 * with tcsetattr(), which fails with EINVAL if the UART cannot run at it. For the
 * input speed, 0 means "the output speed". */
int cfsetospeed(struct termios *t, speed_t speed);
int cfsetispeed(struct termios *t, speed_t speed);
/* Wait until everything written to fd has left the device. 0, or -1 with errno. */
int tcdrain(int fd);
/* Discard input received and not read / output written and not sent (TCFLSH). */
int tcflush(int fd, int queue);
/* Stop or restart output, or send STOP / START (TCXONC). */
int tcflow(int fd, int action);
/* A break on the line: 0.25 s for duration 0 (TCSBRK 0); else TCSBRKP with
 * (duration + 99) / 100 tenths of a second, as glibc does. */
int tcsendbreak(int fd, int duration);
/* The session whose controlling terminal fd is (TIOCGSID), or -1 with errno (ENOTTY:
 * not the caller's controlling terminal). tcgetpgrp and tcsetpgrp are in <unistd.h>. */
#include <sys/types.h>
pid_t tcgetsid(int fd);

#endif
