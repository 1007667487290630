/* Host unit tests for kernel/mm/page_pool.c. The pool only does arithmetic on
 * addresses, so these tests name pages with made-up physical addresses and never
 * touch the memory behind them; the bitmap is an ordinary array. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel/mm/page_pool.h"

#define KIB  1024ull
#define MIB  (1024ull * KIB)
#define BASE 0x80000000ull

static uint64_t page(uint64_t number)
{
	return BASE + number * PAGE_SIZE;
}

/* A pool plus its bitmap, sized with page_pool_bitmap_words() as the kernel does. */
struct test_pool {
	struct page_pool pool;
	uint64_t *bitmap;
	uint64_t words;
};

static void test_pool_init(struct test_pool *test, const struct mem_range *ram, int ram_count,
                           const struct mem_range *reserved, int reserved_count)
{
	uint64_t lowest = UINT64_MAX, highest = 0;

	for (int i = 0; i < ram_count; i++) {
		if (ram[i].size == 0)
			continue;
		if (ram[i].base < lowest)
			lowest = ram[i].base;
		if (ram[i].base + ram[i].size > highest)
			highest = ram[i].base + ram[i].size;
	}
	test->words = page_pool_bitmap_words(lowest, highest);
	/* At least one word so that malloc(0) never comes into it; poisoned with a
	 * pattern init must overwrite. */
	test->bitmap = malloc((test->words ? test->words : 1) * sizeof(uint64_t));
	memset(test->bitmap, 0x5a, (test->words ? test->words : 1) * sizeof(uint64_t));
	page_pool_init(&test->pool, test->bitmap, ram, ram_count, reserved, reserved_count);
}

static void test_pool_destroy(struct test_pool *test)
{
	free(test->bitmap);
}

/* Count free pages by asking page_pool_is_free() about every page of the span. */
static uint64_t count_free_by_probe(const struct page_pool *pool)
{
	uint64_t count = 0;

	for (uint64_t i = 0; i < pool->page_count; i++)
		count += page_pool_is_free(pool, pool->first_page + i * PAGE_SIZE);
	return count;
}

static void test_bitmap_words(void)
{
	CHECK_EQ_U64(page_pool_bitmap_words(BASE, BASE), 0);
	CHECK_EQ_U64(page_pool_bitmap_words(BASE, BASE - 1), 0);
	CHECK_EQ_U64(page_pool_bitmap_words(BASE, BASE + 1), 1);
	CHECK_EQ_U64(page_pool_bitmap_words(BASE, page(64)), 1);
	CHECK_EQ_U64(page_pool_bitmap_words(BASE, page(64) + 1), 2);
	CHECK_EQ_U64(page_pool_bitmap_words(BASE + 1, page(64)), 1);
	/* An unaligned start still needs its partial page covered. */
	CHECK_EQ_U64(page_pool_bitmap_words(BASE + 1, page(64) + 1), 2);
	CHECK_EQ_U64(page_pool_bitmap_words(BASE, BASE + 128 * MIB), 128 * MIB / PAGE_SIZE / 64);
	/* Near the top of the address space nothing wraps. */
	CHECK_EQ_U64(page_pool_bitmap_words(UINT64_MAX - 64 * PAGE_SIZE + 1, UINT64_MAX), 1);
}

static void test_init_single_range(void)
{
	struct mem_range ram[] = {{BASE, 128 * MIB}};
	struct test_pool test;

	test_pool_init(&test, ram, 1, NULL, 0);
	CHECK_EQ_U64(test.pool.first_page, BASE);
	CHECK_EQ_U64(test.pool.page_count, 128 * MIB / PAGE_SIZE);
	CHECK_EQ_U64(test.pool.free_pages, 128 * MIB / PAGE_SIZE);
	CHECK_EQ_U64(count_free_by_probe(&test.pool), test.pool.free_pages);
	CHECK(page_pool_is_free(&test.pool, BASE));
	CHECK(page_pool_is_free(&test.pool, BASE + 128 * MIB - 1));
	CHECK(!page_pool_is_free(&test.pool, BASE + 128 * MIB));
	CHECK(!page_pool_is_free(&test.pool, BASE - 1));
	test_pool_destroy(&test);
}

static void test_init_ranges_with_gaps_and_reserved(void)
{
	/* Listed out of order; the third range has unaligned ends (rounded inward). */
	struct mem_range ram[] = {
	    {page(32), 8 * PAGE_SIZE},                  /* pages 32..39 */
	    {page(0), 16 * PAGE_SIZE},                  /* pages 0..15 */
	    {page(100) + 0x800, 4 * PAGE_SIZE + 0x100}, /* pages 101..103 fully inside */
	    {page(200), 0},                             /* empty: ignored entirely */
	};
	struct mem_range reserved[] = {
	    {page(0) - 0x10000, 0x10000 + 0x800}, /* before the pool through half of page 0 */
	    {page(5) + 0x10, 0x20},               /* inside page 5 only */
	    {page(14) + 0xfff, 2},                /* straddles pages 14 and 15 */
	    {page(20), 4 * PAGE_SIZE},            /* entirely in the gap */
	    {page(39), 3 * PAGE_SIZE},            /* last page of a range and the gap */
	    {page(103) + 0x10, 64 * MIB},         /* page 103 and far beyond the pool */
	    {page(7) + 0x123, 0},                 /* empty: reserves nothing */
	};
	struct test_pool test;
	uint64_t expected_free = (16 - 4) + (8 - 1) + 2;

	test_pool_init(&test, ram, 4, reserved, 7);
	CHECK_EQ_U64(test.pool.first_page, page(0));
	CHECK_EQ_U64(test.pool.page_count, 105); /* up to the page holding page(104)+0x8ff */
	CHECK_EQ_U64(test.pool.free_pages, expected_free);
	CHECK_EQ_U64(count_free_by_probe(&test.pool), expected_free);

	CHECK(!page_pool_is_free(&test.pool, page(0)));
	CHECK(page_pool_is_free(&test.pool, page(1)));
	CHECK(page_pool_is_free(&test.pool, page(4)));
	CHECK(!page_pool_is_free(&test.pool, page(5)));
	CHECK(page_pool_is_free(&test.pool, page(6)));
	CHECK(page_pool_is_free(&test.pool, page(7)));
	CHECK(page_pool_is_free(&test.pool, page(13)));
	CHECK(!page_pool_is_free(&test.pool, page(14)));
	CHECK(!page_pool_is_free(&test.pool, page(15)));
	CHECK(!page_pool_is_free(&test.pool, page(16)));
	CHECK(!page_pool_is_free(&test.pool, page(31)));
	CHECK(page_pool_is_free(&test.pool, page(32)));
	CHECK(page_pool_is_free(&test.pool, page(38)));
	CHECK(!page_pool_is_free(&test.pool, page(39)));
	CHECK(!page_pool_is_free(&test.pool, page(100)));
	CHECK(page_pool_is_free(&test.pool, page(101)));
	CHECK(page_pool_is_free(&test.pool, page(102)));
	CHECK(!page_pool_is_free(&test.pool, page(103)));
	CHECK(!page_pool_is_free(&test.pool, page(104)));
	CHECK(!page_pool_is_free(&test.pool, page(200)));

	/* Exactly the free pages come out, each once, and nothing else. */
	for (uint64_t i = 0; i < expected_free; i++) {
		uint64_t address = page_pool_alloc(&test.pool, 1);
		uint64_t number = (address - BASE) / PAGE_SIZE;

		CHECK(address != 0);
		CHECK((number >= 1 && number <= 13 && number != 5) ||
		      (number >= 32 && number <= 38) || (number >= 101 && number <= 102));
		CHECK(!page_pool_is_free(&test.pool, address));
	}
	CHECK_EQ_U64(test.pool.free_pages, 0);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), 0);
	test_pool_destroy(&test);
}

static void test_overlapping_ram_ranges(void)
{
	struct mem_range ram[] = {{page(0), 10 * PAGE_SIZE}, {page(5), 10 * PAGE_SIZE}};
	struct test_pool test;

	test_pool_init(&test, ram, 2, NULL, 0);
	CHECK_EQ_U64(test.pool.page_count, 15);
	CHECK_EQ_U64(test.pool.free_pages, 15);
	test_pool_destroy(&test);
}

static void test_empty_pool(void)
{
	struct test_pool test;
	struct mem_range unaligned_sliver[] = {{BASE + 0x10, 0x100}};

	test_pool_init(&test, NULL, 0, NULL, 0);
	CHECK_EQ_U64(test.pool.page_count, 0);
	CHECK_EQ_U64(test.pool.free_pages, 0);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), 0);
	CHECK(!page_pool_free(&test.pool, BASE, 1));
	CHECK(!page_pool_take(&test.pool, BASE, 1));
	CHECK(!page_pool_is_free(&test.pool, BASE));
	test_pool_destroy(&test);

	/* Less than a page of RAM: a pool of one page that is never free. */
	test_pool_init(&test, unaligned_sliver, 1, NULL, 0);
	CHECK_EQ_U64(test.pool.page_count, 1);
	CHECK_EQ_U64(test.pool.free_pages, 0);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), 0);
	test_pool_destroy(&test);
}

static void test_ram_at_address_zero(void)
{
	struct mem_range ram[] = {{0, 4 * PAGE_SIZE}};
	struct test_pool test;

	test_pool_init(&test, ram, 1, NULL, 0);
	CHECK_EQ_U64(test.pool.free_pages, 3); /* page 0 would look like failure */
	CHECK(!page_pool_is_free(&test.pool, 0));
	for (int i = 0; i < 3; i++)
		CHECK(page_pool_alloc(&test.pool, 1) != 0);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), 0);
	CHECK(!page_pool_free(&test.pool, 0, 1));
	CHECK_EQ_U64(test.pool.free_pages, 0);
	test_pool_destroy(&test);
}

static void test_alloc_single_and_contiguous(void)
{
	struct mem_range ram[] = {{page(0), 16 * PAGE_SIZE}, {page(20), 8 * PAGE_SIZE}};
	struct test_pool test;

	test_pool_init(&test, ram, 2, NULL, 0);
	CHECK_EQ_U64(test.pool.free_pages, 24);

	/* First fit from the start, then the hint moves on. */
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), page(0));
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), page(1));
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 4), page(2));
	CHECK_EQ_U64(test.pool.free_pages, 18);

	/* 10 pages remain in the first range and 8 in the second, but no run of 11:
	 * a run never spans the gap. */
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 11), 0);
	CHECK_EQ_U64(test.pool.free_pages, 18);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 0), 0);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, UINT64_MAX), 0);

	CHECK_EQ_U64(page_pool_alloc(&test.pool, 10), page(6));
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 8), page(20));
	CHECK_EQ_U64(test.pool.free_pages, 0);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), 0);

	/* A hole behind the hint is found by wrapping round. */
	CHECK(page_pool_free(&test.pool, page(3), 2));
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 2), page(3));

	/* A run needing pages on both sides of the hint is found too. */
	CHECK(page_pool_free(&test.pool, page(8), 4));
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), page(8)); /* hint is now 9 */
	CHECK(page_pool_free(&test.pool, page(7), 2));         /* pages 7..11 free */
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 5), page(7));
	CHECK_EQ_U64(test.pool.free_pages, 0);
	test_pool_destroy(&test);
}

static void test_runs_crossing_words(void)
{
	struct mem_range ram[] = {{page(0), 300 * PAGE_SIZE}};
	struct test_pool test;

	test_pool_init(&test, ram, 1, NULL, 0);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 60), page(0));
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 130), page(60)); /* spans three words */
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 110), page(190));
	CHECK_EQ_U64(test.pool.free_pages, 0);
	CHECK(page_pool_free(&test.pool, page(60), 130));
	CHECK_EQ_U64(count_free_by_probe(&test.pool), 130);
	CHECK(page_pool_is_free(&test.pool, page(60)));
	CHECK(page_pool_is_free(&test.pool, page(189)));
	CHECK(!page_pool_is_free(&test.pool, page(59)));
	CHECK(!page_pool_is_free(&test.pool, page(190)));
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 131), 0);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 130), page(60));
	test_pool_destroy(&test);
}

static void test_exhaustion_and_reuse(void)
{
	struct mem_range ram[] = {{page(0), 1000 * PAGE_SIZE}};
	static uint64_t addresses[1000];
	struct test_pool test;

	test_pool_init(&test, ram, 1, NULL, 0);
	for (int i = 0; i < 1000; i++) {
		addresses[i] = page_pool_alloc(&test.pool, 1);
		CHECK_EQ_U64(addresses[i], page(i));
	}
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), 0);
	CHECK_EQ_U64(test.pool.free_pages, 0);

	for (int i = 0; i < 1000; i += 2)
		CHECK(page_pool_free(&test.pool, addresses[i], 1));
	CHECK_EQ_U64(test.pool.free_pages, 500);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 2), 0); /* fragmented: no two in a row */
	for (int i = 0; i < 500; i++) {
		uint64_t address = page_pool_alloc(&test.pool, 1);
		CHECK(address != 0 && (address - BASE) / PAGE_SIZE % 2 == 0);
	}
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), 0);
	test_pool_destroy(&test);
}

static void test_bad_free_changes_nothing(void)
{
	struct mem_range ram[] = {{page(0), 100 * PAGE_SIZE}};
	struct test_pool test;
	uint64_t snapshot[2], free_before, hint_before;

	test_pool_init(&test, ram, 1, NULL, 0);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 10), page(0));
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 10), page(10));
	CHECK(page_pool_free(&test.pool, page(12), 3)); /* pages 12..14 free again */

	memcpy(snapshot, test.bitmap, sizeof(snapshot));
	free_before = test.pool.free_pages;
	hint_before = test.pool.hint;

	CHECK(!page_pool_free(&test.pool, page(12), 1));            /* double free */
	CHECK(!page_pool_free(&test.pool, page(10), 5));            /* overlaps a free page */
	CHECK(!page_pool_free(&test.pool, page(14), 1));            /* last page of a hole */
	CHECK(!page_pool_free(&test.pool, page(50), 1));            /* never allocated */
	CHECK(!page_pool_free(&test.pool, page(0) + 8, 1));         /* unaligned */
	CHECK(!page_pool_free(&test.pool, page(1) - 1, 1));         /* unaligned */
	CHECK(!page_pool_free(&test.pool, page(0) - PAGE_SIZE, 1)); /* below the pool */
	CHECK(!page_pool_free(&test.pool, page(0) - PAGE_SIZE, 2)); /* starts below */
	CHECK(!page_pool_free(&test.pool, page(100), 1));           /* just past the end */
	CHECK(!page_pool_free(&test.pool, page(99), 2));            /* runs past the end */
	CHECK(!page_pool_free(&test.pool, page(0), UINT64_MAX));    /* count overflows */
	CHECK(!page_pool_free(&test.pool, page(0), 0));             /* nothing to free */
	CHECK(!page_pool_free(&test.pool, 0, 1));
	CHECK(!page_pool_free(&test.pool, UINT64_MAX & ~(PAGE_SIZE - 1), 1));

	CHECK(memcmp(snapshot, test.bitmap, sizeof(snapshot)) == 0);
	CHECK_EQ_U64(test.pool.free_pages, free_before);
	CHECK_EQ_U64(test.pool.hint, hint_before);

	/* The good frees still work afterwards. */
	CHECK(page_pool_free(&test.pool, page(0), 12));
	CHECK(page_pool_free(&test.pool, page(15), 5));
	CHECK_EQ_U64(test.pool.free_pages, 100);
	test_pool_destroy(&test);
}

static void test_take(void)
{
	struct mem_range ram[] = {{page(0), 64 * PAGE_SIZE}};
	struct mem_range reserved[] = {{page(60), 4 * PAGE_SIZE}};
	struct test_pool test;
	uint64_t snapshot[1];

	test_pool_init(&test, ram, 1, reserved, 1);
	CHECK_EQ_U64(test.pool.free_pages, 60);

	/* Carve out a "kernel image" in the middle. */
	CHECK(page_pool_take(&test.pool, page(2), 8));
	CHECK_EQ_U64(test.pool.free_pages, 52);
	CHECK(!page_pool_is_free(&test.pool, page(2)));
	CHECK(!page_pool_is_free(&test.pool, page(9)));
	CHECK(page_pool_is_free(&test.pool, page(10)));

	memcpy(snapshot, test.bitmap, sizeof(snapshot));
	CHECK(!page_pool_take(&test.pool, page(9), 2));  /* page 9 already taken */
	CHECK(!page_pool_take(&test.pool, page(58), 3)); /* page 60 is reserved */
	CHECK(!page_pool_take(&test.pool, page(64), 1)); /* outside */
	CHECK(!page_pool_take(&test.pool, page(0) - PAGE_SIZE, 2));
	CHECK(!page_pool_take(&test.pool, page(20) + 1, 1)); /* unaligned */
	CHECK(!page_pool_take(&test.pool, page(20), 0));
	CHECK(memcmp(snapshot, test.bitmap, sizeof(snapshot)) == 0);
	CHECK_EQ_U64(test.pool.free_pages, 52);

	/* Allocation flows round the taken pages. */
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 2), page(0));
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 1), page(10));
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 50), 0);
	CHECK_EQ_U64(page_pool_alloc(&test.pool, 49), page(11));
	CHECK_EQ_U64(test.pool.free_pages, 0);

	/* Taken pages can be given back like any others. */
	CHECK(page_pool_free(&test.pool, page(2), 8));
	CHECK_EQ_U64(test.pool.free_pages, 8);
	test_pool_destroy(&test);
}

/* Deterministic pseudo-random numbers (xorshift64*), so failures reproduce. */
static uint64_t random_state = 0x9e3779b97f4a7c15ull;

static uint64_t random_below(uint64_t limit)
{
	random_state ^= random_state >> 12;
	random_state ^= random_state << 25;
	random_state ^= random_state >> 27;
	return (random_state * 0x2545f4914f6cdd1dull >> 11) % limit;
}

enum shadow_state { SHADOW_UNUSABLE, SHADOW_FREE, SHADOW_USED };

#define RANDOM_PAGES 700 /* span of the randomized pool */
#define MAX_LIVE     256

struct live_run {
	uint64_t address, count;
};

/* Whether the shadow model has `count` free pages in a row somewhere. */
static bool shadow_has_run(const enum shadow_state *shadow, uint64_t count)
{
	uint64_t run = 0;

	for (int i = 0; i < RANDOM_PAGES; i++) {
		run = shadow[i] == SHADOW_FREE ? run + 1 : 0;
		if (run >= count)
			return true;
	}
	return false;
}

static void test_randomized_against_shadow(void)
{
	struct mem_range ram[] = {
	    {page(0), 300 * PAGE_SIZE},
	    {page(310) + 0x400, 200 * PAGE_SIZE}, /* pages 311..509 */
	    {page(520), 180 * PAGE_SIZE},         /* pages 520..699 */
	};
	struct mem_range reserved[] = {{page(100) + 5, 10 * PAGE_SIZE}, /* pages 100..110 */
	                               {page(698), PAGE_SIZE + 1}};     /* 698..699 */
	static enum shadow_state shadow[RANDOM_PAGES];
	static struct live_run live[MAX_LIVE];
	int live_count = 0;
	uint64_t shadow_free = 0;
	struct test_pool test;
	int failures = 0;

	for (int i = 0; i < RANDOM_PAGES; i++) {
		bool in_ram = i < 300 || (i >= 311 && i < 510) || (i >= 520 && i < 700);
		bool is_reserved = (i >= 100 && i <= 110) || i >= 698;

		shadow[i] = in_ram && !is_reserved ? SHADOW_FREE : SHADOW_UNUSABLE;
		shadow_free += shadow[i] == SHADOW_FREE;
	}

	test_pool_init(&test, ram, 3, reserved, 2);
	CHECK_EQ_U64(test.pool.page_count, RANDOM_PAGES);
	CHECK_EQ_U64(test.pool.free_pages, shadow_free);

	for (int step = 0; step < 100000 && failures < 10; step++) {
		uint64_t choice = random_below(100);

		if (choice < 50 && live_count < MAX_LIVE) {
			/* Mostly small runs, sometimes big ones. */
			uint64_t count =
			    random_below(10) == 0 ? 1 + random_below(64) : 1 + random_below(4);
			uint64_t address = page_pool_alloc(&test.pool, count);

			if (address == 0) {
				if (shadow_has_run(shadow, count))
					failures++;
				continue;
			}
			uint64_t first = (address - BASE) / PAGE_SIZE;
			if (address % PAGE_SIZE != 0 || first + count > RANDOM_PAGES) {
				failures++;
				continue;
			}
			for (uint64_t i = first; i < first + count; i++) {
				if (shadow[i] != SHADOW_FREE)
					failures++;
				shadow[i] = SHADOW_USED;
			}
			shadow_free -= count;
			live[live_count++] = (struct live_run){address, count};
		} else if (choice < 95 && live_count > 0) {
			int victim = (int)random_below((uint64_t)live_count);
			struct live_run run = live[victim];
			uint64_t first = (run.address - BASE) / PAGE_SIZE;

			if (!page_pool_free(&test.pool, run.address, run.count))
				failures++;
			for (uint64_t i = first; i < first + run.count; i++)
				shadow[i] = SHADOW_FREE;
			shadow_free += run.count;
			live[victim] = live[--live_count];
			/* Freeing it again, or one page of it, must be refused. */
			if (page_pool_free(&test.pool, run.address + (run.count - 1) * PAGE_SIZE,
			                   1))
				failures++;
		} else {
			/* A random free that touches a free page or leaves the pool must
			 * fail. (Pages in use, allocated or reserved, look alike to the
			 * pool, so a range of only those is skipped.) */
			uint64_t first = random_below(RANDOM_PAGES + 4);
			uint64_t count = 1 + random_below(3);
			bool must_fail = first + count > RANDOM_PAGES;

			for (uint64_t i = first; !must_fail && i < first + count; i++)
				must_fail = shadow[i] == SHADOW_FREE;
			if (must_fail && page_pool_free(&test.pool, page(first), count))
				failures++;
		}

		if (test.pool.free_pages != shadow_free)
			failures++;
		if (step % 4096 == 0) {
			for (int i = 0; i < RANDOM_PAGES; i++)
				if (page_pool_is_free(&test.pool, page(i)) !=
				    (shadow[i] == SHADOW_FREE))
					failures++;
		}
	}
	CHECK_EQ_U64(failures, 0);

	while (live_count > 0) {
		live_count--;
		CHECK(page_pool_free(&test.pool, live[live_count].address, live[live_count].count));
	}
	CHECK_EQ_U64(test.pool.free_pages, (300 - 11) + 199 + (180 - 2));
	CHECK_EQ_U64(count_free_by_probe(&test.pool), test.pool.free_pages);
	test_pool_destroy(&test);
}

int main(void)
{
	RUN(test_bitmap_words);
	RUN(test_init_single_range);
	RUN(test_init_ranges_with_gaps_and_reserved);
	RUN(test_overlapping_ram_ranges);
	RUN(test_empty_pool);
	RUN(test_ram_at_address_zero);
	RUN(test_alloc_single_and_contiguous);
	RUN(test_runs_crossing_words);
	RUN(test_exhaustion_and_reuse);
	RUN(test_bad_free_changes_nothing);
	RUN(test_take);
	RUN(test_randomized_against_shadow);
	return check_summary();
}
