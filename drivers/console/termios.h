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
#define CLOCAL  0004000
#define B115200 0010002

#define TCGETS   0x5401
#define TCSETS   0x5402
#define TCSETSW  0x5403
#define TCSETSF  0x5404
#define TCSBRK   0x5409
#define TIOCOUTQ 0x5411
#define FIONREAD 0x541B
#define FIONBIO  0x5421

#endif
