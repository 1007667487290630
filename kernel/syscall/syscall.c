/* System call dispatch; see syscall.h. */
#include "kernel/syscall/syscall.h"

#include "kernel/hart/csr.h"
#include "kernel/lib/errno.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/deliver.h"
#include "kernel/syscall/unknown.h"
#include "kernel/trace/trace.h"

static const syscall_handler handlers[SYSCALL_COUNT] = {
    [SYS_dup] = sys_dup,
    [SYS_dup3] = sys_dup3,
    [SYS_pipe2] = sys_pipe2,
    [SYS_ppoll] = sys_ppoll,
    [SYS_pselect6] = sys_pselect6,
    [SYS_fcntl] = sys_fcntl,
    [SYS_ioctl] = sys_ioctl,
    [SYS_openat] = sys_openat,
    [SYS_close] = sys_close,
    [SYS_getdents64] = sys_getdents64,
    [SYS_lseek] = sys_lseek,
    [SYS_read] = sys_read,
    [SYS_write] = sys_write,
    [SYS_readv] = sys_readv,
    [SYS_writev] = sys_writev,
    [SYS_exit] = sys_exit,
    [SYS_exit_group] = sys_exit,
    [SYS_nanosleep] = sys_nanosleep,
    [SYS_clock_gettime] = sys_clock_gettime,
    [SYS_clock_getres] = sys_clock_getres,
    [SYS_clock_nanosleep] = sys_clock_nanosleep,
    [SYS_syslog] = sys_syslog,
    [SYS_sched_setaffinity] = sys_sched_setaffinity,
    [SYS_sched_getaffinity] = sys_sched_getaffinity,
    [SYS_sched_yield] = sys_sched_yield,
    [SYS_uname] = sys_uname,
    [SYS_getpid] = sys_getpid,
    [SYS_getppid] = sys_getppid,
    [SYS_brk] = sys_brk,
    [SYS_wait4] = sys_wait4,
    [SYS_spawn] = sys_spawn,
    [SYS_clone] = sys_clone,
    [SYS_clone3] = sys_clone3,
    [SYS_execve] = sys_execve,
    [SYS_setpgid] = sys_setpgid,
    [SYS_getpgid] = sys_getpgid,
    [SYS_getsid] = sys_getsid,
    [SYS_setsid] = sys_setsid,
    [SYS_cpu_times] = sys_cpu_times,
    [SYS_readlinkat] = sys_readlinkat,
    [SYS_newfstatat] = sys_newfstatat,
    [SYS_fstat] = sys_fstat,
    [SYS_set_tid_address] = sys_set_tid_address,
    [SYS_set_robust_list] = sys_set_robust_list,
    [SYS_rt_sigaction] = sys_rt_sigaction,
    [SYS_rt_sigprocmask] = sys_rt_sigprocmask,
    [SYS_rt_sigreturn] = sys_rt_sigreturn,
    [SYS_rt_sigsuspend] = sys_rt_sigsuspend,
    [SYS_rt_sigpending] = sys_rt_sigpending,
    [SYS_rt_sigtimedwait] = sys_rt_sigtimedwait,
    [SYS_sigaltstack] = sys_sigaltstack,
    [SYS_kill] = sys_kill,
    [SYS_tkill] = sys_tkill,
    [SYS_tgkill] = sys_tgkill,
    [SYS_getrlimit] = sys_getrlimit,
    [SYS_setrlimit] = sys_setrlimit,
    [SYS_gettid] = sys_gettid,
    [SYS_munmap] = sys_munmap,
    [SYS_mmap] = sys_mmap,
    [SYS_mprotect] = sys_mprotect,
    [SYS_prlimit64] = sys_prlimit64,
    [SYS_getrandom] = sys_getrandom,
    [SYS_sysinfo] = sys_sysinfo,
    [SYS_trace_control] = sys_trace_control,
    [SYS_getcwd] = sys_getcwd,
    [SYS_chdir] = sys_chdir,
    [SYS_fchdir] = sys_fchdir,
    [SYS_mkdirat] = sys_mkdirat,
    [SYS_unlinkat] = sys_unlinkat,
    [SYS_symlinkat] = sys_symlinkat,
    [SYS_renameat2] = sys_renameat2,
    [SYS_truncate] = sys_truncate,
    [SYS_ftruncate] = sys_ftruncate,
    [SYS_faccessat] = sys_faccessat,
    [SYS_faccessat2] = sys_faccessat2,
    [SYS_fchmod] = sys_fchmod,
    [SYS_fchmodat] = sys_fchmodat,
    [SYS_utimensat] = sys_utimensat,
    [SYS_getuid] = sys_getuid,
    [SYS_geteuid] = sys_getuid,
    [SYS_getgid] = sys_getuid,
    [SYS_getegid] = sys_getuid,
    [SYS_getresuid] = sys_getresuid,
    [SYS_getresgid] = sys_getresuid,
    [SYS_getgroups] = sys_getgroups,
    [SYS_setuid] = sys_setuid,
    [SYS_setgid] = sys_setuid,
    [SYS_prctl] = sys_prctl,
    [SYS_sendfile] = sys_sendfile,
    [SYS_rseq] = sys_rseq,
    [SYS_riscv_hwprobe] = sys_riscv_hwprobe,
    [SYS_clock_settime] = sys_clock_settime,
    [SYS_gettimeofday] = sys_gettimeofday,
    [SYS_settimeofday] = sys_settimeofday,
};

static inline long dispatch(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                            uint64_t a5, uint64_t number)
{
	syscall_handler handler = number < SYSCALL_COUNT ? handlers[number] : 0;
	return handler ? handler(a0, a1, a2, a3, a4, a5) : syscall_unknown(number);
}

/* syscall_entry's path while the tracer records system calls: out of line, so that the
 * untraced path keeps its shape (no arguments held across a call). */
static long __attribute__((noinline))
dispatch_traced(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                uint64_t number)
{
	syscall_trace_enter(number, a0, a1, a2, a3, a4, a5);
	long result = dispatch(a0, a1, a2, a3, a4, a5, number);
	syscall_trace_exit(number, result);
	return result;
}

long syscall_entry(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                   uint64_t number, struct trap_frame *frame)
{
	frame->regs[0] += 4; /* resume after the ecall */
	interrupts_enable();
	long result = trace_enabled(TRACE_SYSCALL) ? dispatch_traced(a0, a1, a2, a3, a4, a5, number)
	                                           : dispatch(a0, a1, a2, a3, a4, a5, number);
	frame->regs[10] = (uint64_t)result;
	sched_preempt_point();
	interrupts_disable();
	/* -ERESTARTSYS .. -ERESTARTNOHAND never reach the program: the exit work turns
	 * them into -EINTR or a restart. */
	return sched_current()->signal_pending |
	       ((uint64_t)result + ERESTARTNOHAND <= ERESTARTNOHAND - ERESTARTSYS);
}

void syscall_exit_work(struct trap_frame *frame)
{
	signal_return_to_user(frame, true);
}
