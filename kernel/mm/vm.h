/* The kernel's Sv39 page table: the image with separate permissions for text (R-X),
 * rodata (R--) and data/bss (RW-), all RAM in the direct map (RW-), and device
 * registers mapped on request (RW-, device attributes). One table shared by all harts;
 * user address spaces (a later layer) copy its upper half. */
#ifndef DUPLEX_MM_VM_H
#define DUPLEX_MM_VM_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fdt/platform.h"

/* Called once by kernel_main on the boot hart, after page_alloc_init. Builds the table
 * and switches this hart to it. */
void vm_init(const struct platform *platform, uint64_t kernel_physical_base);
/* Called by secondary_main: switch this hart from the boot table to the kernel's. */
void vm_enable_on_this_hart(void);
/* Map device registers at `physical` into the direct map; returns their virtual
 * address. Called by drivers during boot, before secondary harts start (it flushes
 * only this hart's TLB). Panics when out of memory for page tables. */
void *vm_map_device(uint64_t physical, uint64_t size);
/* The satp value for the kernel table. */
uint64_t vm_kernel_satp(void);
/* The kernel's root table, whose upper half every user table shares. */
const uint64_t *vm_kernel_root(void);
/* The level-0 (4 KiB) PTE for `virtual` in `root`, creating intermediate tables when
 * `allocate`; NULL if absent (or out of memory), or if a large page covers it. */
uint64_t *vm_walk(uint64_t *root, uint64_t virtual, bool allocate);
/* Load satp and flush this hart's TLB. */
void vm_activate(uint64_t satp);

#endif
