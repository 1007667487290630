/* printf-style formatting without libc, for the kernel log and diagnostics.
 * Supports %d %i %u %x %X %o %c %s %p %%, flags '-', '0' and '#', a field width (or '*'),
 * precision for %s, and length modifiers l, ll, z. Never allocates; safe in any context
 * including interrupt handlers and the fault report. */
#ifndef DUPLEX_LIB_FORMAT_H
#define DUPLEX_LIB_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* Format into buf (always NUL-terminated when size > 0). Returns the length the full
 * output would have had, like vsnprintf. */
size_t format_string(char *buf, size_t size, const char *fmt, va_list args);
size_t format_buffer(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
