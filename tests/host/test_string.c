/* The kernel's memcpy (kernel/lib/string.c) at every pair of source and destination
 * alignments and many lengths: each copy is checked byte for byte against a reference,
 * and the bytes around the destination must stay untouched. The kernel file is
 * compiled here under other names, so that the host's own memcpy stays the reference. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

#define memcpy  duplex_memcpy
#define memmove duplex_memmove
#define memset  duplex_memset
#define memcmp  duplex_memcmp
#define strlen  duplex_strlen
#define strnlen duplex_strnlen
#define strcmp  duplex_strcmp
#define strncmp duplex_strncmp
#define strchr  duplex_strchr
#include "kernel/lib/string.c"
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#undef strchr

#define AREA  512
#define GUARD 0xa5

static void test_memcpy_every_alignment_and_length(void)
{
	static uint8_t source[AREA] __attribute__((aligned(8)));
	static uint8_t destination[AREA] __attribute__((aligned(8)));
	for (size_t i = 0; i < AREA; i++)
		source[i] = (uint8_t)(i * 7 + 3);
	int bad = 0;
	for (size_t from = 0; from < 8; from++)
		for (size_t to = 0; to < 8; to++)
			for (size_t length = 0; length <= 300; length++) {
				memset(destination, GUARD, AREA);
				void *returned =
				    duplex_memcpy(destination + to, source + from, length);
				bool ok = returned == destination + to &&
				          memcmp(destination + to, source + from, length) == 0;
				for (size_t i = 0; i < to; i++)
					ok = ok && destination[i] == GUARD;
				for (size_t i = to + length; i < AREA; i++)
					ok = ok && destination[i] == GUARD;
				if (!ok && bad++ < 5)
					fprintf(stderr,
					        "memcpy from +%zu to +%zu, %zu bytes: wrong\n",
					        from, to, length);
			}
	CHECK(bad == 0);
}

int main(void)
{
	RUN(test_memcpy_every_alignment_and_length);
	return check_summary();
}
