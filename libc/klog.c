/* klogctl(): syslog(2), the kernel log buffer. */
#include <sys/klog.h>

#include "internal.h"

/* Called by /bin/dmesg. Returns what the kernel returns, or -1 with errno set. */
int klogctl(int type, char *buffer, int length)
{
	return (int)libc_result(syscall3(SYS_syslog, type, (long)buffer, length));
}
