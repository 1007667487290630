/* The terminal settings structure as the riscv64 Linux kernel passes it through
 * TCGETS/TCSETS (include/uapi/asm-generic/termbits.h: struct termios, NCCS 19), and
 * the tty ioctl numbers (include/uapi/asm-generic/ioctls.h). */
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

#define OPOST   0000001
#define ONLCR   0000004
#define CS8     0000060
#define CREAD   0000200
#define HUPCL   0002000
#define CLOCAL  0004000
#define B115200 0010002

/* The line speed in c_cflag: CBAUD holds a B* code (B0 .. B38400 in 0-017, then
 * CBAUDEX with B57600 .. B4000000 in 010001-010017); BOTHER would say "the number is
 * in c_ospeed", which only struct termios2 has. CIBAUD, the input speed, is 0 for
 * "same as output". */
#define CBAUD  0010017
#define BOTHER 0010000
#define CIBAUD 002003600000

#define TCGETS   0x5401
#define TCSETS   0x5402
#define TCSETSW  0x5403
#define TCSETSF  0x5404
#define TCSBRK   0x5409
#define TIOCOUTQ 0x5411
#define FIONREAD 0x541B
#define FIONBIO  0x5421

#endif
