/* Freestanding string and memory helpers for the kernel.
 * The compiler may emit calls to memcpy/memset/memmove/memcmp itself, so these
 * keep their standard names and semantics. Host unit tests use the host libc. */
#ifndef DUPLEX_LIB_STRING_H
#define DUPLEX_LIB_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int byte, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);

/* Copy the C string `source` into the fixed array `destination` of `capacity` (> 0)
 * bytes, cut to fit and always terminated (what BSD's strlcpy does, without its return
 * value). Any context. */
static inline void copy_string(char *destination, size_t capacity, const char *source)
{
	size_t length = strnlen(source, capacity - 1);
	memcpy(destination, source, length);
	destination[length] = '\0';
}

#endif
