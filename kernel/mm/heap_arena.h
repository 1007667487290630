/* Kernel heap arena: a first-fit free list with boundary tags, for the kernel's
 * small variable-sized objects (tasks, timers, drivers' state). Blocks are 16-byte
 * aligned; neighbours are coalesced on free; the arena grows by asking its `grow`
 * callback for more memory (the kernel hands it pages).
 *
 * Pure logic: no locking (mm/heap.c wraps it with a spinlock), never sleeps; host
 * unit tests drive it with malloc'd chunks as the growth source. */
#ifndef DUPLEX_HEAP_ARENA_H
#define DUPLEX_HEAP_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HEAP_ALIGN 16

struct heap_arena {
	/* Returns `bytes` (a multiple of 4096, at least what was asked) of fresh memory,
	 * or NULL. Chunks need not be contiguous with earlier ones. */
	void *(*grow)(void *context, size_t bytes);
	void *grow_context;
	struct heap_block *free_list;
	/* Every chunk grow() returned: free() rejects pointers outside them, and
	 * heap_arena_check() walks them. */
	struct heap_chunk *chunks;
	size_t bytes_in_use;  /* payload bytes handed out */
	size_t bytes_managed; /* everything grow() returned */
	size_t allocations;   /* live allocations */
};

void heap_arena_init(struct heap_arena *arena, void *(*grow)(void *context, size_t bytes),
                     void *grow_context);
/* NULL for size 0, for sizes that would overflow, or when grow() fails. */
void *heap_arena_alloc(struct heap_arena *arena, size_t size);
/* NULL is ignored. Returns false if `pointer` is not a live block of this arena
 * (detected by a header magic check: a double free or a wild pointer). */
bool heap_arena_free(struct heap_arena *arena, void *pointer);
/* Usable size of a live block. */
size_t heap_arena_block_size(const void *pointer);
/* Walk every chunk and check headers, footers and the free list; false on corruption.
 * For tests and for a debug command. */
bool heap_arena_check(const struct heap_arena *arena);

#endif
