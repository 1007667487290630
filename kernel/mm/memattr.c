/* Memory attribute bits for leaf PTEs: the one place that turns "normal memory" or
 * "device registers" into PTE bits. See memattr.h for the sources.
 *
 * No hardware access here (memattr_probe.c reads the CSR), so tests/host links this
 * file as it is. */
#include "kernel/mm/memattr.h"

/* Set once by memattr_init() on the boot hart before the first mapping, then only read,
 * by every hart: no lock needed. */
static bool thead_maee_in_use;

uint64_t memattr_encode(enum memory_kind kind, bool thead_maee)
{
	/* Standard RISC-V without Svpbmt: the PMAs of the physical address decide, and
	 * bits 63..54 must stay zero. */
	if (!thead_maee)
		return 0;
	switch (kind) {
	case MEMORY_NORMAL:
		return THEAD_PTE_NORMAL;
	case MEMORY_DEVICE:
		return THEAD_PTE_DEVICE;
	}
	/* Not reached for a valid kind; strongly ordered is the safe guess for anything. */
	return THEAD_PTE_DEVICE;
}

void memattr_set_thead_maee(bool thead_maee)
{
	thead_maee_in_use = thead_maee;
}

bool memattr_thead_maee(void)
{
	return thead_maee_in_use;
}

uint64_t memattr_pte_bits(enum memory_kind kind)
{
	return memattr_encode(kind, thead_maee_in_use);
}
