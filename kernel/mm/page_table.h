/* Building Sv39 page tables (RISC-V privileged spec 1.12, 4.4): the kernel's mappings
 * and what they carry, with no CSR or TLB access, so that the host tests build the very
 * tables the board gets and walk them (tests/host/test_page_walk.c). vm.c owns the
 * kernel's root and switches harts to it. Every function here runs on the boot hart
 * during boot or under the caller's own serialisation; none sleeps; page-table pages
 * come from page_alloc_pages and each function panics when there is none (a boot that
 * cannot map its own memory cannot go on). */
#ifndef DUPLEX_MM_PAGE_TABLE_H
#define DUPLEX_MM_PAGE_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fdt/platform.h"

/* Where the linker put the kernel image's parts (virtual addresses, kernel.ld's
 * _kernel_start, _text_end, _rodata_end, _kernel_end) and where it was loaded. */
struct kernel_image {
	uint64_t start, text_end, rodata_end, end;
	uint64_t physical_base;
};

/* Map [virtual, virtual + size) onto physical with the largest pages alignment allows;
 * `bits` are the leaf's flags and attribute bits. */
void page_table_map_range(uint64_t *root, uint64_t virtual, uint64_t physical, uint64_t size,
                          uint64_t bits);
/* The kernel's own mappings into an empty root: the image (text R-X, rodata R--,
 * data/bss RW-) and all RAM in the direct map (RW-), all with the normal-memory
 * attribute bits (memattr_pte_bits). Called by vm_init. */
void page_table_map_kernel(uint64_t *root, const struct kernel_image *image,
                           const struct platform *platform);
/* Device registers at `physical` into the direct map (RW-, device attribute bits),
 * rounded out to whole pages. Called by vm_map_device. */
void page_table_map_device(uint64_t *root, uint64_t physical, uint64_t size);
/* The level-0 (4 KiB) PTE for `virtual` in `root`, creating intermediate tables when
 * `allocate`; NULL if absent (or out of memory), or if a large page covers it. */
uint64_t *page_table_walk(uint64_t *root, uint64_t virtual, bool allocate);

#endif
