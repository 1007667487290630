/* Pipes and descriptor copies: pipe(), pipe2(), dup2(), dup3(). riscv64 Linux has only
 * the generic calls (pipe2 59, dup3 24): pipe is pipe2 with no flags, and dup2 is dup3,
 * or fcntl when both descriptors are the same (dup3 refuses that one), as glibc does. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "internal.h"

/* pipe2 with picolibc's O_CLOEXEC / O_NONBLOCK: fds[0] reads what fds[1] writes. */
int pipe2(int fds[2], int flags)
{
	long linux_flags = libc_open_flags_to_linux(flags);
	if (linux_flags < 0)
		return (int)libc_fail(EINVAL);
	return (int)libc_result(syscall2(SYS_pipe2, (long)fds, linux_flags));
}

int pipe(int fds[2])
{
	return pipe2(fds, 0);
}

/* `new_fd` becomes a copy of `old_fd` (closed first if open); O_CLOEXEC in flags marks
 * it close-on-exec. */
int dup3(int old_fd, int new_fd, int flags)
{
	long linux_flags = libc_open_flags_to_linux(flags);
	if (linux_flags < 0)
		return (int)libc_fail(EINVAL);
	return (int)libc_result(syscall3(SYS_dup3, old_fd, new_fd, linux_flags));
}

/* POSIX dup2: with old_fd == new_fd, nothing to do but check that old_fd is open. */
int dup2(int old_fd, int new_fd)
{
	if (old_fd == new_fd) {
		long result = libc_result(syscall2(SYS_fcntl, old_fd, F_GETFD));
		return result < 0 ? -1 : new_fd;
	}
	return dup3(old_fd, new_fd, 0);
}
