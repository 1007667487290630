/* The kernel log's record store: a fixed array of fixed-size slots, one line per slot,
 * numbered by a 64-bit sequence that never wraps (Linux's printk ring, without the
 * variable-length packing). Appending to a full store overwrites the oldest record;
 * readers ask for a record by number and learn that it is gone when `first` has passed
 * it, which is how the console notices records it never printed.
 *
 * Pure data structure: no locks (kernel/log/log.c holds its spinlock around every call)
 * and no allocation, so the host tests build it as is. Never sleeps. */
#ifndef DUPLEX_LOG_BUFFER_H
#define DUPLEX_LOG_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/log/log.h"

struct log_slot {
	uint16_t length; /* bytes in text, 1 .. LOG_LINE_MAX */
	char text[LOG_LINE_MAX];
};

struct log_buffer {
	struct log_slot *slots;
	uint32_t capacity; /* slots in use; record n lives in slots[n % capacity] */
	uint64_t first;    /* oldest record still held */
	uint64_t next;     /* number the next appended record gets */
};

/* Empty store over `capacity` (>= 1) slots. */
void log_buffer_init(struct log_buffer *buffer, struct log_slot *slots, uint32_t capacity);

/* Use only the first `capacity` (1 .. the current capacity) slots from now on. Only while
 * nothing has wrapped yet (next <= the current capacity, as at boot): the records kept
 * are the newest that fit. Returns 0, or -1 (and changes nothing) otherwise. */
int log_buffer_shrink(struct log_buffer *buffer, uint32_t capacity);

/* Append one record of `length` bytes (cut to LOG_LINE_MAX; 0 is ignored), dropping the
 * oldest when full. Returns the record's number. */
uint64_t log_buffer_append(struct log_buffer *buffer, const char *text, size_t length);

/* Record `number`'s length, copied into `out` (room for LOG_LINE_MAX bytes) when `out`
 * is not NULL; 0 when the record is gone (number < first) or not written yet. */
size_t log_buffer_get(const struct log_buffer *buffer, uint64_t number, char *out);

#endif
