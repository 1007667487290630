/* Who the process is: getuid, geteuid, getgid, getegid, setuid, setgid. Every Duplex
 * process is root (kernel/syscall/sys_identity.c): the ids are 0, and setuid/setgid
 * accept only 0 (EPERM otherwise). */
#include <unistd.h>

#include "internal.h"

uid_t getuid(void)
{
	return (uid_t)syscall0(SYS_getuid);
}

uid_t geteuid(void)
{
	return (uid_t)syscall0(SYS_geteuid);
}

gid_t getgid(void)
{
	return (gid_t)syscall0(SYS_getgid);
}

gid_t getegid(void)
{
	return (gid_t)syscall0(SYS_getegid);
}

int setuid(uid_t id)
{
	return (int)libc_result(syscall1(SYS_setuid, (long)id));
}

int setgid(gid_t id)
{
	return (int)libc_result(syscall1(SYS_setgid, (long)id));
}
