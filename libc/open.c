/* Opening files and changing their flags: open(), openat(), fcntl(). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>

#include "internal.h"

#define LINUX_AT_FDCWD        (-100)
#define LINUX_F_DUPFD_CLOEXEC 1030

/* Open `path` relative to directory `dirfd` (AT_FDCWD: the current directory, which on
 * Duplex is always "/"). `flags` are picolibc's O_ values; a `mode` follows if O_CREAT
 * is set (Duplex creates no files, but the argument is passed on). */
int openat(int dirfd, const char *path, int flags, ...)
{
	long linux_flags = libc_open_flags_to_linux(flags);
	long mode = 0;

	if (linux_flags < 0)
		return (int)libc_fail(EINVAL);
	if (flags & O_CREAT) {
		va_list args;
		va_start(args, flags);
		mode = va_arg(args, int);
		va_end(args);
	}
	/* picolibc's AT_FDCWD is -2, Linux's -100. */
	if (dirfd == AT_FDCWD)
		dirfd = LINUX_AT_FDCWD;
	return (int)libc_result(syscall4(SYS_openat, dirfd, (long)path, linux_flags, mode));
}

/* openat() relative to the current directory. */
int open(const char *path, int flags, ...)
{
	int mode = 0;

	if (flags & O_CREAT) {
		va_list args;
		va_start(args, flags);
		mode = va_arg(args, int);
		va_end(args);
	}
	return openat(AT_FDCWD, path, flags, mode);
}

/* File descriptor control: F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD/F_SETFD (FD_CLOEXEC, 1 in
 * both numberings), F_GETFL and F_SETFL (O_APPEND and O_NONBLOCK can change; the flags
 * are translated both ways). Other commands go to the kernel as is, except
 * F_DUPFD_CLOEXEC, whose number differs. */
int fcntl(int fd, int cmd, ...)
{
	va_list args;
	long arg;
	long result;

	va_start(args, cmd);
	arg = va_arg(args, long);
	va_end(args);

	switch (cmd) {
	case F_GETFL:
		result = libc_result(syscall2(SYS_fcntl, fd, F_GETFL));
		return result < 0 ? -1 : libc_open_flags_from_linux(result);
	case F_SETFL:
		arg = libc_open_flags_to_linux((int)arg);
		if (arg < 0)
			return (int)libc_fail(EINVAL);
		break;
	case F_DUPFD_CLOEXEC:
		cmd = LINUX_F_DUPFD_CLOEXEC;
		break;
	}
	return (int)libc_result(syscall3(SYS_fcntl, fd, cmd, arg));
}
