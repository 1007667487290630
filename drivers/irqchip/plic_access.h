/* Can S-mode write the PLIC's registers? The T-Head C906 PLIC of the D1
 * ("thead,c900-plic") lets S-mode reach its priority, pending and enable registers only
 * after M-mode sets bit 0 (S_PER) of its control register at +0x1ffffc (T-Head C906
 * user manual, PLIC_CTRL; NuttX arch/risc-v/src/c906/hardware/c906_plic.h names the
 * offset), which OpenSBI does only for that compatible (OpenSBI
 * lib/utils/irqchip/fdt_irqchip_plic.c, thead_plic_plat_init). A firmware that does not
 * leaves every interrupt source unusable from S-mode.
 *
 * The register logic alone, so that host tests run it against a model
 * (tests/host/test_plic_access.c); plic.c calls it at probe. */
#ifndef DUPLEX_DRIVERS_PLIC_ACCESS_H
#define DUPLEX_DRIVERS_PLIC_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

/* RISC-V PLIC Specification v1.0.0, chapter 3: source N's priority at base + 4 * N. */
#define PLIC_PRIORITY(source) (4u * (source))

struct plic_registers {
	volatile uint8_t *base;
	/* Register access: null means MMIO (the kernel); host tests install a model's. */
	uint32_t (*read_register)(struct plic_registers *plic, uint32_t offset);
	void (*write_register)(struct plic_registers *plic, uint32_t offset, uint32_t value);
	void *access_context;
};

/* Write 1, then 0, to `source`'s priority register and read each back: true when both
 * stuck (every PLIC holds priority 1: the spec's minimum), false when a write was lost
 * (*read_back then holds what was read instead). Leaves the priority 0 (masked) and
 * touches no other register. Called by plic_probe on the boot hart, before any source
 * is enabled; never sleeps. */
bool plic_s_mode_writes_reach(struct plic_registers *plic, uint32_t source, uint32_t *wrote,
                              uint32_t *read_back);

#endif
