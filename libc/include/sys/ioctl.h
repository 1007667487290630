/* ioctl() and the request numbers Duplex's console understands (Linux values,
 * asm-generic/ioctls.h). */
#ifndef DUPLEX_SYS_IOCTL_H
#define DUPLEX_SYS_IOCTL_H

#define TCGETS     0x5401 /* struct termios *: read the terminal settings */
#define TCSETS     0x5402 /* const struct termios *: change them now */
#define TCSETSW    0x5403 /* the same, once the output has drained */
#define TCSETSF    0x5404 /* the same, once drained, and pending input discarded */
#define TCSBRK     0x5409 /* int: nonzero = wait until all output is sent (tcdrain), 0 = break */
#define TCXONC     0x540A /* int: TCOOFF, TCOON, TCIOFF, TCION (tcflow) */
#define TCFLSH     0x540B /* int: TCIFLUSH, TCOFLUSH, TCIOFLUSH (tcflush) */
#define TIOCSCTTY  0x540E /* int: make this the caller's session's controlling terminal */
#define TIOCGPGRP  0x540F /* pid_t *: the foreground process group (tcgetpgrp) */
#define TIOCSPGRP  0x5410 /* const pid_t *: set it (tcsetpgrp) */
#define TIOCOUTQ   0x5411 /* int *: bytes written but not yet sent */
#define TIOCGWINSZ 0x5413 /* struct winsize *: the window size (80 x 24 until set) */
#define TIOCSWINSZ 0x5414 /* const struct winsize *: set it */
#define FIONREAD   0x541B /* int *: bytes ready to read (canonical: complete lines) */
#define TIOCINQ    FIONREAD
#define FIONBIO    0x5421 /* const int *: nonzero = non-blocking I/O (O_NONBLOCK) */
#define TIOCNOTTY  0x5422 /* give up the controlling terminal */
#define TIOCGSID   0x5429 /* pid_t *: the session the terminal controls (tcgetsid) */
#define TCSBRKP    0x5425 /* int: a break of that many tenths of a second (0: 0.25 s) */
#define TIOCSBRK   0x5427 /* start a break (until TIOCCBRK) */
#define TIOCCBRK   0x5428 /* end it */

/* TIOCGWINSZ / TIOCSWINSZ (asm-generic/termios.h). */
struct winsize {
	unsigned short ws_row;
	unsigned short ws_col;
	unsigned short ws_xpixel;
	unsigned short ws_ypixel;
};

/* Device-specific control: `request` plus one argument (an int or a pointer).
 * Returns the kernel's non-negative result, or -1 with errno set. */
int ioctl(int fd, unsigned long request, ...);

#endif
