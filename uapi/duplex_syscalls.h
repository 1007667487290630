/* Duplex's own system calls, in a range Linux does not use. Apart from
 * syscall_numbers.h because glibc builds of Duplex's programs take the Linux numbers
 * from glibc's <sys/syscall.h> and only these from here
 * (libc/glibc/include/sys/syscall.h). Plain macros only. */
#ifndef DUPLEX_SYSCALL_DUPLEX_NUMBERS_H
#define DUPLEX_SYSCALL_DUPLEX_NUMBERS_H

/* Start a program from the archive, posix_spawn-shaped:
 * spawn(const char *path, char *const argv[], char *const envp[]) -> pid or -errno. */
#define SYS_spawn 500
/* Per-hart busy/idle nanoseconds:
 * cpu_times(struct { u64 busy_ns, idle_ns; } *out, unsigned long max) -> harts filled. */
#define SYS_cpu_times 501
/* The event tracer (uapi/trace_record.h):
 * trace_control(int op, unsigned long argument, void *buffer, unsigned long size). */
#define SYS_trace_control 502

#endif
