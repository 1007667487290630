/* Kernel heap: heap_arena under a spinlock, growing through the page allocator. */
#include "kernel/mm/heap.h"

#include "kernel/lib/string.h"
#include "kernel/mm/heap_arena.h"
#include "kernel/mm/page.h"
#include "kernel/panic/panic.h"
#include "kernel/sync/spinlock.h"

static struct spinlock heap_lock = SPINLOCK_INIT("heap");
static struct heap_arena arena;
static bool arena_ready;

static void *grow_from_pages(void *context, size_t bytes)
{
	(void)context;
	return page_alloc_pages((bytes + PAGE_SIZE - 1) / PAGE_SIZE);
}

void *kmalloc(size_t size)
{
	spin_lock(&heap_lock);
	if (!arena_ready) {
		heap_arena_init(&arena, grow_from_pages, 0);
		arena_ready = true;
	}
	void *pointer = heap_arena_alloc(&arena, size);
	spin_unlock(&heap_lock);
	return pointer;
}

void *kzalloc(size_t size)
{
	void *pointer = kmalloc(size);
	if (pointer)
		memset(pointer, 0, size);
	return pointer;
}

void kfree(void *pointer)
{
	if (!pointer)
		return;
	spin_lock(&heap_lock);
	bool ok = heap_arena_free(&arena, pointer);
	spin_unlock(&heap_lock);
	if (!ok)
		panic("kfree: %p is not a live heap block", pointer);
}
