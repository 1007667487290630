/* rseq (293): restartable sequences. Duplex does not implement them, and answers as a
 * Linux kernel built without CONFIG_RSEQ does: ENOSYS (kernel/sys_ni.c). glibc's
 * start-up registers an rseq area and, on ENOSYS, records that there is none
 * (__rseq_size 0) and carries on; sched_getcpu then asks getcpu instead. A handler of its
 * own, rather than the unknown-call path, so that this expected answer is not reported
 * as a missing call in every glibc program's log. */
#include "kernel/lib/errno.h"
#include "kernel/syscall/syscall.h"

long sys_rseq(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return -ENOSYS;
}
