/* The single-producer/single-consumer byte ring; see ring.h.
 *
 * Who owns what: the producer alone writes `head` and the bytes in the free part of the
 * buffer; the consumer alone writes `tail` and reads the bytes in the used part. Each side
 * reads the other's counter with acquire ordering and publishes its own with release
 * ordering, so:
 *   - the consumer that sees a new head also sees the bytes the producer copied before
 *     storing it (producer's copy -> release head -> consumer's acquire head -> read);
 *   - the producer that sees a new tail knows the consumer has finished reading the bytes
 *     it is about to overwrite (consumer's read -> release tail -> producer's acquire
 *     tail -> overwrite).
 * A side reads its own counter relaxed: nobody else writes it. (In the kernel "the
 * producer" may be several writers taking turns; the lock that serialises them also
 * orders their relaxed reads of head. The same goes for consumers and tail.)
 *
 * Counters run freely and wrap at 2^32; capacity is a power of two (so at most 2^31),
 * so `head - tail` is the number of bytes held even after either wraps, and
 * `counter & (capacity - 1)` is the buffer index. */
#include "drivers/console/port/ring.h"

#include "kernel/lib/string.h"

/* Called once by the ring's owner before either side uses it; no concurrency yet.
 * A power of two that fits in 32 bits is at most 2^31, so `head - tail` always fits.
 * A null buffer is refused too: it can only be a caller's bug. */
bool ring_init(struct ring *ring, uint8_t *buffer, uint32_t capacity)
{
	if (buffer == 0 || capacity < 2 || (capacity & (capacity - 1)) != 0)
		return false;
	ring->buffer = buffer;
	ring->capacity = capacity;
	ring->head = 0;
	ring->tail = 0;
	ring->high_water = 0;
	return true;
}

/* Producer side, any context. The acquire load of tail means the consumer has finished
 * with every byte below it, so the space it freed may be overwritten. */
uint32_t ring_free(const struct ring *ring)
{
	uint32_t head = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
	uint32_t tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	return ring->capacity - (head - tail);
}

/* Producer side, any context. Copies as much as fits (in at most two pieces: up to the
 * end of the buffer, then from its start), then publishes the bytes by storing the new
 * head with release ordering. */
uint32_t ring_push(struct ring *ring, const uint8_t *data, uint32_t length)
{
	uint32_t head = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
	uint32_t tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	uint32_t used = head - tail;
	uint32_t room = ring->capacity - used;
	uint32_t count = length < room ? length : room;
	if (count == 0)
		return 0;

	uint32_t start = head & (ring->capacity - 1);
	uint32_t before_end = ring->capacity - start;
	uint32_t first = count < before_end ? count : before_end;
	memcpy(ring->buffer + start, data, first);
	memcpy(ring->buffer, data + first, count - first);

	__atomic_store_n(&ring->head, head + count, __ATOMIC_RELEASE);

	/* Only the producer writes high_water; telemetry may read it from another hart, so
	 * the store is atomic, but it orders nothing. `used + count` is the fill level as
	 * the producer saw it (the consumer may have taken a few bytes meanwhile): close
	 * enough for a statistic, and never more than the capacity. */
	if (used + count > __atomic_load_n(&ring->high_water, __ATOMIC_RELAXED))
		__atomic_store_n(&ring->high_water, used + count, __ATOMIC_RELAXED);
	return count;
}

/* Consumer side, any context. The acquire load of head makes the bytes below it
 * visible; the release store of the new tail hands their space back only after they
 * have been copied out. */
uint32_t ring_pop(struct ring *ring, uint8_t *out, uint32_t length)
{
	uint32_t tail = __atomic_load_n(&ring->tail, __ATOMIC_RELAXED);
	uint32_t head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
	uint32_t used = head - tail;
	uint32_t count = length < used ? length : used;
	if (count == 0)
		return 0;

	uint32_t start = tail & (ring->capacity - 1);
	uint32_t before_end = ring->capacity - start;
	uint32_t first = count < before_end ? count : before_end;
	memcpy(out, ring->buffer + start, first);
	memcpy(out + first, ring->buffer, count - first);

	__atomic_store_n(&ring->tail, tail + count, __ATOMIC_RELEASE);
	return count;
}

/* Consumer side, any context (e.g. a TCFLSH flush). Everything published so far is
 * dropped; bytes the producer publishes afterwards stay. */
void ring_discard(struct ring *ring)
{
	uint32_t head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
	__atomic_store_n(&ring->tail, head, __ATOMIC_RELEASE);
}
