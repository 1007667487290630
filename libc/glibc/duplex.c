/* Duplex's own calls for programs built with glibc (libduplex-glibc.a): spawn() and
 * cpu_times() as <duplex.h> declares them, through glibc's syscall(), which already
 * speaks Linux errno. The same binary also runs on Linux (the benchmark's peer, `make
 * peer`): there spawn() is glibc's posix_spawn, which starts a program with the same
 * inherited descriptors, and cpu_times() fails with ENOSYS for the caller to say so. */
#include <duplex.h>
#include <errno.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

pid_t spawn(const char *path, char *const argv[], char *const envp[])
{
	pid_t pid = (pid_t)syscall(SYS_spawn, path, argv, envp);
	if (pid >= 0 || errno != ENOSYS)
		return pid;
	int error = posix_spawn(&pid, path, NULL, NULL, argv, envp);
	if (error) {
		errno = error;
		return -1;
	}
	return pid;
}

int cpu_times(struct duplex_cpu_times *times, unsigned long max_harts)
{
	return (int)syscall(SYS_cpu_times, times, max_harts);
}
