/* The kernel's direct access to user memory (user_copy.S). Only address_space.c calls
 * user_copy; the trap handler needs the fault range. */
#ifndef DUPLEX_MM_USER_COPY_H
#define DUPLEX_MM_USER_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copy between kernel and user memory of the address space loaded on this hart;
 * 0 or -EFAULT. The caller has checked that the user side is below USER_SPACE_END. */
long user_copy(void *to, const void *from, size_t length);

/* A page or access fault at a pc in [user_copy, user_copy_fault) resumes at
 * user_copy_fault, which returns -EFAULT (trap_handle_kernel). */
extern char user_copy_fault[];

static inline bool user_copy_owns_fault(uint64_t pc)
{
	return pc >= (uint64_t)user_copy && pc < (uint64_t)user_copy_fault;
}

#endif
