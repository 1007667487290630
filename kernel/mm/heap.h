/* The kernel heap for small objects: kmalloc/kfree over heap_arena, growing by pages.
 * Any context (spinlock inside); never sleeps; returns NULL when memory runs out. */
#ifndef DUPLEX_MM_HEAP_H
#define DUPLEX_MM_HEAP_H

#include <stddef.h>

void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(void *pointer);

#endif
