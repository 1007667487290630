/* Terminal settings (replaces picolibc's <termios.h>, which needs a <sys/termios.h> that
 * picolibc does not ship).
 *
 * struct termios is the Linux kernel's own layout (36 bytes, what TCGETS/TCSETS copy), and
 * every constant is the Linux value, so libc passes them through unchanged. Duplex's
 * console is always raw: it reports c_lflag = 0, honours OPOST and ONLCR in c_oflag
 * ('\n' is sent as "\r\n" when both are set, the default), and keeps the other fields for
 * the next TCGETS without acting on them. */
#ifndef DUPLEX_TERMIOS_H
#define DUPLEX_TERMIOS_H

typedef unsigned int tcflag_t;
typedef unsigned char cc_t;
typedef unsigned int speed_t;

#define NCCS 19

struct termios {
	tcflag_t c_iflag; /* input modes */
	tcflag_t c_oflag; /* output modes */
	tcflag_t c_cflag; /* control modes */
	tcflag_t c_lflag; /* local modes */
	cc_t c_line;      /* line discipline */
	cc_t c_cc[NCCS];  /* special characters */
};

/* c_cc indexes */
#define VINTR    0
#define VQUIT    1
#define VERASE   2
#define VKILL    3
#define VEOF     4
#define VTIME    5
#define VMIN     6
#define VSWTC    7
#define VSTART   8
#define VSTOP    9
#define VSUSP    10
#define VEOL     11
#define VREPRINT 12
#define VDISCARD 13
#define VWERASE  14
#define VLNEXT   15
#define VEOL2    16

/* c_iflag */
#define IGNBRK  0000001
#define BRKINT  0000002
#define IGNPAR  0000004
#define PARMRK  0000010
#define INPCK   0000020
#define ISTRIP  0000040
#define INLCR   0000100
#define IGNCR   0000200
#define ICRNL   0000400
#define IXON    0002000
#define IXANY   0004000
#define IXOFF   0010000
#define IMAXBEL 0020000
#define IUTF8   0040000

/* c_oflag */
#define OPOST  0000001
#define OLCUC  0000002
#define ONLCR  0000004
#define OCRNL  0000010
#define ONOCR  0000020
#define ONLRET 0000040
#define OFILL  0000100
#define OFDEL  0000200

/* c_cflag */
#define CBAUD    0010017 /* the speed: one of the B* codes below */
#define CBAUDEX  0010000
#define CIBAUD   002003600000 /* the input speed, << 16; 0: the output speed */
#define B0       0000000
#define B50      0000001
#define B75      0000002
#define B110     0000003
#define B134     0000004
#define B150     0000005
#define B200     0000006
#define B300     0000007
#define B600     0000010
#define B1200    0000011
#define B1800    0000012
#define B2400    0000013
#define B4800    0000014
#define B9600    0000015
#define B19200   0000016
#define B38400   0000017
#define B57600   0010001
#define B115200  0010002
#define B230400  0010003
#define B460800  0010004
#define B500000  0010005
#define B576000  0010006
#define B921600  0010007
#define B1000000 0010010
#define B1152000 0010011
#define B1500000 0010012
#define B2000000 0010013
#define B2500000 0010014
#define B3000000 0010015
#define B3500000 0010016
#define B4000000 0010017
#define CSIZE    0000060
#define CS5      0000000
#define CS6      0000020
#define CS7      0000040
#define CS8      0000060
#define CSTOPB   0000100
#define CREAD    0000200
#define PARENB   0000400
#define PARODD   0001000
#define HUPCL    0002000
#define CLOCAL   0004000

/* c_lflag */
#define ISIG    0000001
#define ICANON  0000002
#define ECHO    0000010
#define ECHOE   0000020
#define ECHOK   0000040
#define ECHONL  0000100
#define NOFLSH  0000200
#define TOSTOP  0000400
#define ECHOCTL 0001000
#define ECHOPRT 0002000
#define ECHOKE  0004000
#define FLUSHO  0010000
#define PENDIN  0040000
#define IEXTEN  0100000

/* tcsetattr() `when` */
#define TCSANOW   0 /* change now */
#define TCSADRAIN 1 /* after all output has been sent */
#define TCSAFLUSH 2 /* after all output has been sent, pending input discarded */

/* tcflush() `queue` and tcflow() `action` */
#define TCIFLUSH  0
#define TCOFLUSH  1
#define TCIOFLUSH 2
#define TCOOFF    0 /* stop output (as ^S) */
#define TCOON     1 /* restart it (as ^Q) */
#define TCIOFF    2 /* send STOP */
#define TCION     3 /* send START */

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
