/* Host unit tests for the console's single-producer/single-consumer byte ring
 * (drivers/console/port/ring.c).
 *
 * The single-threaded tests pin down the arithmetic: capacity validation, full and
 * empty, partial pushes and pops, wrap-around of the buffer at every offset, the 32-bit
 * counters wrapping past 2^32, discard and the high-water mark, and a long random run
 * against a plain array model. The two-thread test streams 64 MiB of pseudo-random bytes
 * from a producer thread to a consumer thread in random-sized pieces and checks them
 * byte for byte. This file is built twice (tests/host/tests.mk): test_ring under
 * AddressSanitizer/UBSan and test_ring_tsan under ThreadSanitizer, which reports any
 * access to the ring that the acquire/release protocol does not order. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "drivers/console/port/ring.h"

/* ---------------------------------------------------------------- helpers */

/* xorshift64*: a small, fast pseudo-random generator; each user keeps its own state so
 * the threads share nothing but the ring. */
static uint64_t random_next(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* 1 .. limit inclusive. */
static uint32_t random_size(uint64_t *state, uint32_t limit)
{
	return 1 + (uint32_t)(random_next(state) % limit);
}

/* A reproducible byte stream: the producer and the consumer each run one from the same
 * seed, the producer to make the bytes and the consumer to know what must arrive. The
 * generator's words are cut into bytes in memory order, whole words with one memcpy
 * (the 64 MiB test spends most of its time here under ThreadSanitizer otherwise), so the
 * stream is the same however it is cut into pieces. */
struct byte_stream {
	uint64_t state;
	uint8_t word[8];    /* the current word's bytes ... */
	unsigned word_used; /* ... of which this many have been handed out */
};

static void stream_init(struct byte_stream *stream, uint64_t seed)
{
	stream->state = seed;
	stream->word_used = 8;
}

static void stream_fill(struct byte_stream *stream, uint8_t *out, uint32_t length)
{
	uint32_t i = 0;
	while (i < length && stream->word_used < 8)
		out[i++] = stream->word[stream->word_used++];
	for (; length - i >= 8; i += 8) {
		uint64_t word = random_next(&stream->state);
		memcpy(out + i, &word, 8);
	}
	if (i < length) {
		uint64_t word = random_next(&stream->state);
		memcpy(stream->word, &word, 8);
		stream->word_used = 0;
		while (i < length)
			out[i++] = stream->word[stream->word_used++];
	}
}

/* The byte the single-threaded tests put at stream position `position`. */
static uint8_t pattern_byte(uint32_t position)
{
	return (uint8_t)(position * 131u + 7u);
}

static void pattern_fill(uint8_t *out, uint32_t first_position, uint32_t length)
{
	for (uint32_t i = 0; i < length; i++)
		out[i] = pattern_byte(first_position + i);
}

static bool pattern_matches(const uint8_t *data, uint32_t first_position, uint32_t length)
{
	for (uint32_t i = 0; i < length; i++) {
		if (data[i] != pattern_byte(first_position + i))
			return false;
	}
	return true;
}

/* Start an initialised, empty ring with both counters at `counter`, as if `counter`
 * bytes had already passed through (the tests poke the public fields directly). */
static void ring_start_at(struct ring *ring, uint32_t counter)
{
	ring->head = counter;
	ring->tail = counter;
}

/* ---------------------------------------------------------------- single-threaded */

static void test_capacity_validation(void)
{
	static uint8_t buffer[4096];
	struct ring ring;
	const uint32_t bad[] = {0, 1, 3, 6, 100, 4097, 0x80000001u, UINT32_MAX};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		bool accepted = ring_init(&ring, buffer, bad[i]);
		if (accepted)
			fprintf(stderr, "capacity %u was accepted\n", bad[i]);
		CHECK(!accepted);
	}
	CHECK(!ring_init(&ring, NULL, 16));

	/* Every power of two from 2 up; the big ones are never touched, only checked. */
	for (uint32_t capacity = 2; capacity != 0; capacity <<= 1) {
		memset(&ring, 0xa5, sizeof ring);
		CHECK(ring_init(&ring, buffer, capacity));
		CHECK_EQ_U64(ring.capacity, capacity);
		CHECK_EQ_U64(ring_used(&ring), 0);
		CHECK_EQ_U64(ring_free(&ring), capacity);
		CHECK_EQ_U64(ring.high_water, 0);
		CHECK(ring_empty(&ring));
	}
}

static void test_full_and_empty(void)
{
	uint8_t buffer[8], data[16], out[16];
	struct ring ring;
	CHECK(ring_init(&ring, buffer, sizeof buffer));
	pattern_fill(data, 0, sizeof data);

	CHECK_EQ_U64(ring_pop(&ring, out, sizeof out), 0); /* empty: nothing to pop */
	CHECK_EQ_U64(ring_push(&ring, data, 0), 0);        /* zero-length push is a no-op */
	CHECK(ring_empty(&ring));

	CHECK_EQ_U64(ring_push(&ring, data, 8), 8);
	CHECK_EQ_U64(ring_used(&ring), 8);
	CHECK_EQ_U64(ring_free(&ring), 0);
	CHECK(!ring_empty(&ring));
	CHECK_EQ_U64(ring_push(&ring, data + 8, 1), 0); /* full: nothing fits */
	CHECK_EQ_U64(ring_used(&ring), 8);

	CHECK_EQ_U64(ring_pop(&ring, out, 0), 0); /* zero-length pop takes nothing */
	CHECK_EQ_U64(ring_used(&ring), 8);
	CHECK_EQ_U64(ring_pop(&ring, out, sizeof out), 8);
	CHECK(pattern_matches(out, 0, 8));
	CHECK(ring_empty(&ring));
	CHECK_EQ_U64(ring_free(&ring), 8);
	CHECK_EQ_U64(ring_pop(&ring, out, sizeof out), 0);

	/* The smallest ring there is. */
	uint8_t tiny[2];
	CHECK(ring_init(&ring, tiny, sizeof tiny));
	for (uint32_t round = 0; round < 5; round++) {
		CHECK_EQ_U64(ring_push(&ring, data, 3), 2);
		CHECK_EQ_U64(ring_free(&ring), 0);
		CHECK_EQ_U64(ring_pop(&ring, out, 1), 1);
		CHECK_EQ_U64(out[0], data[0]);
		CHECK_EQ_U64(ring_push(&ring, data + 2, 3), 1);
		CHECK_EQ_U64(ring_pop(&ring, out, 3), 2);
		CHECK(out[0] == data[1] && out[1] == data[2]);
		CHECK(ring_empty(&ring));
	}
}

static void test_partial_push_and_pop(void)
{
	uint8_t buffer[16], data[64], out[64];
	struct ring ring;
	CHECK(ring_init(&ring, buffer, sizeof buffer));
	pattern_fill(data, 0, sizeof data);

	/* A push bigger than the room takes what fits and reports it. */
	CHECK_EQ_U64(ring_push(&ring, data, 20), 16);
	/* A pop smaller than what is held takes only that much, oldest first. */
	CHECK_EQ_U64(ring_pop(&ring, out, 5), 5);
	CHECK(pattern_matches(out, 0, 5));
	CHECK_EQ_U64(ring_free(&ring), 5);
	/* The caller resumes where the ring stopped taking bytes. */
	CHECK_EQ_U64(ring_push(&ring, data + 16, 9), 5);
	CHECK_EQ_U64(ring_used(&ring), 16);
	CHECK_EQ_U64(ring_pop(&ring, out, 7), 7);
	CHECK(pattern_matches(out, 5, 7));
	CHECK_EQ_U64(ring_pop(&ring, out, 64), 9);
	CHECK(pattern_matches(out, 12, 9));
	CHECK(ring_empty(&ring));
}

/* For every starting offset in the buffer and every length, a push and then pops split
 * at every point must give back the same bytes; the buffer itself must hold them at
 * offset, offset+1, ... modulo the capacity. */
static void test_wrap_at_every_offset(void)
{
	enum { CAPACITY = 16 };
	uint8_t buffer[CAPACITY], data[CAPACITY + 4], out[CAPACITY + 4];
	struct ring ring;
	pattern_fill(data, 0, sizeof data);

	for (uint32_t offset = 0; offset < CAPACITY; offset++) {
		for (uint32_t length = 1; length <= CAPACITY; length++) {
			for (uint32_t split = 0; split <= length; split++) {
				memset(buffer, 0, sizeof buffer);
				CHECK(ring_init(&ring, buffer, CAPACITY));
				ring_start_at(&ring, offset);
				CHECK_EQ_U64(ring_push(&ring, data, length), length);
				CHECK_EQ_U64(ring_used(&ring), length);
				for (uint32_t i = 0; i < length; i++)
					CHECK_EQ_U64(buffer[(offset + i) % CAPACITY], data[i]);

				memset(out, 0, sizeof out);
				CHECK_EQ_U64(ring_pop(&ring, out, split), split);
				CHECK_EQ_U64(ring_pop(&ring, out + split, sizeof out - split),
				             length - split);
				CHECK(memcmp(out, data, length) == 0);
				CHECK(ring_empty(&ring));
				CHECK_EQ_U64(ring.head, offset + length);
				CHECK_EQ_U64(ring.tail, offset + length);
			}
		}
	}

	/* Pushes split at every point, too (the second piece wraps or the first one does). */
	for (uint32_t offset = 0; offset < CAPACITY; offset++) {
		for (uint32_t split = 0; split <= CAPACITY; split++) {
			CHECK(ring_init(&ring, buffer, CAPACITY));
			ring_start_at(&ring, offset);
			CHECK_EQ_U64(ring_push(&ring, data, split), split);
			CHECK_EQ_U64(ring_push(&ring, data + split, CAPACITY + 4 - split),
			             CAPACITY - split);
			CHECK_EQ_U64(ring_free(&ring), 0);
			CHECK_EQ_U64(ring_pop(&ring, out, sizeof out), CAPACITY);
			CHECK(memcmp(out, data, CAPACITY) == 0);
		}
	}
}

/* head and tail are free-running: starting just below 2^32 they wrap to small numbers
 * while the ring is in use, and used/free/data must not notice. */
static void test_counters_wrap_past_2_32(void)
{
	enum { CAPACITY = 8 };
	uint8_t buffer[CAPACITY], data[CAPACITY], out[CAPACITY];
	struct ring ring;

	for (uint32_t below = 0; below <= 2 * CAPACITY; below++) {
		uint32_t start = UINT32_MAX - below; /* wraps after below + 1 bytes */
		CHECK(ring_init(&ring, buffer, CAPACITY));
		ring_start_at(&ring, start);
		uint32_t pushed = 0, popped = 0;
		/* Keep the ring 5 full while 40 bytes pass through, across the wrap. */
		while (popped < 40) {
			uint32_t want = 5 - (pushed - popped);
			pattern_fill(data, pushed, want);
			CHECK_EQ_U64(ring_push(&ring, data, want), want);
			pushed += want;
			CHECK_EQ_U64(ring_used(&ring), 5);
			CHECK_EQ_U64(ring_free(&ring), CAPACITY - 5);
			CHECK_EQ_U64(ring_pop(&ring, out, 3), 3);
			CHECK(pattern_matches(out, popped, 3));
			popped += 3;
		}
		CHECK_EQ_U64(ring.head, (uint32_t)(start + pushed));
		CHECK_EQ_U64(ring.tail, (uint32_t)(start + popped));
		CHECK(ring.head < start && ring.tail < start); /* both really wrapped */

		/* Fill to the brim straddling the wrap point, then empty it. */
		ring_start_at(&ring, start);
		pattern_fill(data, 0, CAPACITY);
		CHECK_EQ_U64(ring_push(&ring, data, CAPACITY), CAPACITY);
		CHECK_EQ_U64(ring_used(&ring), CAPACITY);
		CHECK_EQ_U64(ring_free(&ring), 0);
		CHECK_EQ_U64(ring_push(&ring, data, 1), 0);
		CHECK_EQ_U64(ring_pop(&ring, out, CAPACITY), CAPACITY);
		CHECK(pattern_matches(out, 0, CAPACITY));
		CHECK(ring_empty(&ring));
	}
}

static void test_discard(void)
{
	uint8_t buffer[16], data[16], out[16];
	struct ring ring;
	pattern_fill(data, 0, sizeof data);

	CHECK(ring_init(&ring, buffer, sizeof buffer));
	ring_discard(&ring); /* on an empty ring: nothing happens */
	CHECK(ring_empty(&ring));
	CHECK_EQ_U64(ring.tail, 0);

	const uint32_t starts[] = {0, 5, UINT32_MAX - 3};
	for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
		CHECK(ring_init(&ring, buffer, sizeof buffer));
		ring_start_at(&ring, starts[i]);
		CHECK_EQ_U64(ring_push(&ring, data, 11), 11);
		CHECK_EQ_U64(ring_pop(&ring, out, 2), 2);
		ring_discard(&ring);
		CHECK(ring_empty(&ring));
		CHECK_EQ_U64(ring_free(&ring), 16);
		CHECK_EQ_U64(ring.tail, ring.head);
		CHECK_EQ_U64(ring.head, (uint32_t)(starts[i] + 11));
		/* Bytes pushed after the discard are kept, and only they come out. */
		CHECK_EQ_U64(ring_push(&ring, data + 3, 13), 13);
		CHECK_EQ_U64(ring_pop(&ring, out, sizeof out), 13);
		CHECK(pattern_matches(out, 3, 13));
		/* A full ring discards to empty too. */
		CHECK_EQ_U64(ring_push(&ring, data, 16), 16);
		ring_discard(&ring);
		CHECK(ring_empty(&ring));
		CHECK_EQ_U64(ring_pop(&ring, out, sizeof out), 0);
	}
}

static void test_high_water(void)
{
	uint8_t buffer[16], data[16], out[16];
	struct ring ring;
	pattern_fill(data, 0, sizeof data);

	const uint32_t starts[] = {0, UINT32_MAX - 6};
	for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
		CHECK(ring_init(&ring, buffer, sizeof buffer));
		ring_start_at(&ring, starts[i]);
		CHECK_EQ_U64(ring.high_water, 0);
		ring_push(&ring, data, 5);
		CHECK_EQ_U64(ring.high_water, 5);
		ring_pop(&ring, out, 5);
		CHECK_EQ_U64(ring.high_water, 5); /* emptying does not lower it */
		ring_push(&ring, data, 3);
		CHECK_EQ_U64(ring.high_water, 5); /* a lower peak does not either */
		ring_push(&ring, data, 4);        /* 7 held */
		CHECK_EQ_U64(ring.high_water, 7);
		ring_pop(&ring, out, 6);
		ring_push(&ring, data, 16); /* 1 + 15 that fit */
		CHECK_EQ_U64(ring.high_water, 16);
		ring_push(&ring, data, 1); /* full: nothing pushed, still 16 */
		CHECK_EQ_U64(ring.high_water, 16);
		ring_discard(&ring);
		CHECK_EQ_U64(ring.high_water, 16); /* discard is the consumer's: untouched */
	}
}

/* A long random mix of pushes, pops and discards of random sizes, with the counters
 * starting near 2^32, checked against a plain array holding what the ring should. */
static void test_random_against_model(void)
{
	enum { CAPACITY = 64, STEPS = 200000 };
	uint8_t buffer[CAPACITY], data[2 * CAPACITY], out[2 * CAPACITY];
	uint8_t model[CAPACITY];
	uint32_t model_used = 0, model_high = 0, next_position = 0;
	const uint32_t start = UINT32_MAX - 1000;
	uint64_t random_state = 0x9e3779b97f4a7c15ull;
	struct ring ring;

	CHECK(ring_init(&ring, buffer, CAPACITY));
	ring_start_at(&ring, start);
	for (int step = 0; step < STEPS && !check_current_failed; step++) {
		uint64_t choice = random_next(&random_state) % 100;
		uint32_t length = (uint32_t)(random_next(&random_state) % (2 * CAPACITY + 1));
		if (choice < 50) {
			pattern_fill(data, next_position, length);
			uint32_t room = CAPACITY - model_used;
			uint32_t expected = length < room ? length : room;
			CHECK_EQ_U64(ring_push(&ring, data, length), expected);
			memcpy(model + model_used, data, expected);
			model_used += expected;
			next_position += expected;
			if (model_used > model_high)
				model_high = model_used;
		} else if (choice < 99) {
			uint32_t expected = length < model_used ? length : model_used;
			CHECK_EQ_U64(ring_pop(&ring, out, length), expected);
			CHECK(memcmp(out, model, expected) == 0);
			memmove(model, model + expected, model_used - expected);
			model_used -= expected;
		} else {
			ring_discard(&ring);
			model_used = 0;
		}
		CHECK_EQ_U64(ring_used(&ring), model_used);
		CHECK_EQ_U64(ring_free(&ring), CAPACITY - model_used);
		CHECK_EQ_U64(ring_empty(&ring), model_used == 0);
		CHECK_EQ_U64(ring.high_water, model_high);
	}
	/* next_position counts every byte pushed; the counters did wrap during the run. */
	CHECK(next_position > 1000);
	CHECK_EQ_U64(ring.head, (uint32_t)(start + next_position));
}

/* ---------------------------------------------------------------- two threads */

enum {
	STREAM_BYTES = 64 << 20,
	STREAM_CAPACITY = 1024,
	STREAM_MAX_PIECE = 3 * STREAM_CAPACITY, /* bigger than the ring: partial pushes */
	STREAM_SEED = 0x243f6a8885a308d3ull,
};

struct stream_test {
	struct ring ring;
	int stop; /* set (atomically) by a side that gives up, so the other does not spin */
	/* Written by one thread each, read by the main thread after pthread_join. */
	uint64_t producer_full_waits;
	uint64_t consumer_empty_waits;
	uint64_t consumer_bytes;
	uint64_t first_mismatch; /* stream position, or UINT64_MAX if none */
	uint32_t bad_count;      /* a pop that returned more than asked or than the capacity */
};

/* Draw the piece size for the next push or pop: mostly small, sometimes up to three
 * ring-fulls, so both "ring nearly empty" and "ring full" are common. */
static uint32_t stream_piece(uint64_t *random_state)
{
	switch (random_next(random_state) % 4) {
	case 0:
		return random_size(random_state, 16);
	case 1:
		return random_size(random_state, 256);
	default:
		return random_size(random_state, STREAM_MAX_PIECE);
	}
}

static bool stream_stopped(struct stream_test *test)
{
	return __atomic_load_n(&test->stop, __ATOMIC_RELAXED);
}

static void *stream_producer(void *argument)
{
	struct stream_test *test = argument;
	static uint8_t piece[STREAM_MAX_PIECE];
	struct byte_stream stream;
	uint64_t random_state = 0x13198a2e03707344ull;
	stream_init(&stream, STREAM_SEED);

	uint64_t sent = 0;
	while (sent < STREAM_BYTES && !stream_stopped(test)) {
		uint32_t length = stream_piece(&random_state);
		if (length > STREAM_BYTES - sent)
			length = (uint32_t)(STREAM_BYTES - sent);
		stream_fill(&stream, piece, length);
		/* Push the piece, in as many partial pushes as the ring's room allows. */
		uint32_t done = 0;
		while (done < length && !stream_stopped(test)) {
			uint32_t pushed = ring_push(&test->ring, piece + done, length - done);
			if (pushed == 0) {
				test->producer_full_waits++;
				sched_yield();
			}
			done += pushed;
		}
		sent += done;
	}
	return NULL;
}

static void *stream_consumer(void *argument)
{
	struct stream_test *test = argument;
	static uint8_t piece[STREAM_MAX_PIECE], expected[STREAM_MAX_PIECE];
	struct byte_stream stream;
	uint64_t random_state = 0xa4093822299f31d0ull;
	stream_init(&stream, STREAM_SEED);

	uint64_t received = 0;
	while (received < STREAM_BYTES) {
		uint32_t length = stream_piece(&random_state);
		uint32_t popped = ring_pop(&test->ring, piece, length);
		if (popped > length || popped > STREAM_CAPACITY) {
			test->bad_count = popped;
			break;
		}
		if (popped == 0) {
			test->consumer_empty_waits++;
			sched_yield();
			continue;
		}
		stream_fill(&stream, expected, popped);
		if (memcmp(piece, expected, popped) != 0) {
			uint32_t at = 0;
			while (piece[at] == expected[at])
				at++;
			test->first_mismatch = received + at;
			break;
		}
		received += popped;
	}
	test->consumer_bytes = received;
	__atomic_store_n(&test->stop, 1, __ATOMIC_RELAXED);
	return NULL;
}

static double seconds_now(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* One producer thread and one consumer thread stream 64 MiB through a 1 KiB ring whose
 * counters start near 2^32 (they wrap after the first 12 KiB).
 * Meanwhile the main thread plays the telemetry reader: ring_used and high_water must
 * stay within the capacity whatever moment it looks. */
static void test_two_threads_stream(void)
{
	static uint8_t buffer[STREAM_CAPACITY];
	static struct stream_test test;
	memset(&test, 0, sizeof test);
	test.first_mismatch = UINT64_MAX;
	CHECK(ring_init(&test.ring, buffer, STREAM_CAPACITY));
	ring_start_at(&test.ring, UINT32_MAX - 12345);

	double start = seconds_now();
	pthread_t producer, consumer;
	CHECK(pthread_create(&consumer, NULL, stream_consumer, &test) == 0);
	CHECK(pthread_create(&producer, NULL, stream_producer, &test) == 0);

	uint64_t looks = 0, bad_looks = 0;
	const struct timespec pause = {.tv_sec = 0, .tv_nsec = 200000};
	while (!stream_stopped(&test)) {
		uint32_t used = ring_used(&test.ring);
		uint32_t high = __atomic_load_n(&test.ring.high_water, __ATOMIC_RELAXED);
		if (used > STREAM_CAPACITY || high > STREAM_CAPACITY)
			bad_looks++;
		looks++;
		nanosleep(&pause, NULL);
	}

	CHECK(pthread_join(producer, NULL) == 0);
	CHECK(pthread_join(consumer, NULL) == 0);
	double elapsed = seconds_now() - start;

	printf("     %u MiB in %.2f s; producer waited %llu times on full, consumer %llu on "
	       "empty; high water %u; %llu onlooker samples\n",
	       STREAM_BYTES >> 20, elapsed, (unsigned long long)test.producer_full_waits,
	       (unsigned long long)test.consumer_empty_waits, test.ring.high_water,
	       (unsigned long long)looks);
	if (test.first_mismatch != UINT64_MAX)
		fprintf(stderr, "stream differs first at byte %llu\n",
		        (unsigned long long)test.first_mismatch);
	CHECK_EQ_U64(test.first_mismatch, UINT64_MAX);
	CHECK_EQ_U64(test.bad_count, 0);
	CHECK_EQ_U64(test.consumer_bytes, STREAM_BYTES);
	CHECK_EQ_U64(bad_looks, 0);
	CHECK(ring_empty(&test.ring));
	CHECK_EQ_U64(test.ring.head, (uint32_t)(UINT32_MAX - 12345 + STREAM_BYTES));
	CHECK_EQ_U64(test.ring.high_water, STREAM_CAPACITY); /* it was full at some point */
}

int main(void)
{
	RUN(test_capacity_validation);
	RUN(test_full_and_empty);
	RUN(test_partial_push_and_pop);
	RUN(test_wrap_at_every_offset);
	RUN(test_counters_wrap_past_2_32);
	RUN(test_discard);
	RUN(test_high_water);
	RUN(test_random_against_model);
	RUN(test_two_threads_stream);
	return check_summary();
}
