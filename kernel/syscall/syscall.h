/* System calls: riscv64 Linux numbers, argument order, return values and errno codes
 * (include/uapi/asm-generic/unistd.h), plus two Duplex calls in a range Linux does
 * not use. A handler gets the six argument registers and returns a value or -errno. */
#ifndef DUPLEX_SYSCALL_H
#define DUPLEX_SYSCALL_H

#include <stdint.h>

#include "kernel/syscall/numbers.h"
#include "kernel/trap/trap.h"

#define SYSCALL_COUNT 512

typedef long (*syscall_handler)(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                                uint64_t a5);

/* Called by trap_entry.S for `ecall` from U-mode, with interrupts masked, on the task's
 * kernel stack: a0..a5 are the call's arguments as the program left them, `number` its
 * a7, `frame` the saved registers (s1..s11 not among them, see trap_entry.S). Steps
 * sepc past the ecall, runs the call with interrupts enabled, puts the result in the
 * frame's a0, passes a preemption point, and returns with interrupts masked, ready for
 * the return to U-mode. Task context; may sleep. */
void syscall_entry(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                   uint64_t number, struct trap_frame *frame);

/* The handlers, by area (syscall/sys_*.c). */
long sys_read(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_write(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_readv(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_writev(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_openat(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_close(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_dup(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_ioctl(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_fcntl(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_getdents64(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_exit(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_wait4(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
long sys_spawn(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
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
