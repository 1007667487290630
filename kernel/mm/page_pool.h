/* Physical page pool: a bitmap over every page of RAM, one bit per 4 KiB page,
 * set = in use. Allocation is first-fit for runs of contiguous pages, starting from a
 * rotating hint so that single pages come fast.
 *
 * Pure logic over memory the caller hands in: no locking (the caller, mm/page.c,
 * holds its spinlock), no sleeping, and host unit tests drive it directly with a
 * buffer standing in for RAM. Addresses are whatever the caller uses to name pages
 * (physical in the kernel); the pool only does arithmetic on them. */
#ifndef DUPLEX_PAGE_POOL_H
#define DUPLEX_PAGE_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/fdt/platform.h" /* struct mem_range */

#define PAGE_SHIFT 12
#define PAGE_SIZE  (1ull << PAGE_SHIFT)

struct page_pool {
	uint64_t first_page; /* address of the page bit 0 stands for */
	uint64_t page_count; /* pages the bitmap covers (free or not) */
	uint64_t *bitmap;    /* (page_count + 63) / 64 words */
	uint64_t free_pages;
	uint64_t hint; /* page index where the next search starts */
};

/* Bitmap words needed to cover [lowest, highest) of RAM. */
uint64_t page_pool_bitmap_words(uint64_t lowest, uint64_t highest);

/* Set up a pool over the span of all `ram` ranges using `bitmap` (of
 * page_pool_bitmap_words() words). Every page starts in use; then the pages fully
 * inside a ram range and outside every `reserved` range are made free.
 * Unaligned range ends are rounded inward (ram) or outward (reserved). */
void page_pool_init(struct page_pool *pool, uint64_t *bitmap, const struct mem_range *ram,
                    int ram_count, const struct mem_range *reserved, int reserved_count);

/* Address of `count` contiguous free pages, now marked in use; 0 if no such run. */
uint64_t page_pool_alloc(struct page_pool *pool, uint64_t count);
/* Give back `count` pages at `address`. Returns false (and changes nothing) if any of
 * them is outside the pool, unaligned, or already free (a double free). */
bool page_pool_free(struct page_pool *pool, uint64_t address, uint64_t count);
/* Mark pages in use that were free (used to carve the kernel out after init).
 * Returns false if any page is outside the pool, unaligned, or already in use. */
bool page_pool_take(struct page_pool *pool, uint64_t address, uint64_t count);
bool page_pool_is_free(const struct page_pool *pool, uint64_t address);

#endif
