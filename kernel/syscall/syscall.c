/* System call dispatch; see syscall.h. */
#include "kernel/syscall/syscall.h"

#include "kernel/hart/csr.h"
#include "kernel/lib/errno.h"
#include "kernel/sched/sched.h"

static const syscall_handler handlers[SYSCALL_COUNT] = {
    [SYS_dup] = sys_dup,
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
    [SYS_cpu_times] = sys_cpu_times,
};

void syscall_entry(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                   uint64_t number, struct trap_frame *frame)
{
	frame->regs[0] += 4; /* resume after the ecall */
	interrupts_enable();
	syscall_handler handler = number < SYSCALL_COUNT ? handlers[number] : 0;
	long result = handler ? handler(a0, a1, a2, a3, a4, a5) : -ENOSYS;
	frame->regs[10] = (uint64_t)result;
	sched_preempt_point();
	interrupts_disable();
}
