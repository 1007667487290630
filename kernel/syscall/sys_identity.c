/* Who a process is: getuid, geteuid, getgid, getegid, getresuid, getresgid, getgroups,
 * setuid, setgid. Duplex has one user, root: every process's real, effective and saved
 * user and group ids are 0 and it belongs to no supplementary group (Linux's init starts
 * with an empty group list too: init_groups in kernel/groups.c).
 *
 * The choice for setuid/setgid: on Linux root (CAP_SETUID/CAP_SETGID) may take any id,
 * and the process then is that user. Duplex keeps no per-process identity and checks no
 * permission, so it cannot honour a change: setuid(0)/setgid(0) succeed (nothing to
 * change), another valid id is refused with EPERM, the answer Linux gives a process
 * that lacks the capability, rather than a success that getuid() would then
 * contradict; -1 is EINVAL, as in Linux's uid_valid() check (kernel/sys.c). */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"

#define ROOT_ID    0u
#define INVALID_ID 0xffffffffu /* (uid_t)-1 */

long sys_getuid(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return ROOT_ID;
}

/* getresuid(&real, &effective, &saved), and getresgid the same for groups: three
 * 32-bit ids (uid_t is unsigned int on riscv64). */
long sys_getresuid(uint64_t real, uint64_t effective, uint64_t saved, uint64_t a3, uint64_t a4,
                   uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	const uint32_t id = ROOT_ID;
	if (copy_to_user(&process->space, real, &id, sizeof id) != 0 ||
	    copy_to_user(&process->space, effective, &id, sizeof id) != 0 ||
	    copy_to_user(&process->space, saved, &id, sizeof id) != 0)
		return -EFAULT;
	return 0;
}

/* getgroups(size, list): the number of supplementary groups, 0. Linux (kernel/groups.c)
 * rejects a negative size with EINVAL and writes nothing when the list is empty. */
long sys_getgroups(uint64_t size, uint64_t list, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)list, (void)a2, (void)a3, (void)a4, (void)a5;
	if ((int)size < 0)
		return -EINVAL;
	return 0;
}

/* setuid(id) and setgid(id): see the top of the file. */
long sys_setuid(uint64_t id, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	if ((uint32_t)id == INVALID_ID)
		return -EINVAL;
	return (uint32_t)id == ROOT_ID ? 0 : -EPERM;
}
