/* The terminal settings structure as the riscv64 Linux kernel passes it through
 * TCGETS/TCSETS (include/uapi/asm-generic/termbits.h: struct termios, NCCS 19), its
 * flag bits and c_cc indices (termbits.h, octal as there), the window size of
 * TIOCGWINSZ (include/uapi/asm-generic/termios.h: struct winsize), and the tty ioctl
 * numbers (include/uapi/asm-generic/ioctls.h). Shared by the console core
 * (drivers/console), pipes (FIONREAD) and libc's <termios.h> and <sys/ioctl.h>, which
 * pass them through unchanged. Plain declarations only. */
#ifndef DUPLEX_CONSOLE_TERMIOS_H
#define DUPLEX_CONSOLE_TERMIOS_H

#include <stdint.h>

#define TERMIOS_NCCS 19

struct kernel_termios {
	uint32_t c_iflag;
	uint32_t c_oflag;
	uint32_t c_cflag;
	uint32_t c_lflag;
	uint8_t c_line;
	uint8_t c_cc[TERMIOS_NCCS];
};

struct kernel_winsize {
	uint16_t ws_row;
	uint16_t ws_col;
	uint16_t ws_xpixel;
	uint16_t ws_ypixel;
};

/* c_cc indices */
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
#define IUCLC   0001000
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
#define CSIZE  0000060
#define CS5    0000000
#define CS6    0000020
#define CS7    0000040
#define CS8    0000060
#define CSTOPB 0000100
#define CREAD  0000200
#define PARENB 0000400
#define PARODD 0001000
#define HUPCL  0002000
#define CLOCAL 0004000

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

/* The line speed in c_cflag: CBAUD holds a B* code (B0 .. B38400 in 0-017, then
 * CBAUDEX with B57600 .. B4000000 in 010001-010017); BOTHER would say "the number is
 * in c_ospeed", which only struct termios2 has. CIBAUD, the input speed (the same codes
 * << 16), is 0 for "same as output". */
#define CBAUD    0010017
#define CBAUDEX  0010000
#define BOTHER   0010000
#define CIBAUD   002003600000
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

/* ioctl requests (asm-generic/ioctls.h); what each takes: libc's <sys/ioctl.h>. */
#define TCGETS     0x5401
#define TCSETS     0x5402
#define TCSETSW    0x5403
#define TCSETSF    0x5404
#define TCSBRK     0x5409
#define TCXONC     0x540A
#define TCFLSH     0x540B
#define TIOCSCTTY  0x540E /* job control (kernel/proc/terminal.h) */
#define TIOCGPGRP  0x540F
#define TIOCSPGRP  0x5410
#define TIOCOUTQ   0x5411
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD   0x541B /* = TIOCINQ */
#define TIOCINQ    FIONREAD
#define FIONBIO    0x5421
#define TIOCNOTTY  0x5422
#define TIOCGSID   0x5429
#define TCSBRKP    0x5425
#define TIOCSBRK   0x5427
#define TIOCCBRK   0x5428

/* TCXONC arguments (tcflow: stop or restart output, send STOP or START) and TCFLSH
 * arguments (tcflush: which queue to discard). */
#define TCOOFF    0
#define TCOON     1
#define TCIOFF    2
#define TCION     3
#define TCIFLUSH  0
#define TCOFLUSH  1
#define TCIOFLUSH 2

#endif
