/* Memory attribute bits for leaf PTEs; see memattr.h. */
#include "mm/memattr.h"

uint64_t memattr_pte_bits(enum memory_kind kind)
{
	/* Standard RISC-V without Svpbmt: the PMAs of the physical address decide. */
	(void)kind;
	return 0;
}
