/* The PLIC's S-mode access check; see plic_access.h. */
#include "drivers/irqchip/plic_access.h"

static uint32_t read_register(struct plic_registers *plic, uint32_t offset)
{
	if (plic->read_register)
		return plic->read_register(plic, offset);
	return *(volatile uint32_t *)(plic->base + offset);
}

static void write_register(struct plic_registers *plic, uint32_t offset, uint32_t value)
{
	if (plic->write_register)
		plic->write_register(plic, offset, value);
	else
		*(volatile uint32_t *)(plic->base + offset) = value;
}

bool plic_s_mode_writes_reach(struct plic_registers *plic, uint32_t source, uint32_t *wrote,
                              uint32_t *read_back)
{
	/* Both values: a register stuck at either one (ignored writes over whatever
	 * firmware left there) fails one of them. */
	static const uint32_t probes[] = {1, 0};
	for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; i++) {
		write_register(plic, PLIC_PRIORITY(source), probes[i]);
		uint32_t seen = read_register(plic, PLIC_PRIORITY(source));
		if (seen != probes[i]) {
			*wrote = probes[i];
			*read_back = seen;
			write_register(plic, PLIC_PRIORITY(source), 0);
			return false;
		}
	}
	return true;
}
