/* sysconf: the limits and counts a portable program asks for at run time (POSIX
 * <unistd.h>). The values are Duplex's own: harts from cpu_times, the page size the
 * kernel maps with, the descriptor table's size. */
#include <errno.h>
#include <unistd.h>

#include <duplex.h>

/* Harts the kernel knows (Duplex caps them at 8, kernel/hart/hart.h MAX_HARTS; twice that
 * is room enough). */
#define SYSCONF_MAX_HARTS 16

/* Called by programs (bench's harts when cpu_times is missing, i.e. under glibc on
 * another kernel, uses glibc's own). Returns the value, or -1 with errno EINVAL for a
 * name Duplex does not answer. */
long sysconf(int name)
{
	switch (name) {
	case _SC_NPROCESSORS_CONF:
	case _SC_NPROCESSORS_ONLN: {
		struct duplex_cpu_times times[SYSCONF_MAX_HARTS];
		int harts = cpu_times(times, SYSCONF_MAX_HARTS);
		return harts > 0 ? harts : 1;
	}
	case _SC_PAGESIZE:
		return 4096;
	case _SC_CLK_TCK:
		return 100; /* USER_HZ: what times() and Linux's /proc count in */
	case _SC_OPEN_MAX:
		return 32; /* kernel/proc/process.h PROCESS_MAX_FILES */
	case _SC_ARG_MAX:
		return 16384; /* kernel/proc/process.h PROCESS_ARGS_SIZE */
	default:
		errno = EINVAL;
		return -1;
	}
}
