/* Page-table entry bits, and the one place that decides the memory attributes of
 * normal memory and of device registers.
 *
 * Sv39 PTE bits: RISC-V privileged spec 1.12, section 4.4.1. On standard harts (QEMU)
 * attributes come from the platform's PMAs, so both kinds carry no extra bits. The
 * Allwinner D1's T-Head C906 with MAEE enabled needs its own attribute bits 63..59
 * (../shared/reference/lichee-rv-d1.md): vm.c asks memattr_* for them, so adding that
 * board changes this file only. */
#ifndef DUPLEX_MM_MEMATTR_H
#define DUPLEX_MM_MEMATTR_H

#include <stdint.h>

#define PTE_V (1ull << 0)
#define PTE_R (1ull << 1)
#define PTE_W (1ull << 2)
#define PTE_X (1ull << 3)
#define PTE_U (1ull << 4)
#define PTE_G (1ull << 5)
#define PTE_A (1ull << 6) /* set up front: harts without hardware A/D updates fault otherwise */
#define PTE_D (1ull << 7)

#define PTE_PPN_SHIFT 10

enum memory_kind {
	MEMORY_NORMAL, /* RAM: cacheable */
	MEMORY_DEVICE, /* MMIO registers: strongly ordered, uncached */
};

/* Extra PTE bits for a leaf mapping of this kind of memory on this hart. */
uint64_t memattr_pte_bits(enum memory_kind kind);

#endif
