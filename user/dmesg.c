/* dmesg: print the kernel log buffer (syslog(2) READ_ALL), as util-linux's dmesg does.
 *   dmesg      print every record the buffer holds
 *   dmesg -c   print them, then clear the buffer (READ_CLEAR)
 *   dmesg -C   clear it without printing
 * Records are printed as the console showed them ("[seconds.micros] hN text"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: dmesg [-c | -C]\n");
	return 2;
}

int main(int argc, char **argv)
{
	int action = SYSLOG_ACTION_READ_ALL;
	if (argc > 2)
		return usage();
	if (argc == 2) {
		if (strcmp(argv[1], "-c") == 0)
			action = SYSLOG_ACTION_READ_CLEAR;
		else if (strcmp(argv[1], "-C") == 0)
			action = SYSLOG_ACTION_CLEAR;
		else
			return usage();
	}
	if (action == SYSLOG_ACTION_CLEAR) {
		if (klogctl(action, 0, 0) < 0) {
			perror("dmesg: syslog");
			return 1;
		}
		return 0;
	}
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, 0, 0);
	if (size <= 0) {
		perror("dmesg: syslog size");
		return 1;
	}
	char *buffer = malloc((size_t)size);
	if (!buffer) {
		fprintf(stderr, "dmesg: no memory for %d bytes\n", size);
		return 1;
	}
	int length = klogctl(action, buffer, size);
	if (length < 0) {
		perror("dmesg: syslog");
		return 1;
	}
	/* One write per call of at most 4096 bytes: each arrives whole. */
	for (int done = 0; done < length;) {
		ssize_t wrote = write(1, buffer + done, (size_t)length - (size_t)done);
		if (wrote <= 0) {
			perror("dmesg: write");
			return 1;
		}
		done += (int)wrote;
	}
	free(buffer);
	return 0;
}
