/* getauxval(): values the kernel passed in the auxiliary vector. */
#include <errno.h>
#include <stddef.h>
#include <sys/auxv.h>

#include "internal.h"

#define AT_NULL 0

/* Look up `type` (AT_PAGESZ 6, AT_RANDOM 25, ...) in the vector libc_start() found.
 * Returns its value, or 0 with errno = ENOENT if the kernel did not pass it. */
unsigned long getauxval(unsigned long type)
{
	for (const unsigned long *pair = libc_auxv; pair != NULL && pair[0] != AT_NULL; pair += 2) {
		if (pair[0] == type)
			return pair[1];
	}
	errno = ENOENT;
	return 0;
}
