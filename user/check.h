/* Reporting for the system-call test programs (user/test_syscalls.c, user/test_linux.c):
 * one line per check, "ok NAME" or "FAIL NAME: DETAIL", counted. Header-only (user.mk
 * builds one program per user/NAME.c); built with either C library. */
#ifndef DUPLEX_USER_CHECK_H
#define DUPLEX_USER_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int passed, failed;

/* Record one check: "ok NAME", or "FAIL NAME: DETAIL" with a printf-style detail. */
static inline void check(bool ok, const char *name, const char *detail, ...)
{
	if (ok) {
		passed++;
		printf("ok %s\n", name);
		return;
	}
	failed++;
	printf("FAIL %s: ", name);
	va_list args;
	va_start(args, detail);
	vprintf(detail, args);
	va_end(args);
	putchar('\n');
}

/* A check that a raw result is exactly `want`. */
static inline void expect(const char *name, long got, long want)
{
	check(got == want, name, "got %ld, want %ld", got, want);
}

/* A check that a raw result is -linux_errno. */
static inline void expect_error(const char *name, long got, int linux_errno)
{
	check(got == -linux_errno, name, "got %ld, want -%d", got, linux_errno);
}

#endif
