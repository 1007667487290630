/* The kernel's physical page allocator, over all RAM the device tree describes minus
 * firmware, the kernel image and the device tree blob. Pages are handed out by their
 * direct-map virtual address (layout.h), zero-filled. Any context (spinlock inside);
 * never sleeps. */
#ifndef DUPLEX_MM_PAGE_H
#define DUPLEX_MM_PAGE_H

#include <stdint.h>

#include "kernel/fdt/platform.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/page_pool.h"

static inline void *physical_to_virtual(uint64_t physical)
{
	return (void *)(physical + DIRECT_MAP_BASE);
}

static inline uint64_t virtual_to_physical(const void *direct_mapped)
{
	return (uint64_t)direct_mapped - DIRECT_MAP_BASE;
}

/* Called once by kernel_main on the boot hart. `kernel_physical_base` and
 * `kernel_size` cover the loaded image including bss; the DTB is reserved too. */
void page_alloc_init(const struct platform *platform, uint64_t kernel_physical_base,
                     uint64_t kernel_size, uint64_t dtb_physical, uint64_t dtb_size);

/* `count` contiguous zeroed pages, or NULL. */
void *page_alloc_pages(uint64_t count);
/* The same, not zeroed, for a caller that overwrites every byte at once (fork's copy
 * of an address space: zeroing first would double the cost of each page). */
void *page_alloc_pages_unzeroed(uint64_t count);
void page_free_pages(void *pages, uint64_t count);

uint64_t page_free_count(void);
uint64_t page_total_count(void);

#endif
