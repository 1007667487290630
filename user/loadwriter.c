/* loadwriter: many writers on every hart at once, each writing tagged, checksummed
 * records of random sizes (1 B - 8 KiB) through write() and writev(), for the
 * integrity-under-load tests (tests/test_reliability.py).
 *
 *   loadwriter [-d] WRITERS BYTES [SEED]   parent: prints LOADWRITER-BEGIN, spawns WRITERS
 *                                          writers (writer W pinned to hart W % harts),
 *                                          waits, prints LOADWRITER-DONE and the RX
 *                                          telemetry (LOADWRITER-RX rx_bytes= rx_overruns=)
 *                                          -d: every writer also calls tcdrain() after
 *                                          every record, which must succeed while
 *                                          the others keep the console busy
 *   loadwriter -w ID BYTES HARTS SEED [d]  one writer: records until BYTES payload bytes
 *
 * The console promises that a write of up to 4096 bytes comes out whole; a longer write
 * goes out as 4096-byte pieces that other writers' bytes may separate. So a record of
 * L payload bytes is laid out as N <= 3 frames, frame K covering exactly bytes
 * [4096 K, 4096 (K + 1)) of the one write (the last frame may be shorter):
 *
 *     <W:S:K:N:L:payload:CRC>\n
 *
 * W writer, S its record number, K the frame, N the frames in the record, L the
 * record's payload bytes, payload lowercase letters (this frame's share), CRC the
 * CRC-32 (zlib's) of this frame's payload in 8 hex digits. Every frame but the last
 * is exactly 4096 bytes, so the host can check that each piece arrived whole, that the
 * pieces of a record are in order, that the payload adds up to L, and that every
 * writer's records arrive in order with none lost, duplicated or corrupted.
 *
 * One record in three goes through writev() with the buffer cut into 1-4 pieces at
 * random places (the kernel still cuts its 4096-byte pieces at the same offsets).
 * Sizes are uniform in 1..8192, except that one record in eight takes a boundary size
 * (1, 2, a first frame of exactly 4096 bytes and its neighbours, 8191, 8192).
 *
 * Each writer ends with "LOADWRITER-END w=W records=R payload=P" on its own line and
 * exits 0, or 1 after a short or failed write or (-d) a failed tcdrain, which it reports
 * as "LOADWRITER-DRAIN-FAILED w=W errno=E". */
#include <duplex.h>
#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define FRAME_SIZE       4096 /* the console's atomic write (FILE_CHUNK) */
#define MAX_PAYLOAD      8192
#define MAX_FRAMES       3
#define FRAME_TRAILER    11 /* ":" CRC(8) ">" "\n" */
#define MAX_RECORD_BYTES (MAX_FRAMES * FRAME_SIZE)
#define MAX_WRITERS      64

static uint32_t crc_table[256];

/* zlib's CRC-32 (reflected, polynomial 0xedb88320), so Python's zlib.crc32 agrees. */
static void crc_init(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
}

static uint32_t crc32_of(const char *data, size_t length)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < length; i++)
		c = crc_table[(c ^ (uint8_t)data[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

/* xorshift64*: small, fast and good enough to pick sizes and letters. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Length of the frame header "<W:S:K:N:L:" for these values. */
static int header_length(int id, int sequence, int payload)
{
	return snprintf(NULL, 0, "<%d:%d:0:0:%d:", id, sequence, payload);
}

/* Lay out record `sequence` with `payload` letters into `record`; returns its length.
 * Every frame but the last fills FRAME_SIZE bytes exactly. */
static size_t build_record(char *record, int id, int sequence, int payload, uint64_t *random)
{
	int header = header_length(id, sequence, payload);
	int capacity = FRAME_SIZE - header - FRAME_TRAILER; /* payload per full frame */
	int frames = (payload + capacity - 1) / capacity;
	size_t used = 0;
	int left = payload;
	for (int k = 0; k < frames; k++) {
		int share = left < capacity ? left : capacity;
		used += (size_t)snprintf(record + used, (size_t)header + 1, "<%d:%d:%d:%d:%d:", id,
		                         sequence, k, frames, payload);
		char *letters = record + used;
		for (int i = 0; i < share; i += 8) {
			uint64_t bits = next_random(random);
			for (int j = 0; j < 8 && i + j < share; j++)
				letters[i + j] = (char)('a' + ((bits >> (8 * j)) & 0xff) % 26);
		}
		used += (size_t)share;
		used += (size_t)snprintf(record + used, FRAME_TRAILER + 1, ":%08x>\n",
		                         (unsigned)crc32_of(letters, (size_t)share));
		left -= share;
	}
	return used;
}

/* A payload size: uniform in 1..MAX_PAYLOAD, or (one time in eight) a boundary. */
static int pick_payload(int id, int sequence, uint64_t *random)
{
	uint64_t r = next_random(random);
	if (r % 8 != 0)
		return 1 + (int)((r >> 8) % MAX_PAYLOAD);
	int full = FRAME_SIZE - header_length(id, sequence, 1000) - FRAME_TRAILER;
	const int boundaries[] = {1, 2, full - 1, full, full + 1, MAX_PAYLOAD - 1, MAX_PAYLOAD};
	int size = boundaries[(r >> 8) % (sizeof boundaries / sizeof boundaries[0])];
	/* `full` assumed a 4-digit L: keep the size within 1..MAX_PAYLOAD regardless. */
	return size < 1 ? 1 : size > MAX_PAYLOAD ? MAX_PAYLOAD : size;
}

/* Write `length` bytes in one writev() of 1-4 pieces cut at random places. */
static ssize_t write_scattered(const char *record, size_t length, uint64_t *random)
{
	struct iovec pieces[4];
	int count = 1 + (int)(next_random(random) % 4);
	size_t start = 0;
	for (int i = 0; i < count; i++) {
		size_t end =
		    i == count - 1 ? length : start + next_random(random) % (length - start + 1);
		pieces[i].iov_base = (void *)(record + start);
		pieces[i].iov_len = end - start;
		start = end;
	}
	return writev(1, pieces, count);
}

/* One writer: pin to its hart, then write records until `target` payload bytes. */
static int writer(int id, long target, int harts, uint64_t seed, bool drain)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(id % harts, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		return 1;
	crc_init();
	static char record[MAX_RECORD_BYTES];
	uint64_t random = (seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(id + 1))) | 1;
	long written = 0;
	int sequence = 0;
	while (written < target) {
		int payload = pick_payload(id, sequence, &random);
		size_t length = build_record(record, id, sequence, payload, &random);
		ssize_t done = next_random(&random) % 3 == 0
		                   ? write_scattered(record, length, &random)
		                   : write(1, record, length);
		if (done != (ssize_t)length)
			return 1;
		if (drain && tcdrain(1) != 0) {
			char line[64];
			int n = snprintf(line, sizeof line,
			                 "LOADWRITER-DRAIN-FAILED w=%d errno=%d\n", id, errno);
			write(1, line, (size_t)n);
			return 1;
		}
		written += payload;
		sequence++;
	}
	char line[96];
	int n = snprintf(line, sizeof line, "LOADWRITER-END w=%d records=%d payload=%ld\n", id,
	                 sequence, written);
	return write(1, line, (size_t)n) == n ? 0 : 1;
}

static struct termios saved_settings;

/* At exit: the terminal as we found it. */
static void restore_settings(void)
{
	tcsetattr(0, TCSANOW, &saved_settings);
}

int main(int argc, char **argv)
{
	if ((argc == 6 || argc == 7) && strcmp(argv[1], "-w") == 0)
		return writer(atoi(argv[2]), atol(argv[3]), atoi(argv[4]),
		              strtoull(argv[5], NULL, 0), argc == 7);
	bool drain = argc > 1 && strcmp(argv[1], "-d") == 0;
	if (drain) {
		argv++;
		argc--;
	}
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: loadwriter [-d] WRITERS BYTES [SEED]\n");
		return 2;
	}
	/* Nobody reads while we write: typed (or flooded) bytes must not be echoed into
	 * the records (the line discipline's ECHO, on by default as on Linux). */
	if (tcgetattr(0, &saved_settings) == 0) {
		struct termios quiet = saved_settings;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		tcsetattr(0, TCSANOW, &quiet);
		atexit(restore_settings);
	}
	int writers = atoi(argv[1]);
	long bytes = atol(argv[2]);
	unsigned long long seed = argc == 4 ? strtoull(argv[3], NULL, 0) : 1;
	if (writers < 1 || writers > MAX_WRITERS || bytes < 1) {
		fprintf(stderr, "loadwriter: 1..%d writers and a positive byte count\n",
		        MAX_WRITERS);
		return 2;
	}
	struct duplex_cpu_times times[64];
	long harts = cpu_times(times, 64);
	if (harts < 1)
		harts = 1;
	long each = (bytes + writers - 1) / writers;
	printf("LOADWRITER-BEGIN writers=%d harts=%ld bytes-per-writer=%ld seed=%llu\n", writers,
	       harts, each, seed);
	fflush(stdout);
	char id[16], quota[24], hart_count[16], seed_text[24];
	snprintf(quota, sizeof quota, "%ld", each);
	snprintf(hart_count, sizeof hart_count, "%ld", harts);
	snprintf(seed_text, sizeof seed_text, "%llu", seed);
	int started = 0;
	for (int w = 0; w < writers; w++) {
		snprintf(id, sizeof id, "%d", w);
		char *child[] = {
		    DUPLEX_BIN_DIR "/loadwriter", "-w", id, quota, hart_count, seed_text,
		    drain ? "d" : NULL,           NULL};
		char *env[] = {NULL};
		if (spawn(DUPLEX_BIN_DIR "/loadwriter", child, env) < 0) {
			perror("loadwriter: spawn");
			break;
		}
		started++;
	}
	int failures = writers - started, status;
	while (wait4(-1, &status, 0, NULL) > 0)
		failures += status != 0;
	printf("LOADWRITER-DONE writers=%d failures=%d\n", writers, failures);
	/* What the receiver saw meanwhile (the RX-flood variant of the test floods it). */
	struct console_telemetry counters;
	if (ioctl(1, CONSOLE_IOCTL_TELEMETRY, &counters) == 0)
		printf("LOADWRITER-RX rx_bytes=%llu rx_overruns=%llu\n",
		       (unsigned long long)counters.rx_bytes,
		       (unsigned long long)counters.rx_overruns);
	return failures ? 1 : 0;
}
