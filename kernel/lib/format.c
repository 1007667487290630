/* printf-style formatting for the kernel (see format.h). */
#include "kernel/lib/format.h"

#include <stdbool.h>
#include <stdint.h>

#include "kernel/lib/string.h"

struct output {
	char *buf;
	size_t size;
	size_t length; /* what the full output needs */
};

static void put_char(struct output *out, char c)
{
	if (out->length + 1 < out->size)
		out->buf[out->length] = c;
	out->length++;
}

static void put_padding(struct output *out, char pad, int count)
{
	while (count-- > 0)
		put_char(out, pad);
}

static void put_number(struct output *out, uint64_t value, bool negative, unsigned base, bool upper,
                       int width, bool left, bool zero)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = digits[value % base];
		value /= base;
	} while (value);
	int length = n + (negative ? 1 : 0);
	if (!left && !zero)
		put_padding(out, ' ', width - length);
	if (negative)
		put_char(out, '-');
	if (!left && zero)
		put_padding(out, '0', width - length);
	while (n)
		put_char(out, tmp[--n]);
	if (left)
		put_padding(out, ' ', width - length);
}

size_t format_string(char *buf, size_t size, const char *fmt, va_list args)
{
	struct output out = {buf, size, 0};

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			put_char(&out, *fmt);
			continue;
		}
		fmt++;
		bool left = false, zero = false, alternate = false;
		for (;; fmt++) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '#')
				alternate = true;
			else if (*fmt == '0')
				zero = true;
			else
				break;
		}
		int width = 0;
		if (*fmt == '*') {
			width = va_arg(args, int);
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		int precision = -1;
		if (*fmt == '.') {
			fmt++;
			precision = 0;
			if (*fmt == '*') {
				precision = va_arg(args, int);
				fmt++;
			}
			while (*fmt >= '0' && *fmt <= '9')
				precision = precision * 10 + (*fmt++ - '0');
		}
		int longs = 0;
		while (*fmt == 'l' || *fmt == 'z') {
			longs = (*fmt == 'z') ? 2 : longs + 1;
			fmt++;
		}
		switch (*fmt) {
		case 'd':
		case 'i': {
			int64_t v = longs ? va_arg(args, int64_t) : va_arg(args, int);
			uint64_t magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			put_number(&out, magnitude, v < 0, 10, false, width, left, zero);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			uint64_t v = longs ? va_arg(args, uint64_t) : va_arg(args, unsigned);
			unsigned base = *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16;
			if (alternate && base == 16) {
				put_char(&out, '0');
				put_char(&out, 'x');
			}
			put_number(&out, v, false, base, *fmt == 'X', width, left, zero);
			break;
		}
		case 'p':
			put_char(&out, '0');
			put_char(&out, 'x');
			put_number(&out, (uintptr_t)va_arg(args, void *), false, 16, false, 16,
			           false, true);
			break;
		case 'c':
			put_padding(&out, ' ', left ? 0 : width - 1);
			put_char(&out, (char)va_arg(args, int));
			put_padding(&out, ' ', left ? width - 1 : 0);
			break;
		case 's': {
			const char *s = va_arg(args, const char *);
			if (!s)
				s = "(null)";
			int length = (int)strnlen(s, precision < 0 ? SIZE_MAX : (size_t)precision);
			put_padding(&out, ' ', left ? 0 : width - length);
			for (int i = 0; i < length; i++)
				put_char(&out, s[i]);
			put_padding(&out, ' ', left ? width - length : 0);
			break;
		}
		case '%':
			put_char(&out, '%');
			break;
		case 0:
			fmt--; /* a lone '%' at the end: stop at the terminator */
			break;
		default:
			put_char(&out, '%');
			put_char(&out, *fmt);
			break;
		}
	}
	if (size > 0)
		buf[out.length < size ? out.length : size - 1] = 0;
	return out.length;
}

size_t format_buffer(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	size_t length = format_string(buf, size, fmt, args);
	va_end(args);
	return length;
}
