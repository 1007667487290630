/* conrecords: several writers on several harts at once, each writing tagged,
 * checksummed records, for the console atomicity tests.
 *   conrecords WRITERS RECORDS        parent: spawns the writers, waits for them
 *   conrecords -w ID RECORDS HARTS    one writer, pinned to hart ID % HARTS
 * A record is "<ID:SEQ:LEN:payload:SUM>\n" (payload LEN bytes of letters, SUM the sum
 * of the payload bytes in hex), at most 4096 bytes in all, written with one write()
 * or (every third record) one writev() of three pieces. The host checks every record
 * is whole, correct and in order per writer. */
#include <duplex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static int writer(int id, int records, int harts)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(id % harts, &set);
	sched_setaffinity(0, sizeof set, &set);
	static char record[4096];
	unsigned seed = 12345u + (unsigned)id * 7919u;
	for (int seq = 0; seq < records; seq++) {
		seed = seed * 1103515245u + 12345u;
		int length = (int)((seed >> 8) % 4000);
		int head = snprintf(record, sizeof record, "<%d:%d:%d:", id, seq, length);
		unsigned sum = 0;
		for (int i = 0; i < length; i++) {
			char c = (char)('a' + (seq + i * 7 + id) % 26);
			record[head + i] = c;
			sum += (unsigned char)c;
		}
		int tail = snprintf(record + head + length, sizeof record - (size_t)(head + length),
		                    ":%x>\n", sum);
		size_t total = (size_t)(head + length + tail);
		ssize_t done;
		if (seq % 3 == 2) {
			size_t a = total / 3, b = 2 * total / 3;
			struct iovec parts[3] = {
			    {record, a}, {record + a, b - a}, {record + b, total - b}};
			done = writev(1, parts, 3);
		} else {
			done = write(1, record, total);
		}
		if (done != (ssize_t)total)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "-w") == 0)
		return writer(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (argc != 3) {
		fprintf(stderr, "usage: conrecords WRITERS RECORDS\n");
		return 2;
	}
	int writers = atoi(argv[1]);
	struct duplex_cpu_times times[16];
	long harts = cpu_times(times, 16);
	if (harts < 1)
		harts = 1;
	char id[16], records[16], hart_count[16];
	snprintf(records, sizeof records, "%s", argv[2]);
	snprintf(hart_count, sizeof hart_count, "%ld", harts);
	for (int w = 0; w < writers; w++) {
		snprintf(id, sizeof id, "%d", w);
		char *child[] = {"/bin/conrecords", "-w", id, records, hart_count, NULL};
		char *env[] = {NULL};
		if (spawn("/bin/conrecords", child, env) < 0) {
			fprintf(stderr, "conrecords: spawn failed\n");
			return 1;
		}
	}
	int failures = 0, status;
	while (wait4(-1, &status, 0, NULL) > 0)
		failures += status != 0;
	printf("RECORDS-DONE writers=%d failures=%d\n", writers, failures);
	return failures ? 1 : 0;
}
