/* System call numbers: riscv64 Linux's (include/uapi/asm-generic/unistd.h) for the calls
 * Duplex implements, plus two of its own in a range Linux does not use. Shared with user
 * space: libc's <sys/syscall.h> includes this file, so the two cannot drift apart. Plain
 * macros only. */
#ifndef DUPLEX_SYSCALL_NUMBERS_H
#define DUPLEX_SYSCALL_NUMBERS_H

#define SYS_dup               23
#define SYS_fcntl             25
#define SYS_ioctl             29
#define SYS_openat            56
#define SYS_close             57
#define SYS_getdents64        61
#define SYS_lseek             62
#define SYS_read              63
#define SYS_write             64
#define SYS_readv             65
#define SYS_writev            66
#define SYS_exit              93
#define SYS_exit_group        94
#define SYS_nanosleep         101
#define SYS_clock_gettime     113
#define SYS_clock_getres      114
#define SYS_clock_nanosleep   115
#define SYS_syslog            116
#define SYS_sched_setaffinity 122
#define SYS_sched_getaffinity 123
#define SYS_sched_yield       124
#define SYS_uname             160
#define SYS_getpid            172
#define SYS_getppid           173
#define SYS_brk               214
#define SYS_wait4             260
/* Duplex: start a program from the archive, posix_spawn-shaped:
 * spawn(const char *path, char *const argv[], char *const envp[]) -> pid or -errno. */
#define SYS_spawn 500
/* Duplex: per-hart busy/idle nanoseconds:
 * cpu_times(struct { u64 busy_ns, idle_ns; } *out, unsigned long max) -> harts filled. */
#define SYS_cpu_times 501

#endif
