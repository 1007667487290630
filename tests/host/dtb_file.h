/* Reading a DTB file for the host tests (test_board_d1.c, test_uart_layout.c). */
#ifndef DUPLEX_TESTS_DTB_FILE_H
#define DUPLEX_TESTS_DTB_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/fdt/fdt.h"

/* Read a DTB into a heap buffer of exactly its totalsize (QEMU dumps are longer), so
 * AddressSanitizer sees any read past the blob. Exits if it is missing: a build problem.
 * The caller frees it. */
static inline void *dtb_load(const char *path)
{
	FILE *file = fopen(path, "rb");
	if (!file) {
		perror(path);
		exit(2);
	}
	uint8_t header[8];
	if (fread(header, 1, sizeof header, file) != sizeof header) {
		fprintf(stderr, "%s: too short\n", path);
		exit(2);
	}
	uint32_t size = fdt_total_size(header);
	uint8_t *blob = malloc(size ? size : 1);
	fseek(file, 0, SEEK_SET);
	if (!blob || size == 0 || fread(blob, 1, size, file) != size) {
		fprintf(stderr, "%s: cannot read the blob\n", path);
		exit(2);
	}
	fclose(file);
	return blob;
}

#endif
