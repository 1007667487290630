/* Host unit tests for kernel/mm/heap_arena.c. The arena grows from a test "grow
 * source" that hands out separately allocated chunks (so AddressSanitizer sees any
 * access outside them), or slices of one buffer back to back (to check that blocks
 * never merge across adjacent chunks), and can be told to run dry. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel/mm/heap_arena.h"

#define MAX_CHUNKS 1024
#define MIB        (1024 * 1024)

struct grow_source {
	size_t budget;          /* bytes it will still hand out */
	int requests;           /* calls to grow(), refused ones included */
	size_t last_request;    /* bytes the latest call asked for */
	size_t requested_total; /* bytes actually handed out */
	int chunk_count;
	void *chunks[MAX_CHUNKS];
	size_t chunk_bytes[MAX_CHUNKS];
	unsigned char *carve_buffer; /* when set, chunks are cut from here back to back */
	size_t carve_size, carve_used;
	int bad_sizes; /* requests that were not a positive multiple of 4096 */
};

static void *test_grow(void *context, size_t bytes)
{
	struct grow_source *source = context;
	void *memory;

	source->requests++;
	source->last_request = bytes;
	if (bytes == 0 || bytes % 4096 != 0)
		source->bad_sizes++;
	if (bytes > source->budget || source->chunk_count == MAX_CHUNKS)
		return NULL;
	if (source->carve_buffer) {
		if (bytes > source->carve_size - source->carve_used)
			return NULL;
		memory = source->carve_buffer + source->carve_used;
		source->carve_used += bytes;
	} else {
		memory = aligned_alloc(4096, bytes);
		if (!memory)
			return NULL;
	}
	/* Fresh memory is not zeroed in the kernel either. */
	memset(memory, 0xa5, bytes);
	source->budget -= bytes;
	source->requested_total += bytes;
	source->chunks[source->chunk_count] = memory;
	source->chunk_bytes[source->chunk_count] = bytes;
	source->chunk_count++;
	return memory;
}

static void source_init(struct grow_source *source, size_t budget)
{
	memset(source, 0, sizeof(*source));
	source->budget = budget;
}

static void source_init_carved(struct grow_source *source, size_t budget, size_t buffer_bytes)
{
	source_init(source, budget);
	source->carve_buffer = aligned_alloc(4096, buffer_bytes);
	source->carve_size = buffer_bytes;
}

static void source_release(struct grow_source *source)
{
	if (source->carve_buffer) {
		free(source->carve_buffer);
	} else {
		for (int i = 0; i < source->chunk_count; i++)
			free(source->chunks[i]);
	}
	CHECK_EQ_U64(source->bad_sizes, 0);
}

static bool is_aligned(const void *pointer)
{
	return (uintptr_t)pointer % HEAP_ALIGN == 0;
}

static void fill(void *pointer, unsigned char byte)
{
	memset(pointer, byte, heap_arena_block_size(pointer));
}

static bool holds(const void *pointer, unsigned char byte)
{
	const unsigned char *bytes = pointer;
	size_t size = heap_arena_block_size(pointer);

	for (size_t i = 0; i < size; i++)
		if (bytes[i] != byte)
			return false;
	return true;
}

/* The largest request that fits the arena's free space without growing: with every
 * chunk empty, that is the usable size of one whole default chunk. Leaves the arena
 * as it found it, and the source dry. */
static size_t largest_fit_without_growth(struct heap_arena *arena, struct grow_source *source)
{
	size_t low = 0, high = 1 << 20;

	source->budget = 0;
	while (low < high) {
		size_t middle = (low + high + 1) / 2;
		void *pointer = heap_arena_alloc(arena, middle);

		if (pointer) {
			heap_arena_free(arena, pointer);
			low = middle;
		} else {
			high = middle - 1;
		}
	}
	return low;
}

/* A fresh arena with one empty default chunk; returns its largest fit. */
static size_t arena_with_one_chunk(struct heap_arena *arena, struct grow_source *source)
{
	size_t budget = source->budget, largest;

	heap_arena_init(arena, test_grow, source);
	CHECK(heap_arena_free(arena, heap_arena_alloc(arena, 1)));
	CHECK_EQ_U64(source->chunk_count, 1);
	largest = largest_fit_without_growth(arena, source);
	source->budget = budget - source->requested_total;
	/* Nearly the whole chunk, less a little bookkeeping. */
	CHECK(largest > source->chunk_bytes[0] - 256 && largest < source->chunk_bytes[0]);
	return largest;
}

static void test_basic_and_stats(void)
{
	struct grow_source source;
	struct heap_arena arena;
	void *first, *second;

	source_init(&source, 64 * MIB);
	heap_arena_init(&arena, test_grow, &source);
	CHECK(heap_arena_check(&arena));
	CHECK_EQ_U64(arena.bytes_managed, 0);

	first = heap_arena_alloc(&arena, 1);
	CHECK(first != NULL && is_aligned(first));
	CHECK(heap_arena_block_size(first) >= 1);
	CHECK_EQ_U64(source.requests, 1);
	CHECK_EQ_U64(arena.bytes_managed, source.last_request);
	CHECK_EQ_U64(arena.allocations, 1);
	CHECK_EQ_U64(arena.bytes_in_use, heap_arena_block_size(first));
	fill(first, 0x11);

	second = heap_arena_alloc(&arena, 100);
	CHECK(second != NULL && is_aligned(second));
	CHECK(heap_arena_block_size(second) >= 100);
	fill(second, 0x22);
	CHECK_EQ_U64(source.requests, 1); /* fits in the same chunk */
	CHECK_EQ_U64(arena.allocations, 2);
	CHECK_EQ_U64(arena.bytes_in_use,
	             heap_arena_block_size(first) + heap_arena_block_size(second));
	CHECK(heap_arena_check(&arena));
	CHECK(holds(first, 0x11));

	CHECK(heap_arena_free(&arena, first));
	CHECK_EQ_U64(arena.allocations, 1);
	CHECK_EQ_U64(arena.bytes_in_use, heap_arena_block_size(second));
	CHECK(holds(second, 0x22));
	CHECK(heap_arena_free(&arena, second));
	CHECK_EQ_U64(arena.allocations, 0);
	CHECK_EQ_U64(arena.bytes_in_use, 0);
	CHECK_EQ_U64(arena.bytes_managed, source.requested_total); /* chunks are kept */
	CHECK(heap_arena_free(&arena, NULL));
	CHECK(heap_arena_check(&arena));
	source_release(&source);
}

static void test_alignment_and_sizes(void)
{
	enum { LARGEST = 3000 };
	static void *blocks[LARGEST + 1];
	struct grow_source source;
	struct heap_arena arena;
	size_t in_use = 0;

	source_init(&source, 64 * MIB);
	heap_arena_init(&arena, test_grow, &source);
	for (size_t size = 1; size <= LARGEST; size++) {
		void *pointer = heap_arena_alloc(&arena, size);

		blocks[size] = pointer;
		CHECK(pointer != NULL && is_aligned(pointer));
		if (!pointer)
			continue;
		/* Enough room, and no more waste than rounding plus an unsplittable tail. */
		CHECK(heap_arena_block_size(pointer) >= size);
		CHECK(heap_arena_block_size(pointer) < size + 64);
		in_use += heap_arena_block_size(pointer);
		fill(pointer, (unsigned char)size);
	}
	CHECK_EQ_U64(arena.allocations, LARGEST);
	CHECK_EQ_U64(arena.bytes_in_use, in_use);
	CHECK_EQ_U64(arena.bytes_managed, source.requested_total);
	CHECK(heap_arena_check(&arena));

	/* Free in a scrambled order (7 and 3001 are coprime), checking contents first. */
	for (size_t step = 1; step <= LARGEST; step++) {
		size_t size = step * 7 % (LARGEST + 1);

		if (size == 0 || !blocks[size])
			continue;
		CHECK(holds(blocks[size], (unsigned char)size));
		CHECK(heap_arena_free(&arena, blocks[size]));
		blocks[size] = NULL;
	}
	for (size_t size = 1; size <= LARGEST; size++)
		if (blocks[size])
			CHECK(heap_arena_free(&arena, blocks[size]));
	CHECK_EQ_U64(arena.allocations, 0);
	CHECK_EQ_U64(arena.bytes_in_use, 0);
	CHECK(heap_arena_check(&arena));
	source_release(&source);
}

static void test_zero_and_overflowing_sizes(void)
{
	struct grow_source source;
	struct heap_arena arena;
	void *pointer;

	source_init(&source, 64 * MIB);
	heap_arena_init(&arena, test_grow, &source);
	CHECK(heap_arena_alloc(&arena, 0) == NULL);
	CHECK(heap_arena_alloc(&arena, SIZE_MAX) == NULL);
	CHECK(heap_arena_alloc(&arena, SIZE_MAX - 15) == NULL);
	CHECK(heap_arena_alloc(&arena, SIZE_MAX - 4096) == NULL);
	CHECK(heap_arena_alloc(&arena, SIZE_MAX / 2 + 1) == NULL);
	CHECK_EQ_U64(source.requests, 0); /* refused before asking for memory */

	/* Plausible but too big for the source: grow() is asked and says no. */
	CHECK(heap_arena_alloc(&arena, (size_t)1 << 40) == NULL);
	CHECK_EQ_U64(source.requests, 1);
	CHECK(source.last_request >= (size_t)1 << 40);
	CHECK_EQ_U64(arena.bytes_managed, 0);
	CHECK_EQ_U64(arena.allocations, 0);
	CHECK(heap_arena_check(&arena));

	pointer = heap_arena_alloc(&arena, 10);
	CHECK(pointer != NULL);
	CHECK(heap_arena_free(&arena, pointer));
	source_release(&source);

	/* No grow callback at all: nothing to allocate from. */
	heap_arena_init(&arena, NULL, NULL);
	CHECK(heap_arena_alloc(&arena, 1) == NULL);
	CHECK(heap_arena_check(&arena));
}

/* Fill the (dry) arena with blocks of assorted sizes until it is full. */
static int fill_arena(struct heap_arena *arena, void **blocks, int capacity)
{
	int count = 0;

	while (count < capacity) {
		void *pointer = heap_arena_alloc(arena, 1 + (size_t)count * 37 % 300);

		if (!pointer)
			break;
		fill(pointer, (unsigned char)count);
		blocks[count++] = pointer;
	}
	return count;
}

static void test_coalescing(void)
{
	enum { CAPACITY = 1024 };
	static void *blocks[CAPACITY];
	struct grow_source source;
	struct heap_arena arena;
	size_t largest;

	source_init(&source, 64 * MIB);
	largest = arena_with_one_chunk(&arena, &source);
	source.budget = 0;

	for (int order = 0; order < 4; order++) {
		int count = fill_arena(&arena, blocks, CAPACITY);

		CHECK(count > 20 && count < CAPACITY);
		CHECK(heap_arena_check(&arena));
		for (int i = 0; i < count; i++) {
			int index;

			if (order == 0)
				index = i; /* each free merges with the block before */
			else if (order == 1)
				index = count - 1 - i; /* each free merges with the block after */
			else if (order == 2)           /* evens, then odds merging on both sides */
				index = i < (count + 1) / 2 ? 2 * i : 2 * (i - (count + 1) / 2) + 1;
			else
				index = (int)((size_t)i * 7919 % (size_t)count); /* 7919 is prime */
			CHECK(holds(blocks[index], (unsigned char)index));
			CHECK(heap_arena_free(&arena, blocks[index]));
			if (i % 16 == 0)
				CHECK(heap_arena_check(&arena));
		}
		CHECK_EQ_U64(arena.allocations, 0);
		CHECK(heap_arena_check(&arena));

		/* Everything merged back into one block spanning the chunk. */
		void *whole = heap_arena_alloc(&arena, largest);
		CHECK(whole != NULL);
		CHECK(heap_arena_alloc(&arena, 1) == NULL);
		CHECK(heap_arena_free(&arena, whole));
	}

	/* A merge on both sides at once gives back exactly the three blocks' span. */
	{
		void *a = heap_arena_alloc(&arena, 100);
		void *b = heap_arena_alloc(&arena, 200);
		void *c = heap_arena_alloc(&arena, 300);
		void *d = heap_arena_alloc(&arena, 50);
		size_t span, header_and_footer;

		CHECK(a && b && c && d);
		CHECK((char *)b > (char *)a && (char *)c > (char *)b);
		/* The bookkeeping between two payloads: a's tail tag plus b's head tag. */
		header_and_footer = (size_t)((char *)b - (char *)a) - heap_arena_block_size(a);
		span = (size_t)((char *)d - (char *)a) - header_and_footer;
		CHECK(heap_arena_free(&arena, a));
		CHECK(heap_arena_free(&arena, c));
		CHECK(heap_arena_check(&arena));
		CHECK(heap_arena_free(&arena, b));
		CHECK(heap_arena_check(&arena));
		void *merged = heap_arena_alloc(&arena, span);
		CHECK(merged == a);
		CHECK(heap_arena_block_size(merged) == span);
		CHECK(heap_arena_free(&arena, merged));
		CHECK(heap_arena_free(&arena, d));
		CHECK(heap_arena_check(&arena));
	}
	source_release(&source);
}

/* Fill several chunks, free everything, and check that each chunk went back to one
 * free block and that nothing merged across chunk ends. */
static void fill_free_and_refill_chunks(struct grow_source *source, int wanted_chunks)
{
	enum { CAPACITY = 4096 };
	static void *blocks[CAPACITY];
	struct heap_arena arena;
	size_t largest = arena_with_one_chunk(&arena, source);
	int count = 0;

	while (source->chunk_count < wanted_chunks && count < CAPACITY) {
		void *pointer = heap_arena_alloc(&arena, 1000);

		CHECK(pointer != NULL && is_aligned(pointer));
		if (!pointer)
			break;
		fill(pointer, (unsigned char)(count * 3));
		blocks[count++] = pointer;
	}
	CHECK_EQ_U64(source->chunk_count, wanted_chunks);
	CHECK_EQ_U64(arena.bytes_managed, source->requested_total);
	CHECK(heap_arena_check(&arena));

	for (int i = 0; i < count; i++) {
		int index = (int)((size_t)i * 7919 % (size_t)count);

		CHECK(holds(blocks[index], (unsigned char)(index * 3)));
		CHECK(heap_arena_free(&arena, blocks[index]));
	}
	CHECK(heap_arena_check(&arena));
	CHECK_EQ_U64(arena.allocations, 0);

	source->budget = 0;
	/* Two chunks' worth does not fit anywhere: chunks never merge. */
	CHECK(heap_arena_alloc(&arena, largest + 1) == NULL);
	for (int i = 0; i < wanted_chunks; i++) {
		blocks[i] = heap_arena_alloc(&arena, largest);
		CHECK(blocks[i] != NULL);
	}
	CHECK(heap_arena_alloc(&arena, 1) == NULL);
	CHECK(heap_arena_check(&arena));
	for (int i = 0; i < wanted_chunks; i++)
		CHECK(heap_arena_free(&arena, blocks[i]));
	CHECK(heap_arena_check(&arena));
}

static void test_growth_across_separate_chunks(void)
{
	struct grow_source source;

	source_init(&source, 64 * MIB);
	fill_free_and_refill_chunks(&source, 5);
	source_release(&source);
}

static void test_growth_across_adjacent_chunks(void)
{
	struct grow_source source;

	source_init_carved(&source, 64 * MIB, 4 * MIB);
	fill_free_and_refill_chunks(&source, 4);
	for (int i = 1; i < source.chunk_count; i++)
		CHECK((unsigned char *)source.chunks[i] ==
		      (unsigned char *)source.chunks[i - 1] + source.chunk_bytes[i - 1]);
	source_release(&source);
}

static void test_large_requests(void)
{
	struct grow_source source;
	struct heap_arena arena;
	size_t largest, sizes[] = {100000, 3 * MIB + 5, 4096 * 5, 1 * MIB};
	void *blocks[4], *small;
	int first_requests;

	source_init(&source, 64 * MIB);
	largest = arena_with_one_chunk(&arena, &source);
	first_requests = source.requests; /* probing asked too, and was refused */

	/* One byte more than a default chunk holds: grow() is asked for a bigger one. */
	void *just_over = heap_arena_alloc(&arena, largest + 1);
	CHECK(just_over != NULL);
	CHECK_EQ_U64(source.chunk_count, 2);
	CHECK(source.chunk_bytes[1] > source.chunk_bytes[0]);
	CHECK(heap_arena_block_size(just_over) >= largest + 1);
	fill(just_over, 0x77);

	for (int i = 0; i < 4; i++) {
		int requests = source.requests;

		blocks[i] = heap_arena_alloc(&arena, sizes[i]);
		CHECK(blocks[i] != NULL && is_aligned(blocks[i]));
		CHECK_EQ_U64(source.requests, requests + 1);
		CHECK(source.last_request > sizes[i]);
		CHECK(source.last_request - sizes[i] < 8192); /* rounded up, not doubled */
		CHECK(heap_arena_block_size(blocks[i]) >= sizes[i]);
		fill(blocks[i], (unsigned char)(0x40 + i));
	}
	small = heap_arena_alloc(&arena, 8); /* fits in the chunks already there */
	CHECK(small != NULL);
	CHECK_EQ_U64(source.requests, first_requests + 5);
	CHECK_EQ_U64(arena.bytes_managed, source.requested_total);
	CHECK(heap_arena_check(&arena));

	CHECK(holds(just_over, 0x77));
	CHECK(heap_arena_free(&arena, just_over));
	for (int i = 0; i < 4; i++) {
		CHECK(holds(blocks[i], (unsigned char)(0x40 + i)));
		CHECK(heap_arena_free(&arena, blocks[i]));
	}
	CHECK(heap_arena_free(&arena, small));
	CHECK_EQ_U64(arena.bytes_in_use, 0);
	CHECK(heap_arena_check(&arena));

	/* The big chunks are kept and reused without growing. */
	blocks[0] = heap_arena_alloc(&arena, 3 * MIB);
	CHECK(blocks[0] != NULL);
	CHECK_EQ_U64(source.requests, first_requests + 5);
	CHECK(heap_arena_free(&arena, blocks[0]));
	source_release(&source);
}

static void test_double_free_and_wild_pointers(void)
{
	struct grow_source source, other_source;
	struct heap_arena arena, other_arena;
	unsigned char *a, *b, *c, *d, *foreign, *elsewhere;
	size_t in_use, allocations;
	int on_stack[8] = {0};

	source_init(&source, 64 * MIB);
	heap_arena_init(&arena, test_grow, &source);
	a = heap_arena_alloc(&arena, 64);
	b = heap_arena_alloc(&arena, 64);
	c = heap_arena_alloc(&arena, 64);
	d = heap_arena_alloc(&arena, 256);
	CHECK(a && b && c && d);
	fill(d, 0);

	CHECK(heap_arena_free(&arena, b));
	CHECK(!heap_arena_free(&arena, b)); /* still a free block of its own */
	CHECK(heap_arena_free(&arena, a));  /* merges with b after it */
	CHECK(!heap_arena_free(&arena, a)); /* now the head of a merged free block */
	CHECK(!heap_arena_free(&arena, b)); /* swallowed by a */
	CHECK(heap_arena_free(&arena, c));  /* merges with a+b before it */
	CHECK(!heap_arena_free(&arena, c)); /* swallowed by a+b */
	CHECK(heap_arena_check(&arena));
	in_use = arena.bytes_in_use;
	allocations = arena.allocations;
	CHECK_EQ_U64(allocations, 1);

	/* Wild pointers: inside a payload, misaligned, on the stack, in another heap,
	 * in malloc's heap, and made-up small addresses. None may be touched. */
	CHECK(!heap_arena_free(&arena, d + 16));
	CHECK(!heap_arena_free(&arena, d + 1));
	CHECK(!heap_arena_free(&arena, d + heap_arena_block_size(d)));
	CHECK(!heap_arena_free(&arena, on_stack));
	CHECK(!heap_arena_free(&arena, (void *)(uintptr_t)16));
	CHECK(!heap_arena_free(&arena, (void *)(uintptr_t)8));
	foreign = malloc(64);
	CHECK(!heap_arena_free(&arena, foreign));
	CHECK(!heap_arena_free(&arena, foreign + 16));
	free(foreign);

	source_init(&other_source, 64 * MIB);
	heap_arena_init(&other_arena, test_grow, &other_source);
	elsewhere = heap_arena_alloc(&other_arena, 64);
	CHECK(!heap_arena_free(&arena, elsewhere));
	CHECK(heap_arena_free(&other_arena, elsewhere));
	source_release(&other_source);

	CHECK_EQ_U64(arena.bytes_in_use, in_use);
	CHECK_EQ_U64(arena.allocations, allocations);
	CHECK(heap_arena_check(&arena));
	CHECK(holds(d, 0));
	CHECK(heap_arena_free(&arena, d));
	CHECK(!heap_arena_free(&arena, d));
	CHECK_EQ_U64(arena.allocations, 0);
	CHECK(heap_arena_check(&arena));
	source_release(&source);
}

/* Deterministic pseudo-random numbers (xorshift64*), so failures reproduce. */
static uint64_t random_state = 0x2545f4914f6cdd1dull;

static uint64_t random_below(uint64_t limit)
{
	random_state ^= random_state >> 12;
	random_state ^= random_state << 25;
	random_state ^= random_state >> 27;
	return (random_state * 0x2545f4914f6cdd1dull >> 11) % limit;
}

static void test_randomized_with_patterns(void)
{
	enum { SLOTS = 512, STEPS = 100000 };
	static unsigned char *live[SLOTS];
	static unsigned char pattern[SLOTS];
	static size_t requested[SLOTS];
	struct grow_source source;
	struct heap_arena arena;
	size_t in_use = 0, allocations = 0;
	int failures = 0;

	source_init(&source, 256 * MIB);
	heap_arena_init(&arena, test_grow, &source);

	for (int step = 0; step < STEPS && failures < 10; step++) {
		int slot = (int)random_below(SLOTS);

		if (live[slot]) {
			/* Contents intact up to the end of the usable size? */
			if (heap_arena_block_size(live[slot]) < requested[slot] ||
			    !holds(live[slot], pattern[slot]))
				failures++;
			in_use -= heap_arena_block_size(live[slot]);
			allocations--;
			if (!heap_arena_free(&arena, live[slot]))
				failures++;
			live[slot] = NULL;
		} else {
			uint64_t kind = random_below(100);
			size_t size = kind < 70   ? 1 + random_below(128)
			              : kind < 95 ? 129 + random_below(2048)
			                          : 2049 + random_below(40000);

			live[slot] = heap_arena_alloc(&arena, size);
			if (!live[slot] || !is_aligned(live[slot])) {
				failures++;
				live[slot] = NULL;
				continue;
			}
			requested[slot] = size;
			pattern[slot] = (unsigned char)(step * 131 + 7);
			fill(live[slot], pattern[slot]);
			in_use += heap_arena_block_size(live[slot]);
			allocations++;
		}

		if (arena.bytes_in_use != in_use || arena.allocations != allocations)
			failures++;
		if (step % 1000 == 0 && !heap_arena_check(&arena))
			failures++;
	}
	CHECK_EQ_U64(failures, 0);
	CHECK(heap_arena_check(&arena));
	CHECK_EQ_U64(arena.bytes_managed, source.requested_total);

	for (int slot = 0; slot < SLOTS; slot++) {
		if (!live[slot])
			continue;
		CHECK(holds(live[slot], pattern[slot]));
		CHECK(heap_arena_free(&arena, live[slot]));
		live[slot] = NULL;
	}
	CHECK_EQ_U64(arena.bytes_in_use, 0);
	CHECK_EQ_U64(arena.allocations, 0);
	CHECK(heap_arena_check(&arena));
	source_release(&source);
}

int main(void)
{
	RUN(test_basic_and_stats);
	RUN(test_alignment_and_sizes);
	RUN(test_zero_and_overflowing_sizes);
	RUN(test_coalescing);
	RUN(test_growth_across_separate_chunks);
	RUN(test_growth_across_adjacent_chunks);
	RUN(test_large_requests);
	RUN(test_double_free_and_wild_pointers);
	RUN(test_randomized_with_patterns);
	return check_summary();
}
