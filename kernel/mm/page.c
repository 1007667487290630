/* Physical page allocator: page_pool under a spinlock; see page.h. */
#include "kernel/mm/page.h"

#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/panic/panic.h"
#include "kernel/sync/spinlock.h"

static struct page_pool pool;
static struct spinlock pool_lock = SPINLOCK_INIT("pages");
static uint64_t total_pages;
/* One count per page the pool covers (page.h), indexed like its bitmap. Taken from the
 * pool itself at init (a contiguous run, zeroed), so it needs no room of its own in the
 * memory layout: 4 bytes per 4 KiB page, 0.1% of RAM. */
static uint32_t *page_references;

/* The count of the page at direct-map address `page`. */
static uint32_t *references_of(const void *page)
{
	return &page_references[(virtual_to_physical(page) - pool.first_page) >> PAGE_SHIFT];
}

void page_alloc_init(const struct platform *platform, uint64_t kernel_physical_base,
                     uint64_t kernel_size, uint64_t dtb_physical, uint64_t dtb_size)
{
	struct mem_range reserved[PLATFORM_MAX_RESERVED + 3];
	int count = 0;
	uint64_t lowest = ~0ull, highest = 0;

	for (int i = 0; i < platform->memory_count; i++) {
		const struct mem_range *ram = &platform->memory[i];
		if (ram->base < lowest)
			lowest = ram->base;
		if (ram->base + ram->size > highest)
			highest = ram->base + ram->size;
	}
	for (int i = 0; i < platform->reserved_count; i++)
		reserved[count++] = platform->reserved[i];
	/* By the boot protocol the firmware owns the text_offset bytes below the image
	 * (OpenSBI sits there on both our boards), whether or not the DT says so. */
	uint64_t region_start = kernel_physical_base - KERNEL_TEXT_OFFSET;
	reserved[count++] = (struct mem_range){region_start, kernel_physical_base - region_start};
	reserved[count++] = (struct mem_range){dtb_physical, dtb_size};

	/* The bitmap goes right after the image; reserve it as part of the kernel. */
	uint64_t words = page_pool_bitmap_words(lowest, highest);
	uint64_t bitmap_physical = kernel_physical_base + kernel_size;
	uint64_t bitmap_bytes = (words * 8 + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	reserved[count++] = (struct mem_range){kernel_physical_base, kernel_size + bitmap_bytes};

	page_pool_init(&pool, physical_to_virtual(bitmap_physical), platform->memory,
	               platform->memory_count, reserved, count);
	uint64_t table_pages =
	    (pool.page_count * sizeof *page_references + PAGE_SIZE - 1) / PAGE_SIZE;
	uint64_t table_physical = page_pool_alloc(&pool, table_pages);
	if (!table_physical)
		panic("page_alloc_init: no %lu pages for the reference counts", table_pages);
	page_references = physical_to_virtual(table_physical);
	memset(page_references, 0, table_pages * PAGE_SIZE);
	total_pages = pool.free_pages;
}

/* A new run of pages: each has one reference, its allocator's. */
static void *claim_pages(uint64_t physical, uint64_t count)
{
	void *pages = physical_to_virtual(physical);
	uint32_t *references = references_of(pages);
	for (uint64_t i = 0; i < count; i++)
		references[i] = 1;
	return pages;
}

void *page_alloc_pages(uint64_t count)
{
	spin_lock(&pool_lock);
	uint64_t physical = page_pool_alloc(&pool, count);
	spin_unlock(&pool_lock);
	if (!physical)
		return 0;
	void *pages = claim_pages(physical, count);
	memset(pages, 0, count * PAGE_SIZE);
	return pages;
}

void *page_alloc_pages_unzeroed(uint64_t count)
{
	spin_lock(&pool_lock);
	uint64_t physical = page_pool_alloc(&pool, count);
	spin_unlock(&pool_lock);
	return physical ? claim_pages(physical, count) : 0;
}

void page_free_pages(void *pages, uint64_t count)
{
	if (!pages)
		return;
	uint32_t *references = references_of(pages);
	for (uint64_t i = 0; i < count; i++) {
		if (__atomic_load_n(&references[i], __ATOMIC_RELAXED) > 1)
			panic("page_free_pages: page %p is still shared",
			      (uint8_t *)pages + i * PAGE_SIZE);
		references[i] = 0;
	}
	spin_lock(&pool_lock);
	bool ok = page_pool_free(&pool, virtual_to_physical(pages), count);
	spin_unlock(&pool_lock);
	if (!ok)
		panic("page_free_pages: bad free of %lu pages at %p", count, pages);
}

uint64_t page_free_count(void)
{
	return pool.free_pages;
}

uint64_t page_total_count(void)
{
	return total_pages;
}

/* Called by address_space_copy (fork) for every page it shares. Any context. */
void page_reference_get(void *page)
{
	__atomic_add_fetch(references_of(page), 1, __ATOMIC_RELAXED);
}

/* Called by mm/address_space.c wherever a space lets go of a page (unmap, destroy, a
 * copy-on-write break). Release: this owner's last reads of the page happen before
 * whoever sees the count drop may write it; acquire for the one that frees it. */
void page_reference_put(void *page)
{
	if (__atomic_sub_fetch(references_of(page), 1, __ATOMIC_ACQ_REL) == 0)
		page_free_pages(page, 1);
}

uint32_t page_reference_count(const void *page)
{
	return __atomic_load_n(references_of(page), __ATOMIC_ACQUIRE);
}
