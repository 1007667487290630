/* QEMU's "sifive,test0" finisher: one register; writing it ends the emulator with a
 * status (QEMU hw/misc/sifive_test.c: 0x5555 = pass, (code << 16) | 0x3333 = fail
 * with exit code `code`). */
#ifndef DUPLEX_DRIVERS_SIFIVE_TEST_H
#define DUPLEX_DRIVERS_SIFIVE_TEST_H

#include <stdint.h>

/* Called once at boot when the DT has the device: maps it and registers the power-off
 * exit hook. */
void sifive_test_init(uint64_t physical_base);

#endif
