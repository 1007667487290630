/* Memory attribute bits for leaf PTEs: the one place that turns "normal memory" or
 * "device registers" into PTE bits. See memattr.h for the sources.
 *
 * No hardware access here (memattr_probe.c reads the CSR), so tests/host links this
 * file as it is. */
#include "kernel/mm/memattr.h"

/* Set once by memattr_init() on the boot hart before the first mapping, then only read,
 * by every hart: no lock needed. */
static enum memattr_scheme scheme_in_use;

uint64_t memattr_encode(enum memory_kind kind, enum memattr_scheme scheme)
{
	bool device = kind != MEMORY_NORMAL; /* anything unknown: the safe, uncached guess */
	switch (scheme) {
	case MEMATTR_THEAD_MAEE:
		return device ? THEAD_PTE_DEVICE : THEAD_PTE_NORMAL;
	case MEMATTR_SVPBMT:
		return device ? SVPBMT_PTE_IO : 0; /* PBMT 0: RAM's PMAs, cacheable */
	case MEMATTR_PMA_ONLY:
		break;
	}
	/* Standard RISC-V without Svpbmt: the PMAs of the physical address decide, and
	 * bits 63..54 must stay zero. */
	return 0;
}

void memattr_set_scheme(enum memattr_scheme scheme)
{
	scheme_in_use = scheme;
}

enum memattr_scheme memattr_scheme(void)
{
	return scheme_in_use;
}

uint64_t memattr_pte_bits(enum memory_kind kind)
{
	return memattr_encode(kind, scheme_in_use);
}
