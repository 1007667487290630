/* A tiny assertion kit for the host unit tests (built with the host gcc under
 * AddressSanitizer and UndefinedBehaviorSanitizer). Each test program calls its
 * test functions through RUN(); a failed CHECK prints file:line and the expression,
 * marks the current test failed and goes on. main() ends with `return check_summary();`
 * which prints "N passed, N failed" and returns non-zero on any failure. */
#ifndef DUPLEX_TESTS_CHECK_H
#define DUPLEX_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>

static int check_passed, check_failed, check_current_failed;

#define CHECK(expr)                                                                                \
	do {                                                                                       \
		if (!(expr)) {                                                                     \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #expr);   \
			check_current_failed = 1;                                                  \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_U64(actual, expected)                                                             \
	do {                                                                                       \
		uint64_t check_a_ = (uint64_t)(actual), check_e_ = (uint64_t)(expected);           \
		if (check_a_ != check_e_) {                                                        \
			fprintf(stderr, "%s:%d: %s == 0x%" PRIx64 ", expected 0x%" PRIx64 "\n",    \
			        __FILE__, __LINE__, #actual, check_a_, check_e_);                  \
			check_current_failed = 1;                                                  \
		}                                                                                  \
	} while (0)

#define CHECK_STR(actual, expected)                                                                \
	do {                                                                                       \
		const char *check_a_ = (actual), *check_e_ = (expected);                           \
		if (!check_a_ || strcmp(check_a_, check_e_) != 0) {                                \
			fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__,        \
			        __LINE__, #actual, check_a_ ? check_a_ : "(null)", check_e_);      \
			check_current_failed = 1;                                                  \
		}                                                                                  \
	} while (0)

#define RUN(test_function)                                                                         \
	do {                                                                                       \
		check_current_failed = 0;                                                          \
		test_function();                                                                   \
		if (check_current_failed) {                                                        \
			check_failed++;                                                            \
			fprintf(stderr, "FAIL %s\n", #test_function);                              \
		} else {                                                                           \
			check_passed++;                                                            \
			printf("ok   %s\n", #test_function);                                       \
		}                                                                                  \
	} while (0)

static inline int check_summary(void)
{
	printf("%d passed, %d failed\n", check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
