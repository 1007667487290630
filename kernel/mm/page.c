/* Physical page allocator: page_pool under a spinlock; see page.h. */
#include "kernel/mm/page.h"

#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/panic/panic.h"
#include "kernel/sync/spinlock.h"

static struct page_pool pool;
static struct spinlock pool_lock = SPINLOCK_INIT("pages");
static uint64_t total_pages;

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
	total_pages = pool.free_pages;
}

void *page_alloc_pages(uint64_t count)
{
	spin_lock(&pool_lock);
	uint64_t physical = page_pool_alloc(&pool, count);
	spin_unlock(&pool_lock);
	if (!physical)
		return 0;
	void *pages = physical_to_virtual(physical);
	memset(pages, 0, count * PAGE_SIZE);
	return pages;
}

void *page_alloc_pages_unzeroed(uint64_t count)
{
	spin_lock(&pool_lock);
	uint64_t physical = page_pool_alloc(&pool, count);
	spin_unlock(&pool_lock);
	return physical ? physical_to_virtual(physical) : 0;
}

void page_free_pages(void *pages, uint64_t count)
{
	if (!pages)
		return;
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
