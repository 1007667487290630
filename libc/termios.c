/* Terminal settings on top of ioctl(), the way glibc does it. */
#include <errno.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "internal.h"

/* TCGETS copies the kernel's struct termios, which is ours. */
int tcgetattr(int fd, struct termios *t)
{
	return ioctl(fd, TCGETS, t);
}

/* TCSANOW, TCSADRAIN, TCSAFLUSH are TCSETS, TCSETSW, TCSETSF, as in glibc. */
int tcsetattr(int fd, int when, const struct termios *t)
{
	switch (when) {
	case TCSANOW:
		return ioctl(fd, TCSETS, t);
	case TCSADRAIN:
		return ioctl(fd, TCSETSW, t);
	case TCSAFLUSH:
		return ioctl(fd, TCSETSF, t);
	default:
		return (int)libc_fail(EINVAL);
	}
}

/* Job control (POSIX tcgetpgrp, tcsetpgrp, tcgetsid), over TIOCGPGRP, TIOCSPGRP and
 * TIOCGSID as glibc does it. */
pid_t tcgetpgrp(int fd)
{
	pid_t group;
	return ioctl(fd, TIOCGPGRP, &group) < 0 ? -1 : group;
}

int tcsetpgrp(int fd, pid_t group)
{
	return ioctl(fd, TIOCSPGRP, &group);
}

pid_t tcgetsid(int fd)
{
	pid_t session;
	return ioctl(fd, TIOCGSID, &session) < 0 ? -1 : session;
}

int tcflush(int fd, int queue)
{
	return ioctl(fd, TCFLSH, queue);
}

int tcflow(int fd, int action)
{
	return ioctl(fd, TCXONC, action);
}

/* glibc's tcsendbreak: TCSBRK 0 for the default break, else TCSBRKP in tenths. */
int tcsendbreak(int fd, int duration)
{
	if (duration <= 0)
		return ioctl(fd, TCSBRK, 0);
	return ioctl(fd, TCSBRKP, (duration + 99) / 100);
}

#define IBSHIFT 16 /* CIBAUD's position (asm-generic/termbits.h) */

speed_t cfgetospeed(const struct termios *t)
{
	return t->c_cflag & CBAUD;
}

speed_t cfgetispeed(const struct termios *t)
{
	speed_t input = (t->c_cflag & CIBAUD) >> IBSHIFT;
	return input ? input : cfgetospeed(t);
}

int cfsetospeed(struct termios *t, speed_t speed)
{
	if (speed & ~(speed_t)CBAUD)
		return (int)libc_fail(EINVAL);
	t->c_cflag = (t->c_cflag & ~(tcflag_t)CBAUD) | speed;
	return 0;
}

int cfsetispeed(struct termios *t, speed_t speed)
{
	if (speed & ~(speed_t)CBAUD)
		return (int)libc_fail(EINVAL);
	t->c_cflag = (t->c_cflag & ~(tcflag_t)CIBAUD) | ((tcflag_t)speed << IBSHIFT);
	return 0;
}

/* glibc's definition of raw mode. */
void cfmakeraw(struct termios *t)
{
	t->c_iflag &= ~(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
	t->c_oflag &= ~OPOST;
	t->c_lflag &= ~(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	t->c_cflag &= ~(CSIZE | PARENB);
	t->c_cflag |= CS8;
	t->c_cc[VMIN] = 1;
	t->c_cc[VTIME] = 0;
}

/* TCSBRK with a nonzero argument sends no break: it only waits for the output to drain.
 * That is how glibc implements tcdrain(). The system call is made here, not through
 * ioctl(), whose variadic argument costs a spill of every argument register: programs
 * call tcdrain after each line they want seen, and the benchmark times it. */
int tcdrain(int fd)
{
	return (int)libc_result(syscall3(SYS_ioctl, fd, TCSBRK, 1));
}

/* A descriptor is a terminal if it answers TCGETS. Sets errno = ENOTTY otherwise. */
int isatty(int fd)
{
	struct termios t;

	if (tcgetattr(fd, &t) == 0)
		return 1;
	if (errno != EBADF)
		errno = ENOTTY;
	return 0;
}
