/* Duplex's own system calls: starting programs and per-hart CPU times. */
#ifndef DUPLEX_H
#define DUPLEX_H

#include <stdint.h>
#include <sys/types.h>

/* The console telemetry ioctl and its structure: the user ABI the kernel shares, defined
 * once (uapi/console_telemetry.h; user.mk puts the repository root on the include path
 * after everything else, for the uapi/ headers). */
#include <uapi/console_telemetry.h>
/* The event tracer's records and operations (the same way, uapi/). */
#include <uapi/trace_record.h>

/* Where this build's programs are in the archive: "/bin", or "/bin/glibc" for the glibc
 * builds (user/user.mk defines it then). A program that starts itself again uses it,
 * so it starts the same build. */
#ifndef DUPLEX_BIN_DIR
#define DUPLEX_BIN_DIR "/bin"
#endif

/* Start program `path` (e.g. "/bin/echo") as a new process with arguments `argv`
 * (NULL-terminated, argv[0] is the program's name) and environment `envp` (NULL-
 * terminated; NULL means empty). The child inherits every open file descriptor.
 * Returns the child's pid, or -1 with errno as execve's: ENOENT (no such program),
 * ENOTDIR, EACCES (a directory, or not executable), ENOEXEC (neither a RISC-V executable
 * nor a `#!` script), ELOOP, ENOMEM, EFAULT, E2BIG (arguments too long), EAGAIN (the
 * process limit).
 * Flush stdio buffers first, or their contents come out after the child's output. */
pid_t spawn(const char *path, char *const argv[], char *const envp[]);

/* The Linux number of picolibc signal `signal` (<signal.h>'s names keep BSD numbers:
 * SIGTSTP is 18 there, 20 on Linux), -1 for one Linux lacks. A shell reports 128 + this
 * as a killed or stopped job's status, as Linux shells do. */
int linux_signal_number(int signal);

/* How long one hart has been busy (running tasks) and idle, since boot. */
struct duplex_cpu_times {
	uint64_t busy_ns;
	uint64_t idle_ns;
};

/* Fill times[0 .. max_harts) for harts 0, 1, ...; returns how many harts were filled,
 * or -1 with errno. */
int cpu_times(struct duplex_cpu_times *times, unsigned long max_harts);

/* The kernel's event tracer: op is TRACE_OP_SET_MASK (returns the old mask), _RESET,
 * _STATUS (buffer: struct trace_status) or _READ (argument = hart << 32 | first record;
 * returns records copied). -1 with errno: EINVAL, EFAULT, ENOMEM. */
long trace_control(int op, unsigned long argument, void *buffer, unsigned long size);

#endif
