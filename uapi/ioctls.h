/* The ioctl request numbers Duplex answers, riscv64 Linux's
 * (include/uapi/asm-generic/ioctls.h): the terminal requests of the console and
 * FIONREAD/FIONBIO, which pipes answer too. The console's own requests (telemetry, its
 * description) are in uapi/console_telemetry.h. Plain macros only. */
#ifndef DUPLEX_UAPI_IOCTLS_H
#define DUPLEX_UAPI_IOCTLS_H

#define TCGETS     0x5401 /* struct termios *: read the terminal settings */
#define TCSETS     0x5402 /* const struct termios *: change them now */
#define TCSETSW    0x5403 /* the same, once the output has drained */
#define TCSETSF    0x5404 /* the same, once drained, and pending input discarded */
#define TCSBRK     0x5409 /* int: nonzero = wait until all output is sent (tcdrain), 0 = break */
#define TCXONC     0x540A /* int: TCOOFF, TCOON, TCIOFF, TCION (tcflow) */
#define TCFLSH     0x540B /* int: TCIFLUSH, TCOFLUSH, TCIOFLUSH (tcflush) */
#define TIOCOUTQ   0x5411 /* int *: bytes written but not yet sent */
#define TIOCGWINSZ 0x5413 /* struct winsize *: the window size (80 x 24 until set) */
#define TIOCSWINSZ 0x5414 /* const struct winsize *: set it */
#define FIONREAD   0x541B /* int *: bytes ready to read (canonical: complete lines) */
#define TIOCINQ    FIONREAD
#define FIONBIO    0x5421 /* const int *: nonzero = non-blocking I/O (O_NONBLOCK) */
#define TCSBRKP    0x5425 /* int: a break of that many tenths of a second (0: 0.25 s) */
#define TIOCSBRK   0x5427 /* start a break (until TIOCCBRK) */
#define TIOCCBRK   0x5428 /* end it */

#endif
