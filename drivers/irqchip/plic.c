/* PLIC driver. Register map: RISC-V PLIC Specification v1.0.0, chapter 3 "Memory Map":
 *   priority[source]     base + 4 * source
 *   pending bits         base + 0x1000
 *   enable bits          base + 0x2000 + 0x80 * context
 *   priority threshold   base + 0x200000 + 0x1000 * context
 *   claim / complete     base + 0x200004 + 0x1000 * context
 * Contexts per hart come from the DT's interrupts-extended (kernel/fdt/platform.c).
 * The T-Head C906 PLIC (D1) keeps the same layout; OpenSBI sets its S-mode access bit
 * (OpenSBI lib/utils/irqchip/fdt_irqchip_plic.c; docs/sources.md), and the probe checks
 * that it was (plic_access.h). */
#include "drivers/irqchip/plic.h"
#include "drivers/irqchip/plic_access.h"

#include <stdint.h>

#include "kernel/hart/hart.h"
#include "kernel/irq/irq.h"
#include "kernel/log/log.h"
#include "kernel/mm/vm.h"

#define PLIC_PENDING(source)    (0x1000u + 4u * ((source) / 32))
#define PLIC_ENABLE(context)    (0x2000u + 0x80u * (context))
#define PLIC_THRESHOLD(context) (0x200000u + 0x1000u * (context))
#define PLIC_CLAIM(context)     (0x200004u + 0x1000u * (context))

static volatile uint8_t *plic_base;
static struct plic_desc plic;

static volatile uint32_t *plic_register(uint32_t offset)
{
	return (volatile uint32_t *)(plic_base + offset);
}

/* S-mode context of a hart index, or -1. */
static int context_of(int hart_index)
{
	uint32_t hart_id = hart_by_index(hart_index)->hart_id;
	return hart_id < PLATFORM_MAX_HARTS ? plic.s_context[hart_id] : -1;
}

static void plic_init_hart(int hart_index)
{
	int context = context_of(hart_index);
	if (context < 0)
		return;
	*plic_register(PLIC_THRESHOLD(context)) = 0; /* accept every priority above 0 */
}

static void set_enable(uint32_t irq, int hart_index, int on)
{
	int context = context_of(hart_index);
	if (context < 0)
		return;
	volatile uint32_t *word = plic_register(PLIC_ENABLE(context) + 4 * (irq / 32));
	if (on)
		*word |= 1u << (irq % 32);
	else
		*word &= ~(1u << (irq % 32));
}

static void plic_enable(uint32_t irq, int hart_index)
{
	*plic_register(PLIC_PRIORITY(irq)) = 1;
	set_enable(irq, hart_index, 1);
}

static void plic_disable(uint32_t irq, int hart_index)
{
	set_enable(irq, hart_index, 0);
}

static uint32_t plic_claim(int hart_index)
{
	int context = context_of(hart_index);
	return context < 0 ? 0 : *plic_register(PLIC_CLAIM(context));
}

static void plic_complete(uint32_t irq, int hart_index)
{
	int context = context_of(hart_index);
	if (context >= 0)
		*plic_register(PLIC_CLAIM(context)) = irq;
}

static bool plic_pending(uint32_t irq)
{
	return (*plic_register(PLIC_PENDING(irq)) >> (irq % 32)) & 1;
}

static const struct irq_chip_ops plic_ops = {
    .name = "plic",
    .init_hart = plic_init_hart,
    .enable = plic_enable,
    .disable = plic_disable,
    .claim = plic_claim,
    .complete = plic_complete,
    .pending = plic_pending,
};

int plic_probe(const struct device *device)
{
	const struct plic_desc *desc = &plic;
	if (platform_read_plic(device->fdt, device->node, device->compatible, &plic) != 0)
		return -1;
	plic_base = vm_map_device(desc->base, desc->size);
	struct plic_registers registers = {.base = plic_base};
	uint32_t wrote, read_back;
	if (!plic_s_mode_writes_reach(&registers, 1, &wrote, &read_back)) {
		/* Not registered: irq_register then fails for every driver, which each say
		 * what they do instead. */
		log_printf("plic: %s at %#lx: S-mode writes do not reach it (source 1's "
		           "priority read back %u after writing %u): the firmware did not give "
		           "S-mode access (T-Head PLIC_CTRL at +0x1ffffc). Without it there are no "
		           "device interrupts: the async console falls back to polling and the "
		           "D1 timer block cannot be the timer\n",
		           desc->compatible, desc->base, read_back, wrote);
		return -1;
	}
	uint32_t sources =
	    desc->source_count < IRQ_MAX_SOURCES ? desc->source_count : IRQ_MAX_SOURCES - 1;
	for (uint32_t source = 1; source <= sources; source++)
		*plic_register(PLIC_PRIORITY(source)) = 0;
	irq_set_chip(&plic_ops);
	log_printf("plic: %s at %#lx, %u sources\n", desc->compatible, desc->base, sources);
	return 0;
}
