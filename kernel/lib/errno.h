/* The kernel's errno: Linux's numbers, which system calls return as -E... (the user ABI,
 * uapi/errno.h), and the restart codes only the kernel sees (as Linux's
 * include/linux/errno.h adds them to include/uapi/linux/errno.h). */
#ifndef DUPLEX_LIB_ERRNO_H
#define DUPLEX_LIB_ERRNO_H

#include "uapi/errno.h"

/* Kernel-internal restart codes (Linux include/linux/errno.h): a system call interrupted
 * by a signal returns one, and the return to user mode (kernel/signal/deliver.c) turns it
 * into -EINTR or restarts the call; user space never sees them. */
#define ERESTARTSYS    512 /* restart if the handler has SA_RESTART, else EINTR */
#define ERESTARTNOINTR 513 /* always restart */
#define ERESTARTNOHAND 514 /* restart only if no handler runs, else EINTR */

#endif
