/* Duplex's own calls for programs built with glibc (libduplex-glibc.a): spawn() and
 * cpu_times() as <duplex.h> declares them, through glibc's syscall(), which already
 * speaks Linux errno. */
#include <duplex.h>
#include <sys/syscall.h>
#include <unistd.h>

pid_t spawn(const char *path, char *const argv[], char *const envp[])
{
	return (pid_t)syscall(SYS_spawn, path, argv, envp);
}

int cpu_times(struct duplex_cpu_times *times, unsigned long max_harts)
{
	return (int)syscall(SYS_cpu_times, times, max_harts);
}
