/* RISC-V Platform-Level Interrupt Controller ("riscv,plic0", "sifive,plic-1.0.0",
 * "thead,c900-plic"), found from the device tree. */
#ifndef DUPLEX_DRIVERS_PLIC_H
#define DUPLEX_DRIVERS_PLIC_H

#include "drivers/base/driver.h"

/* The driver table's probe (drivers/base/drivers.c), on the boot hart: reads the node,
 * maps the registers, masks every source and registers the PLIC as the kernel's
 * interrupt controller (irq_set_chip). Returns 0, or -1 if the node has no registers. */
int plic_probe(const struct device *device);

#endif
