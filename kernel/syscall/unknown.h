/* The answer to a system call number without a handler (unknown.c). */
#ifndef DUPLEX_SYSCALL_UNKNOWN_H
#define DUPLEX_SYSCALL_UNKNOWN_H

#include <stdint.h>

/* Called by syscall_entry for a number with no handler, in the calling program's task:
 * logs the call (once per number per program, see unknown.c) and returns -ENOSYS. */
long syscall_unknown(uint64_t number);

#endif
