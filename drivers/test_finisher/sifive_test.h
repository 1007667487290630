/* QEMU's "sifive,test0" finisher: one register; writing it ends the emulator with a
 * status (QEMU hw/misc/sifive_test.c: 0x5555 = pass, (code << 16) | 0x3333 = fail
 * with exit code `code`). */
#ifndef DUPLEX_DRIVERS_SIFIVE_TEST_H
#define DUPLEX_DRIVERS_SIFIVE_TEST_H

#include "drivers/base/driver.h"

/* The driver table's probe (drivers/base/drivers.c), on the boot hart: maps the device
 * and registers the power-off exit hook. Returns 0, or -1 if the node has no reg. */
int sifive_test_probe(const struct device *device);

#endif
