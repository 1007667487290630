/* fptest: floating point and the C library's heavier parts, with results that must not
 * depend on which C library built the program (picolibc: /bin/fptest, glibc:
 * /bin/glibc/fptest; tests/test_glibc.py compares the two).
 *
 *   printf("%f") of a few doubles, computed and constant
 *   malloc of 1 MiB (glibc takes it from mmap), written and checked, freed
 *   qsort of 1000 pseudo-random doubles, checked in order, their sum printed
 *   clock_gettime(CLOCK_MONOTONIC): a later reading is not earlier; CLOCK_REALTIME works
 *
 * Prints "FPTEST ..." lines and "FPTEST-DONE failures=N"; exits 0 only if N is 0. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BIG_BYTES    (1024 * 1024)
#define SORT_COUNT   1000
#define SERIES_TERMS 100000

static int failures;

static void report(int ok, const char *what)
{
	printf("FPTEST %s %s\n", what, ok ? "ok" : "FAILED");
	failures += !ok;
}

/* The Leibniz series for pi: a long chain of dependent double operations. */
static double leibniz_pi(int terms)
{
	double sum = 0.0;
	for (int k = 0; k < terms; k++)
		sum += (k % 2 ? -4.0 : 4.0) / (2.0 * k + 1.0);
	return sum;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void test_printf(void)
{
	volatile double third = 1.0 / 3.0; /* volatile: computed at run time */
	printf("FPTEST printf %f %f %.3f %e %g\n", 3.25, -0.5, (double)third, 1234567.875,
	       leibniz_pi(SERIES_TERMS));
	char text[64];
	snprintf(text, sizeof text, "%.6f", 2.5 * third);
	report(strcmp(text, "0.833333") == 0, "snprintf-%f");
}

static void test_malloc(void)
{
	unsigned char *big = malloc(BIG_BYTES);
	int ok = big != NULL;
	for (size_t i = 0; ok && i < BIG_BYTES; i++)
		big[i] = (unsigned char)(i * 7 + 3);
	for (size_t i = 0; ok && i < BIG_BYTES; i++)
		ok = big[i] == (unsigned char)(i * 7 + 3);
	free(big);
	report(ok, "malloc-1MiB");
}

static void test_qsort(void)
{
	static double values[SORT_COUNT];
	uint32_t state = 12345;
	double sum = 0.0;
	for (int i = 0; i < SORT_COUNT; i++) {
		state = state * 1103515245u + 12345u; /* the same sequence with every libc */
		values[i] = (double)(state >> 8) / 65536.0 - 128.0;
		sum += values[i];
	}
	qsort(values, SORT_COUNT, sizeof values[0], compare_doubles);
	int sorted = 1;
	for (int i = 1; i < SORT_COUNT; i++)
		sorted &= values[i - 1] <= values[i];
	printf("FPTEST qsort min %f max %f sum %f\n", values[0], values[SORT_COUNT - 1], sum);
	report(sorted, "qsort-doubles");
}

static void test_clocks(void)
{
	struct timespec first, second, real;
	int ok = clock_gettime(CLOCK_MONOTONIC, &first) == 0;
	for (volatile int i = 0; i < 10000; i++)
		;
	ok = ok && clock_gettime(CLOCK_MONOTONIC, &second) == 0;
	ok = ok && (second.tv_sec > first.tv_sec ||
	            (second.tv_sec == first.tv_sec && second.tv_nsec >= first.tv_nsec));
	ok = ok && clock_gettime(CLOCK_REALTIME, &real) == 0 && real.tv_nsec < 1000000000L;
	report(ok, "clock_gettime");
}

int main(void)
{
	test_printf();
	test_malloc();
	test_qsort();
	test_clocks();
	printf("FPTEST-DONE failures=%d\n", failures);
	return failures != 0;
}
