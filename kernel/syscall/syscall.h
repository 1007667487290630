/* System calls: riscv64 Linux numbers, argument order, return values and errno codes
 * (include/uapi/asm-generic/unistd.h), plus two Duplex calls in a range Linux does
 * not use. A handler gets the six argument registers and returns a value or -errno. */
#ifndef DUPLEX_SYSCALL_H
#define DUPLEX_SYSCALL_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/trap/trap.h"
#include "uapi/syscall_numbers.h"

#define SYSCALL_COUNT 512

typedef long (*syscall_handler)(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                                uint64_t a5);

/* Called by trap_entry.S for `ecall` from U-mode, with interrupts masked, on the task's
 * kernel stack: a0..a5 are the call's arguments as the program left them, `number` its
 * a7, `frame` the saved registers (s1..s11 not among them, see trap_entry.S). Steps
 * sepc past the ecall, runs the call with interrupts enabled, puts the result in the
 * frame's a0, passes a preemption point, and returns with interrupts masked, ready for
 * the return to U-mode. Returns non-zero when signal work waits (the task's
 * signal_pending, or a restart code as the result): trap_entry.S then saves s1..s11
 * into the frame and calls syscall_exit_work. Task context; may sleep. */
long syscall_entry(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                   uint64_t number, struct trap_frame *frame);

/* Called by trap_entry.S after syscall_entry asked for it, with a complete frame and
 * interrupts masked: signal delivery, restarts and sigreturn (kernel/signal/signal.h,
 * signal_return_to_user). Returns with interrupts masked. Task context; may sleep. */
void syscall_exit_work(struct trap_frame *frame);

/* The handlers, by area (syscall/sys_*.c). */
long sys_read(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_write(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_readv(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_writev(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_openat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_close(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_dup(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_dup3(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_pipe2(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_ppoll(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_pselect6(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_ioctl(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_fcntl(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_getdents64(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_exit(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_wait4(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_spawn(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_clone(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_clone3(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_execve(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_setpgid(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_getpgid(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_getsid(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_setsid(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_getpid(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_getppid(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_brk(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_uname(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_clock_gettime(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_clock_getres(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_clock_nanosleep(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_nanosleep(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_sched_yield(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_sched_setaffinity(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_sched_getaffinity(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_lseek(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_syslog(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_cpu_times(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_readlinkat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_newfstatat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_fstat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_set_tid_address(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_set_robust_list(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_rt_sigaction(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_rt_sigprocmask(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_rt_sigreturn(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_rt_sigsuspend(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_rt_sigpending(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_rt_sigtimedwait(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_sigaltstack(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_kill(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_tkill(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_tgkill(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_getrlimit(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_setrlimit(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_gettid(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_munmap(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_mmap(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_mprotect(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_prlimit64(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_sysinfo(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_getrandom(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_trace_control(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
/* The working directory (sys_cwd.c). */
long sys_getcwd(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_chdir(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_fchdir(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
/* Names (sys_fs.c). */
long sys_mkdirat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_unlinkat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_symlinkat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_renameat2(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_truncate(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_ftruncate(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_faccessat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_faccessat2(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_fchmod(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_fchmodat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_utimensat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

/* spawn's and execve's argument copy (sys_process.c): a NULL-terminated user array of
 * user strings (NULL: none) into `strings` (PROCESS_ARGS_SIZE bytes, *used advanced) and
 * `pointers` (PROCESS_MAX_ARGS + 1). 0, -EFAULT or -E2BIG. Task context. */
struct process;
int copy_user_string_array(struct process *process, uint64_t array, char **pointers, char *strings,
                           size_t *used);
/* sys_identity.c: one handler serves getuid/geteuid/getgid/getegid (all 0), one
 * getresuid/getresgid, one setuid/setgid. */
long sys_getuid(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_getresuid(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_getgroups(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_setuid(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_prctl(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_sendfile(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_rseq(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_riscv_hwprobe(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_clock_settime(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_gettimeofday(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_settimeofday(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);

/* The tracer's syscall class (sys_trace.c): called by syscall_entry only when it is on. */
void syscall_trace_enter(uint64_t number, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                         uint64_t a4, uint64_t a5);
void syscall_trace_exit(uint64_t number, long result);

#endif
