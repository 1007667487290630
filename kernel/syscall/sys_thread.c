/* What a Linux C library's start-up tells the kernel about its (only) thread:
 * set_tid_address and set_robust_list, and gettid. Duplex runs one thread per process,
 * so the thread id is the pid, and both addresses are recorded and never used: Linux
 * uses them when a thread exits to wake joiners and release futexes, and a process that
 * exits here has no other thread that could be waiting. */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"

/* struct robust_list_head (include/uapi/linux/futex.h): three 64-bit words. */
#define ROBUST_LIST_HEAD_SIZE 24

long sys_set_tid_address(uint64_t address, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                         uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	process->clear_child_tid = address;
	return process->pid;
}

long sys_set_robust_list(uint64_t head, uint64_t length, uint64_t a2, uint64_t a3, uint64_t a4,
                         uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if (length != ROBUST_LIST_HEAD_SIZE)
		return -EINVAL;
	process_current()->robust_list = head;
	return 0;
}

long sys_gettid(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return process_current()->pid;
}
