/* The instruction-set letters every hart has ("imafdc"), from the device tree: what the
 * FPU code checks and what programs see as AT_HWCAP. */
#ifndef DUPLEX_HART_ISA_H
#define DUPLEX_HART_ISA_H

#include <stdbool.h>
#include <stdint.h>

/* Called by kernel_main once, from the platform's isa_letters (bit n: 'a' + n). */
void isa_set_letters(uint64_t letters);

/* Does every hart have the single-letter extension `letter` ('f', 'd', ...)? Any
 * context. */
bool isa_has(char letter);

/* AT_HWCAP for programs: Linux reports only the letters I, M, A, F, D, C and V there,
 * one bit each at 'x' - 'a' (arch/riscv/kernel/cpufeature.c, riscv_fill_hwcap). Any
 * context. */
uint64_t isa_hwcap(void);

#endif
