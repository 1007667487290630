/* ioctl() and the request numbers Duplex's console understands (Linux values,
 * asm-generic/ioctls.h). */
#ifndef DUPLEX_SYS_IOCTL_H
#define DUPLEX_SYS_IOCTL_H

#define TCGETS   0x5401 /* struct termios *: read the terminal settings */
#define TCSETS   0x5402 /* const struct termios *: change them now */
#define TCSETSW  0x5403 /* the same, once the output has drained */
#define TCSETSF  0x5404 /* the same, once drained (Duplex discards no input) */
#define TCSBRK   0x5409 /* int: 1 = wait until all output is sent (tcdrain) */
#define TIOCOUTQ 0x5411 /* int *: bytes written but not yet sent */
#define FIONREAD 0x541B /* int *: bytes ready to read */
#define FIONBIO  0x5421 /* const int *: nonzero = non-blocking I/O (O_NONBLOCK) */

/* Device-specific control: `request` plus one argument (an int or a pointer).
 * Returns the kernel's non-negative result, or -1 with errno set. */
int ioctl(int fd, unsigned long request, ...);

#endif
