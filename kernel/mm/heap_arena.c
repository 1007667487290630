/* Kernel heap arena: first-fit free list with boundary tags (see mm/heap_arena.h).
 *
 * Each chunk that grow() returns is laid out as
 *
 *	| chunk descriptor | start fence | block | block | ... | block | end fence |
 *
 * and every block, used or free, is
 *
 *	| header tag | payload (free: list links) ... | footer tag |
 *
 * Header and footer hold the same size and magic, so free() finds both neighbours in
 * constant time: the next block's header right after our footer, the previous block's
 * footer right before our header. The fences look like used tags to their neighbour,
 * so coalescing stops at chunk ends: chunks are not contiguous in general, and even
 * when they happen to be, a block spanning two of them would cover their descriptors.
 *
 * The magic tells a live block from a free one or from random data, which catches
 * most double frees and wild pointers; free() also refuses any pointer outside the
 * chunks, so it never reads memory the arena does not own. */
#include "kernel/mm/heap_arena.h"

#define MAGIC_USED  0x75736564626c6b21ull /* "usedblk!" in ASCII */
#define MAGIC_FREE  0x66726565626c6b21ull /* "freeblk!" */
#define MAGIC_FENCE 0x66656e6365212121ull /* "fence!!!" */
#define MAGIC_NONE  0                     /* written over tags that coalescing swallowed */

/* Default growth step; bigger requests get a chunk of their own size. */
#define CHUNK_BYTES  (16 * 1024)
#define GROW_GRANULE 4096
/* Requests beyond this cannot be satisfied anyway, and refusing them up front keeps
 * every size computation below free of overflow. */
#define LARGEST_REQUEST (SIZE_MAX / 2)

struct heap_tag {
	uint64_t size;  /* of the whole block, both tags included; a multiple of HEAP_ALIGN */
	uint64_t magic; /* MAGIC_USED, MAGIC_FREE or MAGIC_FENCE */
};

struct heap_block {
	struct heap_tag header;
	/* Only while the block is free; a used block's payload starts here. */
	struct heap_block *next_free;
	struct heap_block *previous_free;
};

/* At the start of each chunk. */
struct heap_chunk {
	struct heap_chunk *next;
	uint64_t grown_bytes; /* what grow() returned, as counted in bytes_managed */
	uint64_t span_bytes;  /* aligned bytes from this descriptor to the chunk's end */
};

#define ROUND_UP(value, align) (((value) + (align)-1) / (align) * (align))

#define TAG_BYTES        sizeof(struct heap_tag)
#define DESCRIPTOR_BYTES ROUND_UP(sizeof(struct heap_chunk), HEAP_ALIGN)
#define BLOCK_OVERHEAD   (2 * TAG_BYTES)
#define MIN_BLOCK_BYTES  (ROUND_UP(sizeof(struct heap_block), HEAP_ALIGN) + TAG_BYTES)
#define CHUNK_OVERHEAD   (DESCRIPTOR_BYTES + 2 * TAG_BYTES)

_Static_assert(TAG_BYTES % HEAP_ALIGN == 0, "a tag must keep the payload after it aligned");

static struct heap_tag *footer_of(const struct heap_block *block)
{
	return (struct heap_tag *)((char *)block + block->header.size - TAG_BYTES);
}

static struct heap_block *block_after(const struct heap_block *block)
{
	return (struct heap_block *)((char *)block + block->header.size);
}

static void set_tags(struct heap_block *block, uint64_t size, uint64_t magic)
{
	struct heap_tag *footer;

	block->header.size = size;
	block->header.magic = magic;
	footer = footer_of(block);
	footer->size = size;
	footer->magic = magic;
}

static uintptr_t first_block_address(const struct heap_chunk *chunk)
{
	return (uintptr_t)chunk + DESCRIPTOR_BYTES + TAG_BYTES;
}

static uintptr_t end_fence_address(const struct heap_chunk *chunk)
{
	return (uintptr_t)chunk + chunk->span_bytes - TAG_BYTES;
}

/* The chunk whose blocks cover `address`, or NULL. */
static struct heap_chunk *chunk_containing(const struct heap_arena *arena, uintptr_t address)
{
	struct heap_chunk *chunk;

	for (chunk = arena->chunks; chunk; chunk = chunk->next)
		if (address >= first_block_address(chunk) && address < end_fence_address(chunk))
			return chunk;
	return NULL;
}

static void free_list_push(struct heap_arena *arena, struct heap_block *block)
{
	block->previous_free = NULL;
	block->next_free = arena->free_list;
	if (arena->free_list)
		arena->free_list->previous_free = block;
	arena->free_list = block;
}

static void free_list_remove(struct heap_arena *arena, struct heap_block *block)
{
	if (block->previous_free)
		block->previous_free->next_free = block->next_free;
	else
		arena->free_list = block->next_free;
	if (block->next_free)
		block->next_free->previous_free = block->previous_free;
}

/* Put `replacement` where `block` was in the list (keeps first-fit order on a split). */
static void free_list_replace(struct heap_arena *arena, struct heap_block *block,
                              struct heap_block *replacement)
{
	replacement->next_free = block->next_free;
	replacement->previous_free = block->previous_free;
	if (block->previous_free)
		block->previous_free->next_free = replacement;
	else
		arena->free_list = replacement;
	if (block->next_free)
		block->next_free->previous_free = replacement;
}

static struct heap_block *first_fit(const struct heap_arena *arena, uint64_t block_size)
{
	struct heap_block *block;

	for (block = arena->free_list; block; block = block->next_free)
		if (block->header.size >= block_size)
			return block;
	return NULL;
}

/* Lay out fresh memory from grow() as a chunk holding one free block. The memory is
 * expected to be page aligned; should it not be, the ragged ends are left unused. */
static void add_chunk(struct heap_arena *arena, void *memory, size_t bytes)
{
	uintptr_t start = ROUND_UP((uintptr_t)memory, HEAP_ALIGN);
	uintptr_t end = ((uintptr_t)memory + bytes) / HEAP_ALIGN * HEAP_ALIGN;
	struct heap_chunk *chunk = (struct heap_chunk *)start;
	struct heap_tag *start_fence, *end_fence;
	struct heap_block *block;

	chunk->grown_bytes = bytes;
	chunk->span_bytes = end - start;
	chunk->next = arena->chunks;
	arena->chunks = chunk;
	arena->bytes_managed += bytes;

	start_fence = (struct heap_tag *)(start + DESCRIPTOR_BYTES);
	start_fence->size = 0;
	start_fence->magic = MAGIC_FENCE;
	end_fence = (struct heap_tag *)end_fence_address(chunk);
	end_fence->size = 0;
	end_fence->magic = MAGIC_FENCE;

	block = (struct heap_block *)first_block_address(chunk);
	set_tags(block, end_fence_address(chunk) - first_block_address(chunk), MAGIC_FREE);
	free_list_push(arena, block);
}

/* Ask grow() for a chunk that can hold a block of `block_size`. */
static bool grow_arena(struct heap_arena *arena, uint64_t block_size)
{
	/* HEAP_ALIGN spare bytes in case the memory is not aligned (see add_chunk). */
	size_t bytes = ROUND_UP(block_size + CHUNK_OVERHEAD + HEAP_ALIGN, GROW_GRANULE);
	void *memory;

	if (bytes < CHUNK_BYTES)
		bytes = CHUNK_BYTES;
	if (!arena->grow)
		return false;
	memory = arena->grow(arena->grow_context, bytes);
	if (!memory)
		return false;
	add_chunk(arena, memory, bytes);
	return true;
}

/* Turn free `block` into a used block of `block_size` bytes, splitting the rest off
 * as a new free block when it is big enough to stand alone. */
static void use_block(struct heap_arena *arena, struct heap_block *block, uint64_t block_size)
{
	uint64_t rest_size = block->header.size - block_size;

	if (rest_size >= MIN_BLOCK_BYTES) {
		struct heap_block *rest = (struct heap_block *)((char *)block + block_size);

		set_tags(rest, rest_size, MAGIC_FREE);
		free_list_replace(arena, block, rest);
		set_tags(block, block_size, MAGIC_USED);
	} else {
		free_list_remove(arena, block);
		set_tags(block, block->header.size, MAGIC_USED);
	}
}

/* The block `pointer` is the payload of, if it is a live block of this arena; NULL
 * otherwise. Only reads memory inside the arena's chunks. */
static struct heap_block *live_block(const struct heap_arena *arena, const void *pointer)
{
	uintptr_t address = (uintptr_t)pointer - TAG_BYTES;
	struct heap_chunk *chunk;
	struct heap_block *block;
	struct heap_tag *footer;

	if ((uintptr_t)pointer % HEAP_ALIGN != 0 || (uintptr_t)pointer < TAG_BYTES)
		return NULL;
	chunk = chunk_containing(arena, address);
	if (!chunk)
		return NULL;
	block = (struct heap_block *)address;
	if (block->header.magic != MAGIC_USED || block->header.size < MIN_BLOCK_BYTES ||
	    block->header.size % HEAP_ALIGN != 0 ||
	    block->header.size > end_fence_address(chunk) - address)
		return NULL;
	footer = footer_of(block);
	if (footer->magic != MAGIC_USED || footer->size != block->header.size)
		return NULL;
	return block;
}

/* Called by mm/heap.c at boot and by tests, before any other use of the arena. */
void heap_arena_init(struct heap_arena *arena, void *(*grow)(void *context, size_t bytes),
                     void *grow_context)
{
	arena->grow = grow;
	arena->grow_context = grow_context;
	arena->free_list = NULL;
	arena->chunks = NULL;
	arena->bytes_in_use = 0;
	arena->bytes_managed = 0;
	arena->allocations = 0;
}

/* Called by mm/heap.c (kmalloc) with its spinlock held; never sleeps, though grow()
 * may take further locks (the page pool's). */
void *heap_arena_alloc(struct heap_arena *arena, size_t size)
{
	uint64_t block_size;
	struct heap_block *block;

	if (size == 0 || size > LARGEST_REQUEST)
		return NULL;
	block_size = ROUND_UP(size + BLOCK_OVERHEAD, HEAP_ALIGN);
	if (block_size < MIN_BLOCK_BYTES)
		block_size = MIN_BLOCK_BYTES;

	block = first_fit(arena, block_size);
	if (!block) {
		if (!grow_arena(arena, block_size))
			return NULL;
		block = first_fit(arena, block_size);
		if (!block)
			return NULL;
	}

	use_block(arena, block, block_size);
	arena->bytes_in_use += block->header.size - BLOCK_OVERHEAD;
	arena->allocations++;
	return (char *)block + TAG_BYTES;
}

/* Called by mm/heap.c (kfree) with its spinlock held; never sleeps. Merges the block
 * with free neighbours in the same chunk, so no two free blocks are ever adjacent. */
bool heap_arena_free(struct heap_arena *arena, void *pointer)
{
	struct heap_block *block, *next;
	struct heap_tag *previous_footer;
	uint64_t size;

	if (!pointer)
		return true;
	block = live_block(arena, pointer);
	if (!block)
		return false;

	size = block->header.size;
	arena->bytes_in_use -= size - BLOCK_OVERHEAD;
	arena->allocations--;

	next = block_after(block);
	if (next->header.magic == MAGIC_FREE) {
		free_list_remove(arena, next);
		size += next->header.size;
		next->header.magic = MAGIC_NONE;
	}

	previous_footer = (struct heap_tag *)block - 1;
	if (previous_footer->magic == MAGIC_FREE) {
		struct heap_block *previous =
		    (struct heap_block *)((char *)block - previous_footer->size);

		free_list_remove(arena, previous);
		size += previous->header.size;
		/* Our header is now inside the merged block: scrub it so that freeing
		 * `pointer` again is seen as the double free it is. */
		block->header.magic = MAGIC_NONE;
		block = previous;
	}

	set_tags(block, size, MAGIC_FREE);
	free_list_push(arena, block);
	return true;
}

/* Called by mm/heap.c and tests on a live block; any context. Returns 0 for a
 * pointer that does not carry a live block's header. */
size_t heap_arena_block_size(const void *pointer)
{
	const struct heap_tag *header;

	if (!pointer)
		return 0;
	header = (const struct heap_tag *)pointer - 1;
	return header->magic == MAGIC_USED ? header->size - BLOCK_OVERHEAD : 0;
}

/* Called by tests and the heap debug command with the heap lock held; never sleeps.
 * Walks every block of every chunk, then the free list, and cross-checks both with
 * the arena's counters. Bounded even if the structures are corrupt. */
bool heap_arena_check(const struct heap_arena *arena)
{
	const struct heap_chunk *chunk;
	const struct heap_block *block, *previous;
	size_t grown = 0, free_blocks = 0, used_blocks = 0, used_bytes = 0, listed = 0;

	for (chunk = arena->chunks; chunk; chunk = chunk->next) {
		const struct heap_tag *start_fence, *end_fence;
		uintptr_t address, end;
		bool previous_free = false;

		/* Every chunk adds at least a granule, so a cycle overshoots the total. */
		if (chunk->grown_bytes < GROW_GRANULE || chunk->span_bytes > chunk->grown_bytes ||
		    chunk->span_bytes < CHUNK_OVERHEAD + MIN_BLOCK_BYTES ||
		    chunk->span_bytes % HEAP_ALIGN != 0 ||
		    chunk->grown_bytes > arena->bytes_managed - grown)
			return false;
		grown += chunk->grown_bytes;

		start_fence = (const struct heap_tag *)((uintptr_t)chunk + DESCRIPTOR_BYTES);
		end_fence = (const struct heap_tag *)end_fence_address(chunk);
		if (start_fence->magic != MAGIC_FENCE || end_fence->magic != MAGIC_FENCE)
			return false;

		end = end_fence_address(chunk);
		for (address = first_block_address(chunk); address < end;
		     address += block->header.size) {
			const struct heap_tag *footer;

			block = (const struct heap_block *)address;
			if (block->header.size < MIN_BLOCK_BYTES ||
			    block->header.size % HEAP_ALIGN != 0 ||
			    block->header.size > end - address)
				return false;
			footer = footer_of(block);
			if (footer->size != block->header.size ||
			    footer->magic != block->header.magic)
				return false;
			if (block->header.magic == MAGIC_FREE) {
				if (previous_free)
					return false; /* two free neighbours: a missed merge */
				free_blocks++;
				previous_free = true;
			} else if (block->header.magic == MAGIC_USED) {
				used_blocks++;
				used_bytes += block->header.size - BLOCK_OVERHEAD;
				previous_free = false;
			} else {
				return false;
			}
		}
	}

	previous = NULL;
	for (block = arena->free_list; block; block = block->next_free) {
		if (++listed > free_blocks) /* a cycle, or a block listed twice */
			return false;
		if (!chunk_containing(arena, (uintptr_t)block) ||
		    block->header.magic != MAGIC_FREE || block->previous_free != previous)
			return false;
		previous = block;
	}

	return listed == free_blocks && used_blocks == arena->allocations &&
	       used_bytes == arena->bytes_in_use && grown == arena->bytes_managed;
}
