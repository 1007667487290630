/* The kernel's pseudo-random generator; see random.h. xoshiro256** and its splitmix64
 * seeding are by Blackman and Vigna ("Scrambled linear pseudorandom number generators",
 * 2021; prng.di.unimi.it). */
#include "kernel/random/random.h"

#include "kernel/hart/csr.h"
#include "kernel/lib/string.h"
#include "kernel/sync/spinlock.h"

static struct spinlock random_lock = SPINLOCK_INIT("random");
static uint64_t state[4];

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rotate_left(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* One xoshiro256** step. Caller holds random_lock. */
static uint64_t next(void)
{
	uint64_t result = rotate_left(state[1] * 5, 7) * 9;
	uint64_t t = state[1] << 17;
	state[2] ^= state[0];
	state[3] ^= state[1];
	state[1] ^= state[2];
	state[0] ^= state[3];
	state[2] ^= t;
	state[3] = rotate_left(state[3], 45);
	return result;
}

void random_init(const uint8_t *seed, size_t seed_length)
{
	uint64_t mix = read_time();
	for (size_t i = 0; i < seed_length; i++)
		mix = rotate_left(mix, 8) ^ seed[i] ^ splitmix64(&mix);
	spin_lock(&random_lock);
	for (int i = 0; i < 4; i++)
		state[i] = splitmix64(&mix);
	spin_unlock(&random_lock);
}

void random_bytes(void *buffer, size_t length)
{
	uint8_t *out = buffer;
	spin_lock(&random_lock);
	/* Fold in the time of each request: two boots without rng-seed still part ways. */
	state[0] ^= read_time();
	while (length > 0) {
		uint64_t word = next();
		size_t chunk = length < sizeof word ? length : sizeof word;
		memcpy(out, &word, chunk);
		out += chunk;
		length -= chunk;
	}
	spin_unlock(&random_lock);
}
