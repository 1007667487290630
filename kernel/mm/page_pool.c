/* Physical page pool: one bit per page, set = in use (see mm/page_pool.h).
 *
 * Everything here is arithmetic on page indices (bit numbers) and on uint64_t
 * addresses; the pool never touches the pages themselves. Scans go a 64-bit word at
 * a time so that a mostly full or mostly empty bitmap is crossed quickly.
 *
 * Address 0 doubles as "no pages" for page_pool_alloc(), so if RAM starts at 0 the
 * page there is kept in use forever rather than ever being handed out. */
#include "kernel/mm/page_pool.h"

#define BITS_PER_WORD    64
#define PAGE_OFFSET_MASK (PAGE_SIZE - 1)
/* The highest page boundary below 2^64: rounding up saturates here instead of
 * wrapping a range that reaches the top of the address space round to 0. */
#define HIGHEST_PAGE_BOUNDARY (~PAGE_OFFSET_MASK)
/* Returned by the index helpers when there is no answer (no index reaches this). */
#define NO_PAGE UINT64_MAX

static uint64_t round_down_to_page(uint64_t address)
{
	return address & ~PAGE_OFFSET_MASK;
}

static uint64_t round_up_to_page(uint64_t address)
{
	if (address > HIGHEST_PAGE_BOUNDARY)
		return HIGHEST_PAGE_BOUNDARY;
	return (address + PAGE_OFFSET_MASK) & ~PAGE_OFFSET_MASK;
}

/* End of a range, saturating at UINT64_MAX for a size that would wrap. */
static uint64_t range_end(const struct mem_range *range)
{
	uint64_t end = range->base + range->size;
	return end < range->base ? UINT64_MAX : end;
}

/* Pages from the page holding `lowest` to the one holding `highest - 1`: the span
 * the bitmap covers. Shared by page_pool_bitmap_words() and page_pool_init() so the
 * caller's buffer and the pool always agree on the size. */
static uint64_t span_pages(uint64_t lowest, uint64_t highest)
{
	if (highest <= lowest)
		return 0;
	return (round_up_to_page(highest) - round_down_to_page(lowest)) >> PAGE_SHIFT;
}

/* Bit number (0..63) of the lowest set bit of a non-zero word. Written out rather
 * than __builtin_ctzll because, without the Zbb extension, gcc calls into libgcc for
 * it, and a plain binary search is just as clear. */
static unsigned lowest_set_bit(uint64_t word)
{
	unsigned bit = 0;

	if ((word & 0xffffffffull) == 0) {
		word >>= 32;
		bit += 32;
	}
	if ((word & 0xffffull) == 0) {
		word >>= 16;
		bit += 16;
	}
	if ((word & 0xffull) == 0) {
		word >>= 8;
		bit += 8;
	}
	if ((word & 0xfull) == 0) {
		word >>= 4;
		bit += 4;
	}
	if ((word & 0x3ull) == 0) {
		word >>= 2;
		bit += 2;
	}
	if ((word & 0x1ull) == 0)
		bit += 1;
	return bit;
}

/* First page index in [index, limit) that is in use (want_in_use) or free (!want_in_use);
 * `limit` if there is none. limit must not exceed page_count. */
static uint64_t find_next_page(const struct page_pool *pool, uint64_t index, uint64_t limit,
                               bool want_in_use)
{
	while (index < limit) {
		uint64_t word = pool->bitmap[index / BITS_PER_WORD];
		uint64_t word_start = index - index % BITS_PER_WORD;

		if (!want_in_use)
			word = ~word; /* now a set bit marks a page we are looking for */
		word &= ~0ull << (index % BITS_PER_WORD); /* ignore pages before index */
		if (word != 0) {
			uint64_t found = word_start + lowest_set_bit(word);
			return found < limit ? found : limit;
		}
		index = word_start + BITS_PER_WORD;
	}
	return limit;
}

/* Set (in_use) or clear the bits of pages [index, index + count). */
static void mark_pages(struct page_pool *pool, uint64_t index, uint64_t count, bool in_use)
{
	while (count > 0) {
		uint64_t bit = index % BITS_PER_WORD;
		uint64_t bits_here = BITS_PER_WORD - bit;
		uint64_t mask;

		if (bits_here > count)
			bits_here = count;
		mask = bits_here == BITS_PER_WORD ? ~0ull : ((1ull << bits_here) - 1) << bit;
		if (in_use)
			pool->bitmap[index / BITS_PER_WORD] |= mask;
		else
			pool->bitmap[index / BITS_PER_WORD] &= ~mask;
		index += bits_here;
		count -= bits_here;
	}
}

static bool all_pages_are(const struct page_pool *pool, uint64_t index, uint64_t count, bool in_use)
{
	return find_next_page(pool, index, index + count, !in_use) == index + count;
}

/* Lowest index in [start, last_start] where `count` free pages begin, or NO_PAGE.
 * last_start + count must not exceed page_count. */
static uint64_t find_free_run(const struct page_pool *pool, uint64_t start, uint64_t last_start,
                              uint64_t count)
{
	uint64_t index = start;

	while (index <= last_start) {
		uint64_t run_end;

		index = find_next_page(pool, index, last_start + 1, false);
		if (index > last_start)
			break;
		run_end = find_next_page(pool, index, index + count, true);
		if (run_end == index + count)
			return index;
		index = run_end + 1; /* run_end is in use: no run can include it */
	}
	return NO_PAGE;
}

/* Index of the first of `count` pages at `address` if they are all inside the pool
 * and address is page aligned; NO_PAGE otherwise (including count 0, which is
 * always a caller bug). */
static uint64_t checked_index(const struct page_pool *pool, uint64_t address, uint64_t count)
{
	uint64_t index;

	if (count == 0 || (address & PAGE_OFFSET_MASK) != 0 || address < pool->first_page)
		return NO_PAGE;
	index = (address - pool->first_page) >> PAGE_SHIFT;
	if (index >= pool->page_count || count > pool->page_count - index)
		return NO_PAGE;
	return index;
}

/* Called by whoever sizes the bitmap before page_pool_init() (mm/page.c, tests).
 * Pure arithmetic: any context. */
uint64_t page_pool_bitmap_words(uint64_t lowest, uint64_t highest)
{
	return (span_pages(lowest, highest) + BITS_PER_WORD - 1) / BITS_PER_WORD;
}

/* Called once by mm/page.c on the boot hart (and by tests). Does not sleep; needs no
 * lock since nothing else can see the pool yet. */
void page_pool_init(struct page_pool *pool, uint64_t *bitmap, const struct mem_range *ram,
                    int ram_count, const struct mem_range *reserved, int reserved_count)
{
	uint64_t lowest = UINT64_MAX, highest = 0, pool_end, words, index;
	int i;

	for (i = 0; i < ram_count; i++) {
		if (ram[i].size == 0)
			continue;
		if (ram[i].base < lowest)
			lowest = ram[i].base;
		if (range_end(&ram[i]) > highest)
			highest = range_end(&ram[i]);
	}

	pool->bitmap = bitmap;
	pool->page_count = span_pages(lowest, highest);
	pool->first_page = pool->page_count ? round_down_to_page(lowest) : 0;
	pool->free_pages = 0;
	pool->hint = 0;
	pool_end = pool->first_page + (pool->page_count << PAGE_SHIFT);

	/* Everything starts in use, including the unused bits past page_count in the
	 * last word, so scans never mistake them for free pages. */
	words = (pool->page_count + BITS_PER_WORD - 1) / BITS_PER_WORD;
	for (index = 0; index < words; index++)
		bitmap[index] = ~0ull;

	/* RAM rounds inward: a page only partly backed by RAM is not usable. */
	for (i = 0; i < ram_count; i++) {
		uint64_t start = round_up_to_page(ram[i].base);
		uint64_t end = round_down_to_page(range_end(&ram[i]));

		if (ram[i].size == 0 || start >= end)
			continue;
		mark_pages(pool, (start - pool->first_page) >> PAGE_SHIFT,
		           (end - start) >> PAGE_SHIFT, false);
	}

	/* Reserved ranges round outward: a page only partly reserved is still unusable.
	 * They may reach beyond the pool on either side; clip them to it. */
	for (i = 0; i < reserved_count; i++) {
		uint64_t start = round_down_to_page(reserved[i].base);
		uint64_t end = round_up_to_page(range_end(&reserved[i]));

		if (reserved[i].size == 0)
			continue;
		if (start < pool->first_page)
			start = pool->first_page;
		if (end > pool_end)
			end = pool_end;
		if (start >= end)
			continue;
		mark_pages(pool, (start - pool->first_page) >> PAGE_SHIFT,
		           (end - start) >> PAGE_SHIFT, true);
	}

	if (pool->page_count > 0 && pool->first_page == 0)
		mark_pages(pool, 0, 1, true); /* address 0 means failure, never hand it out */

	/* Count what is left free, run by run (RAM ranges may overlap, so the count
	 * cannot be summed up while marking). */
	index = 0;
	while (index < pool->page_count) {
		uint64_t run_start = find_next_page(pool, index, pool->page_count, false);
		uint64_t run_end = find_next_page(pool, run_start, pool->page_count, true);

		pool->free_pages += run_end - run_start;
		index = run_end;
	}
}

/* Called by mm/page.c with its spinlock held; never sleeps. First fit from the hint
 * to the end, then from the start; the hint then moves past the new run so
 * consecutive single-page allocations do not rescan the same full words. */
uint64_t page_pool_alloc(struct page_pool *pool, uint64_t count)
{
	uint64_t last_start, index;

	if (count == 0 || count > pool->free_pages)
		return 0;
	last_start = pool->page_count - count; /* free_pages <= page_count: no underflow */

	index = NO_PAGE;
	if (pool->hint <= last_start)
		index = find_free_run(pool, pool->hint, last_start, count);
	if (index == NO_PAGE && pool->hint > 0) {
		uint64_t wrapped_last = pool->hint - 1 < last_start ? pool->hint - 1 : last_start;
		index = find_free_run(pool, 0, wrapped_last, count);
	}
	if (index == NO_PAGE)
		return 0;

	mark_pages(pool, index, count, true);
	pool->free_pages -= count;
	pool->hint = index + count < pool->page_count ? index + count : 0;
	return pool->first_page + (index << PAGE_SHIFT);
}

/* Called by mm/page.c with its spinlock held; never sleeps. Checks everything before
 * changing anything, so a bad call leaves the pool exactly as it was. */
bool page_pool_free(struct page_pool *pool, uint64_t address, uint64_t count)
{
	uint64_t index = checked_index(pool, address, count);

	if (index == NO_PAGE || address == 0 || !all_pages_are(pool, index, count, true))
		return false;
	mark_pages(pool, index, count, false);
	pool->free_pages += count;
	return true;
}

/* Called by mm/page.c after init (kernel image, boot structures) with its spinlock
 * held or before other harts run; never sleeps. All or nothing, like free. */
bool page_pool_take(struct page_pool *pool, uint64_t address, uint64_t count)
{
	uint64_t index = checked_index(pool, address, count);

	if (index == NO_PAGE || !all_pages_are(pool, index, count, false))
		return false;
	mark_pages(pool, index, count, true);
	pool->free_pages -= count;
	return true;
}

/* Whether the page holding `address` is free; false outside the pool. Called by
 * mm/page.c (sanity checks) and tests, with the lock held; never sleeps. */
bool page_pool_is_free(const struct page_pool *pool, uint64_t address)
{
	uint64_t index;

	if (address < pool->first_page)
		return false;
	index = (address - pool->first_page) >> PAGE_SHIFT;
	if (index >= pool->page_count)
		return false;
	return (pool->bitmap[index / BITS_PER_WORD] >> (index % BITS_PER_WORD) & 1) == 0;
}
