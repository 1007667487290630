/* prctl: the process's name (PR_SET_NAME, PR_GET_NAME), which the kernel log prints
 * beside the pid (`sh[1]: ...`). Linux's TASK_COMM_LEN is 16 bytes with the terminating
 * NUL (include/linux/sched.h); a longer name is cut to 15 characters. Other options are
 * EINVAL, as Linux answers an option it does not know (kernel/sys.c). */
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"

#define PR_SET_NAME 15 /* include/uapi/linux/prctl.h */
#define PR_GET_NAME 16

_Static_assert(sizeof(((struct process *)0)->name) == 16, "TASK_COMM_LEN is 16");

long sys_prctl(uint64_t option, uint64_t argument, uint64_t a2, uint64_t a3, uint64_t a4,
               uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	char name[sizeof process->name];
	switch (option) {
	case PR_SET_NAME: {
		/* Read byte by byte up to 15: the name may end right before an unmapped page. */
		size_t length = 0;
		while (length < sizeof name - 1) {
			if (copy_from_user(&process->space, &name[length], argument + length, 1) !=
			    0)
				return -EFAULT;
			if (name[length] == 0)
				break;
			length++;
		}
		name[length] = 0;
		memcpy(process->name, name, sizeof name);
		return 0;
	}
	case PR_GET_NAME:
		memcpy(name, process->name, sizeof name);
		name[sizeof name - 1] = 0;
		return copy_to_user(&process->space, argument, name, sizeof name) != 0 ? -EFAULT
		                                                                       : 0;
	default:
		return -EINVAL;
	}
}
