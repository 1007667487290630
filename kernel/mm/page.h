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
/* Give pages back. Each must have at most one reference (a page still shared by
 * copy-on-write address spaces is freed by its last page_reference_put): a bad free
 * panics, as it is a kernel bug. */
void page_free_pages(void *pages, uint64_t count);

/* Reference counts for pages shared copy-on-write between address spaces
 * (kernel/mm/address_space.c): every allocated page starts with one reference, its
 * allocator. fork adds one per space that maps the page; a space that unmaps it drops
 * one, and the last drop frees it. Atomic, no lock: any context, never sleeps. */
void page_reference_get(void *page);
/* Drop one reference; frees the page when it was the last. */
void page_reference_put(void *page);
/* The page's current references (1: one owner, which may write it in place). Acquire
 * ordering: a caller that sees 1 also sees every access the other owners made before
 * they dropped theirs. */
uint32_t page_reference_count(const void *page);

uint64_t page_free_count(void);
uint64_t page_total_count(void);

#endif
