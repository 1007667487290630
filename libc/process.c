/* Processes: exiting, ids, starting programs, waiting for them. */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <duplex.h>

#include "internal.h"

/* End the process at once (no stdio flush, no destructors: that is exit()'s job).
 * exit_group, as glibc does: Duplex processes have one thread, so it is the same as
 * exit. */
void _exit(int status)
{
	for (;;)
		syscall1(SYS_exit_group, status);
}

/* This process's id (1 for the first program). Never fails. */
pid_t getpid(void)
{
	return (pid_t)syscall0(SYS_getpid);
}

/* The parent's pid; 0 for the first program, which has none. */
pid_t getppid(void)
{
	return (pid_t)syscall0(SYS_getppid);
}

/* Duplex's way to start a program (see <duplex.h>). */
pid_t spawn(const char *path, char *const argv[], char *const envp[])
{
	return (pid_t)libc_result(syscall3(SYS_spawn, (long)path, (long)argv, (long)envp));
}

/* A kill status carries a Linux signal number; give it picolibc's number for the same
 * signal. Exit statuses need no change. */
static int status_from_linux(int status)
{
	int linux_signal = status & 0x7f;

	if (status == 0xffff)
		return status;    /* continued (WCONTINUED) */
	if (linux_signal == 0x7f) /* stopped (WUNTRACED): the signal is in bits 8..15 */
		return (status & ~0xff00) | (libc_signal_from_linux((status >> 8) & 0xff) << 8);
	if (linux_signal == 0)
		return status; /* exited */
	return (status & ~0x7f) | libc_signal_from_linux(linux_signal);
}

/* Wait for a child (see <sys/wait.h>). Duplex keeps no resource usage: the kernel
 * would write zeros in Linux's 144-byte struct rusage, but picolibc's is smaller, so
 * libc zeroes the caller's struct itself and never passes it on. */
pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage)
{
	int linux_status = 0;
	long child = libc_result(
	    syscall4(SYS_wait4, pid, (long)(status ? &linux_status : NULL), options, 0));

	if (child > 0 && status != NULL)
		*status = status_from_linux(linux_status);
	if (child > 0 && usage != NULL)
		memset(usage, 0, sizeof *usage);
	return (pid_t)child;
}

/* wait4() without resource usage, as POSIX defines it. */
pid_t waitpid(pid_t pid, int *status, int options)
{
	return wait4(pid, status, options, NULL);
}

/* Wait for any child. */
pid_t wait(int *status)
{
	return wait4(-1, status, 0, NULL);
}
