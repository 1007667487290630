/* RISC-V Platform-Level Interrupt Controller ("riscv,plic0", "sifive,plic-1.0.0",
 * "thead,c900-plic"), found from the device tree. */
#ifndef DUPLEX_DRIVERS_PLIC_H
#define DUPLEX_DRIVERS_PLIC_H

#include "kernel/fdt/platform.h"

/* Called once by boot code on the boot hart: maps the registers, masks every source
 * and registers the PLIC as the kernel's interrupt controller (irq_set_chip).
 * Returns 0, or -1 if the platform has no PLIC. */
int plic_init(const struct plic_desc *desc);

#endif
