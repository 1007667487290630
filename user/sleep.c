/* sleep SECONDS: pause for SECONDS, which may have a fraction ("0.25"). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NS_PER_SECOND 1000000000L
#define MAX_SECONDS   100000000L /* a bit over three years */

/* Parse "S", "S.F" or ".F" (decimal digits only) into *duration. 0, or -1 if malformed.
 * Digits beyond nanoseconds are ignored. */
static int parse_seconds(const char *text, struct timespec *duration)
{
	long seconds = 0, nanoseconds = 0, digit_value = NS_PER_SECOND / 10;
	int digits = 0;
	const char *p = text;

	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		seconds = seconds * 10 + (*p - '0');
		if (seconds > MAX_SECONDS)
			return -1;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			nanoseconds += (*p - '0') * digit_value;
			digit_value /= 10;
		}
	}
	if (*p != '\0' || digits == 0)
		return -1;
	duration->tv_sec = seconds;
	duration->tv_nsec = nanoseconds;
	return 0;
}

/* Sleeps on the monotonic clock, so a change of the wall clock cannot stretch it. */
int main(int argc, char **argv)
{
	struct timespec duration;

	if (argc != 2 || parse_seconds(argv[1], &duration) < 0) {
		fprintf(stderr, "usage: sleep SECONDS (e.g. 2 or 0.5)\n");
		return 1;
	}
	int error = clock_nanosleep(CLOCK_MONOTONIC, 0, &duration, NULL);
	if (error != 0) {
		fprintf(stderr, "sleep: %s\n", strerror(error));
		return 1;
	}
	return 0;
}
