/* Random bytes for programs (getrandom, AT_RANDOM): a xoshiro256** generator seeded at
 * boot from the device tree's /chosen/rng-seed (QEMU's virt machine passes 32 bytes from
 * the host), kaslr-seed, and the time counter. Not cryptographically secure:
 * the D1 and QEMU give the kernel no entropy source of their own, so a board without
 * rng-seed gets numbers that only differ from boot to boot by timing. */
#ifndef DUPLEX_RANDOM_H
#define DUPLEX_RANDOM_H

#include <stddef.h>
#include <stdint.h>

/* Called once by kernel_main: `seed` / `seed_length` are the device tree's seed bytes
 * (may be NULL / 0). */
void random_init(const uint8_t *seed, size_t seed_length);

/* Fill buffer[0..length) with random bytes. Any context (spinlock inside). */
void random_bytes(void *buffer, size_t length);

#endif
