/* A byte ring for one producer and one consumer that may run on different harts at
 * the same time without a lock (the console's TX ring: writers, serialised by the
 * console lock, produce; the TX interrupt on any hart consumes; the RX ring the other
 * way round). Capacity is a power of two; head and tail are free-running 32-bit
 * counters, so "used = head - tail" works across wrap-around. Acquire/release
 * ordering on the counters publishes the bytes. Several producers (or consumers) must
 * take turns under a lock, which also orders their use of the counters (the TX ring's
 * consumers are the TX interrupt and the writer's idle kick, under the console lock).
 * Never sleeps; any context. */
#ifndef DUPLEX_CONSOLE_RING_H
#define DUPLEX_CONSOLE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ring {
	uint8_t *buffer;
	uint32_t capacity;   /* power of two */
	uint32_t head;       /* total bytes ever pushed; written by the producer only */
	uint32_t tail;       /* total bytes ever popped; written by the consumer only */
	uint32_t high_water; /* most bytes ever held (producer-side statistic) */
};

/* `capacity` must be a power of two >= 2; returns false otherwise. */
bool ring_init(struct ring *ring, uint8_t *buffer, uint32_t capacity);

/* Producer side. Push up to `length` bytes; returns how many fit. */
uint32_t ring_push(struct ring *ring, const uint8_t *data, uint32_t length);
uint32_t ring_free(const struct ring *ring);

/* Consumer side. Pop up to `length` bytes; returns how many there were. */
uint32_t ring_pop(struct ring *ring, uint8_t *out, uint32_t length);
/* Drop everything currently queued (consumer side). */
void ring_discard(struct ring *ring);

/* Either side, or an onlooker such as a drain waiter or telemetry; any context. A
 * snapshot: the other side may change it at once. Tail is read first, so the head read
 * after it is at least as new and `head - tail` cannot go negative; an onlooker racing
 * with both sides could see the counters from slightly different moments, so the result
 * is capped at the capacity. Inline: every console write and tcdrain asks. */
static inline uint32_t ring_used(const struct ring *ring)
{
	uint32_t tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	uint32_t head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
	uint32_t used = head - tail;
	return used < ring->capacity ? used : ring->capacity;
}

/* Either side or an onlooker; any context. See ring_used. */
static inline bool ring_empty(const struct ring *ring)
{
	return ring_used(ring) == 0;
}

#endif
