/* Sample statistics for bench: a group's samples sorted, summarised as min, p50, p90, p99,
 * max and the sum (for the mean). Percentiles are nearest-rank, the definition that
 * never invents a value no sample had: with n stated beside them, a reader can tell a
 * p99 of 10 samples from one of 1000. */
#include "bench.h"

/* Nearest-rank percentile: the smallest value with at least p % of the samples at or
 * below it, i.e. sorted[ceil(p/100 * n) - 1]. `permille` is p * 10 (990 = p99). Called by
 * bench_summarise_ns. */
uint64_t bench_percentile(const uint64_t *sorted, size_t n, unsigned permille)
{
	if (n == 0)
		return 0;
	size_t rank = (size_t)(((uint64_t)permille * n + 999) / 1000);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/* qsort's comparison for the samples. */
static int bench_compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Summarise `n` samples in ns (sorted in place). Called by the sections after a group,
 * outside its measured window. */
struct bench_stats bench_summarise_ns(uint64_t *samples, size_t n)
{
	struct bench_stats s = {0};
	s.n = n;
	if (n == 0)
		return s;
	for (size_t i = 0; i < n; i++)
		s.sum += samples[i];
	qsort(samples, n, sizeof samples[0], bench_compare_u64);
	s.min = samples[0];
	s.max = samples[n - 1];
	s.p50 = bench_percentile(samples, n, 500);
	s.p90 = bench_percentile(samples, n, 900);
	s.p99 = bench_percentile(samples, n, 990);
	return s;
}

/* Summarise `n` samples given in ticks (converted to ns, sorted in place). Called by the
 * sections whose samples are rdtime differences. */
struct bench_stats bench_summarise(uint64_t *samples, size_t n)
{
	for (size_t i = 0; i < n; i++)
		samples[i] = bench_ticks_to_ns(samples[i]);
	return bench_summarise_ns(samples, n);
}
