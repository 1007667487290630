/* ioctl() and the request numbers Duplex's console and pipes understand (Linux values,
 * include/uapi/asm-generic/ioctls.h, from uapi/ioctls.h). */
#ifndef DUPLEX_SYS_IOCTL_H
#define DUPLEX_SYS_IOCTL_H

/* The request numbers: the user ABI the kernel shares (uapi/ioctls.h). */
#include <uapi/ioctls.h>

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
