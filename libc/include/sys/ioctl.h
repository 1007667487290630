/* ioctl() and the request numbers Duplex's console and pipes understand (Linux values,
 * include/uapi/asm-generic/ioctls.h, from uapi/termios.h). What each takes:
 *   TCGETS      struct termios *: read the terminal settings
 *   TCSETS      const struct termios *: change them now
 *   TCSETSW     the same, once the output has drained
 *   TCSETSF     the same, once drained, and pending input discarded
 *   TCSBRK      int: nonzero = wait until all output is sent (tcdrain), 0 = break
 *   TCXONC      int: TCOOFF, TCOON, TCIOFF, TCION (tcflow)
 *   TCFLSH      int: TCIFLUSH, TCOFLUSH, TCIOFLUSH (tcflush)
 *   TIOCOUTQ    int *: bytes written but not yet sent
 *   TIOCGWINSZ  struct winsize *: the window size (80 x 24 until set)
 *   TIOCSWINSZ  const struct winsize *: set it
 *   FIONREAD    int *: bytes ready to read (canonical: complete lines); also TIOCINQ
 *   FIONBIO     const int *: nonzero = non-blocking I/O (O_NONBLOCK)
 *   TCSBRKP     int: a break of that many tenths of a second (0: 0.25 s)
 *   TIOCSBRK    start a break (until TIOCCBRK)
 *   TIOCCBRK    end it */
#ifndef DUPLEX_SYS_IOCTL_H
#define DUPLEX_SYS_IOCTL_H

/* The request numbers: the user ABI the kernel shares (with the termios values). */
#include <uapi/termios.h>

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
