/* trace: switch the kernel's event tracer on and off and get its records out.
 *   trace on [CLASSES]           forget old records, record CLASSES (default all)
 *   trace off                    stop recording (the records stay)
 *   trace status                 classes, records and drops per hart
 *   trace dump                   print the records as a framed dump (below)
 *   trace run [-e CLASSES] PROG [ARGS]   record while /bin/PROG runs, then dump
 *   trace strace PROG [ARGS]     record PROG's system calls, then print one line per call
 *                                (also what `trace run -e syscall` does)
 *   trace write SIZE [-e CLASSES]        record one raw write of SIZE bytes + tcdrain
 *                                (the scenario `make timeline` draws), then dump
 * CLASSES: console,sched,irq,syscall,wire or all (uapi/trace_record.h).
 *
 * The dump is text, so that it survives a serial log (tools/timeline reads it):
 *   TRACE-BEGIN version=1 harts=H timebase_hz=F mask=0xM capacity=C records=N dropped=D0,D1..
 *   TICKS EVENT HART A B C D      one line per record, hex, hart by hart, oldest first
 *   TRACE-END records=N dropped=D crc32=XXXXXXXX
 * The CRC-32 (IEEE, as zlib's) covers every record line with its "\n". Lines go out in
 * whole-line writes, so a kernel log line can come between two record lines but never
 * inside one; the host skips lines that are not records, and a damaged or cut dump fails
 * its CRC or counts and is refused.
 *
 * strace's lines are printed after PROG has ended (the console is what is being
 * traced, so printing while it runs would trace the tracer): PID NAME(ARGS) = RESULT,
 * pointers in hex, for PROG and the programs it starts (spawn) or forks (clone). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <duplex.h>

#define OUT_SIZE   4000 /* bytes of whole lines per write() */
#define BATCH      64   /* records read per trace_control call */
#define WRITE_MAX  65536
#define MAX_TRACED 32 /* strace: processes followed */

static int usage(void)
{
	fprintf(stderr, "usage: trace on [CLASSES] | off | status | dump\n"
	                "       trace run [-e CLASSES] PROG [ARGS] | strace PROG [ARGS]\n"
	                "       trace write SIZE [-e CLASSES]\n"
	                "CLASSES: console,sched,irq,syscall,wire or all\n");
	return 2;
}

/* ---------------------------------------------------------------- control */

static bool parse_classes(const char *text, uint32_t *mask)
{
	static const struct {
		const char *name;
		uint32_t bits;
	} names[] = {{"console", TRACE_CONSOLE}, {"sched", TRACE_SCHED}, {"irq", TRACE_IRQ},
	             {"syscall", TRACE_SYSCALL}, {"wire", TRACE_WIRE},   {"all", TRACE_ALL}};
	*mask = 0;
	while (*text) {
		size_t length = strcspn(text, ",");
		bool known = false;
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
			if (strlen(names[i].name) == length &&
			    !strncmp(names[i].name, text, length)) {
				*mask |= names[i].bits;
				known = true;
			}
		}
		if (!known && length) {
			fprintf(stderr, "trace: unknown class '%.*s'\n", (int)length, text);
			return false;
		}
		text += length + (text[length] == ',');
	}
	return true;
}

static int start(uint32_t mask)
{
	trace_control(TRACE_OP_SET_MASK, 0, 0, 0);
	trace_control(TRACE_OP_RESET, 0, 0, 0);
	if (trace_control(TRACE_OP_SET_MASK, mask, 0, 0) < 0) {
		perror("trace: cannot switch tracing on");
		return -1;
	}
	return 0;
}

static void stop(void)
{
	trace_control(TRACE_OP_SET_MASK, 0, 0, 0);
}

static int get_status(struct trace_status *status)
{
	long result = trace_control(TRACE_OP_STATUS, 0, status, sizeof *status);
	if (result < 0)
		perror("trace: status");
	return result < 0 ? -1 : 0;
}

/* ---------------------------------------------------------------- the dump */

static char out[OUT_SIZE];
static size_t out_used;

static void flush_out(void)
{
	size_t done = 0;
	while (done < out_used) {
		ssize_t n = write(1, out + done, out_used - done);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	out_used = 0;
}

/* Queue one whole line (with its "\n"), flushing first if it would not fit. */
static void put_line(const char *line, size_t length)
{
	if (out_used + length > sizeof out)
		flush_out();
	memcpy(out + out_used, line, length);
	out_used += length;
}

static uint32_t crc_table[256];

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static uint32_t crc_update(uint32_t crc, const char *data, size_t length)
{
	crc = ~crc;
	for (size_t i = 0; i < length; i++)
		crc = crc_table[(crc ^ (uint8_t)data[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static int dump(void)
{
	struct trace_status status;
	if (get_status(&status) != 0)
		return 1;
	uint32_t harts = status.harts < TRACE_MAX_HARTS ? status.harts : TRACE_MAX_HARTS;
	uint64_t total = 0, dropped = 0;
	char line[256];
	int n = snprintf(line, sizeof line,
	                 "TRACE-BEGIN version=1 harts=%u timebase_hz=%u mask=%#x capacity=%u",
	                 (unsigned)harts, (unsigned)status.timebase_hz, (unsigned)status.mask,
	                 (unsigned)status.capacity);
	for (uint32_t h = 0; h < harts; h++)
		total += status.records[h];
	n += snprintf(line + n, sizeof line - (size_t)n,
	              " records=%llu dropped=", (unsigned long long)total);
	for (uint32_t h = 0; h < harts; h++) {
		dropped += status.dropped[h];
		n += snprintf(line + n, sizeof line - (size_t)n, "%s%llu", h ? "," : "",
		              (unsigned long long)status.dropped[h]);
	}
	line[n++] = '\n';
	crc_init();
	tcdrain(1);
	put_line(line, (size_t)n);
	uint32_t crc = 0;
	uint64_t printed = 0;
	static struct trace_record batch[BATCH];
	for (uint32_t h = 0; h < harts; h++) {
		/* Only what the status counted: a hart still recording adds more meanwhile. */
		for (uint64_t first = 0; first < status.records[h];) {
			uint64_t want =
			    status.records[h] - first < BATCH ? status.records[h] - first : BATCH;
			long got = trace_control(TRACE_OP_READ, (uint64_t)h << 32 | first, batch,
			                         want * sizeof batch[0]);
			if (got <= 0)
				break;
			for (long i = 0; i < got; i++) {
				const struct trace_record *r = &batch[i];
				int m =
				    snprintf(line, sizeof line, "%llx %x %x %lx %llx %llx %llx\n",
				             (unsigned long long)r->ticks, r->event, r->hart,
				             (unsigned long)r->a, (unsigned long long)r->b,
				             (unsigned long long)r->c, (unsigned long long)r->d);
				crc = crc_update(crc, line, (size_t)m);
				put_line(line, (size_t)m);
			}
			first += (uint64_t)got;
			printed += (uint64_t)got;
		}
	}
	n = snprintf(line, sizeof line, "TRACE-END records=%llu dropped=%llu crc32=%08x\n",
	             (unsigned long long)printed, (unsigned long long)dropped, (unsigned)crc);
	put_line(line, (size_t)n);
	flush_out();
	return 0;
}

static int show_status(void)
{
	struct trace_status status;
	if (get_status(&status) != 0)
		return 1;
	printf("mask %#x, %u records per hart, timebase %u Hz\n", (unsigned)status.mask,
	       (unsigned)status.capacity, (unsigned)status.timebase_hz);
	for (uint32_t h = 0; h < status.harts && h < TRACE_MAX_HARTS; h++)
		printf("hart %u: %llu records, %llu dropped\n", (unsigned)h,
		       (unsigned long long)status.records[h],
		       (unsigned long long)status.dropped[h]);
	return 0;
}

/* ---------------------------------------------------------------- running programs */

/* Start /bin/PROG (or PROG if it has a '/') with its arguments; returns its pid. */
static pid_t start_program(char **argv)
{
	char path[128];
	snprintf(path, sizeof path, "%s%s", strchr(argv[0], '/') ? "" : "/bin/", argv[0]);
	char *envp[] = {"PATH=/bin", 0};
	fflush(stdout);
	pid_t pid = spawn(path, argv, envp);
	if (pid < 0)
		perror(path);
	return pid;
}

static int wait_for(pid_t pid)
{
	int status = 0;
	if (waitpid(pid, &status, 0) < 0)
		return 127;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static int strace(int argc, char **argv);

/* trace run: with a syscall-only mask, the strace form; otherwise the dump. */
static int run(int argc, char **argv)
{
	uint32_t mask = TRACE_ALL;
	int i = 0;
	if (i + 1 < argc && !strcmp(argv[i], "-e")) {
		if (!parse_classes(argv[i + 1], &mask))
			return 2;
		i += 2;
	}
	if (i >= argc)
		return usage();
	if (mask == TRACE_SYSCALL)
		return strace(argc - i, argv + i);
	if (start(mask) != 0)
		return 1;
	pid_t pid = start_program(argv + i);
	int code = pid < 0 ? 127 : wait_for(pid);
	stop();
	tcdrain(1);
	dump();
	return code;
}

/* The scenario of `make timeline`: an idle console, then one raw write of SIZE bytes and
 * tcdrain, recorded; then the dump. */
static int traced_write(int argc, char **argv)
{
	uint32_t mask = TRACE_ALL;
	if (argc < 1)
		return usage();
	long size = strtol(argv[0], 0, 10);
	if (size < 1 || size > WRITE_MAX) {
		fprintf(stderr, "trace write: SIZE must be 1..%d\n", WRITE_MAX);
		return 2;
	}
	if (argc >= 3 && !strcmp(argv[1], "-e") && !parse_classes(argv[2], &mask))
		return 2;
	char *bytes = malloc((size_t)size);
	if (!bytes) {
		perror("trace write");
		return 1;
	}
	memset(bytes, '.', (size_t)size);
	struct termios saved, raw;
	tcgetattr(1, &saved);
	raw = saved;
	raw.c_oflag &= ~OPOST; /* exactly SIZE bytes on the wire */
	tcsetattr(1, TCSADRAIN, &raw);
	tcdrain(1);
	if (start(mask) != 0)
		return 1;
	ssize_t written = write(1, bytes, (size_t)size);
	tcdrain(1);
	stop();
	tcsetattr(1, TCSADRAIN, &saved);
	printf("\nTRACE-WRITE size=%ld written=%ld\n", size, (long)written);
	fflush(stdout);
	return dump();
}

/* ---------------------------------------------------------------- strace */

static const struct {
	uint16_t number;
	uint8_t args;
	const char *name;
} calls[] = {
    {SYS_dup, 1, "dup"},
    {SYS_fcntl, 3, "fcntl"},
    {SYS_ioctl, 3, "ioctl"},
    {SYS_openat, 4, "openat"},
    {SYS_getcwd, 2, "getcwd"},
    {SYS_mkdirat, 3, "mkdirat"},
    {SYS_unlinkat, 3, "unlinkat"},
    {SYS_symlinkat, 3, "symlinkat"},
    {SYS_truncate, 2, "truncate"},
    {SYS_ftruncate, 2, "ftruncate"},
    {SYS_faccessat, 3, "faccessat"},
    {SYS_chdir, 1, "chdir"},
    {SYS_fchdir, 1, "fchdir"},
    {SYS_fchmod, 2, "fchmod"},
    {SYS_fchmodat, 3, "fchmodat"},
    {SYS_utimensat, 4, "utimensat"},
    {SYS_renameat2, 5, "renameat2"},
    {SYS_faccessat2, 4, "faccessat2"},
    {SYS_close, 1, "close"},
    {SYS_getdents64, 3, "getdents64"},
    {SYS_read, 3, "read"},
    {SYS_write, 3, "write"},
    {SYS_readv, 3, "readv"},
    {SYS_writev, 3, "writev"},
    {SYS_exit, 1, "exit"},
    {SYS_exit_group, 1, "exit_group"},
    {SYS_nanosleep, 2, "nanosleep"},
    {SYS_clock_gettime, 2, "clock_gettime"},
    {SYS_clock_getres, 2, "clock_getres"},
    {SYS_clock_nanosleep, 4, "clock_nanosleep"},
    {SYS_sched_setaffinity, 3, "sched_setaffinity"},
    {SYS_sched_getaffinity, 3, "sched_getaffinity"},
    {SYS_sched_yield, 0, "sched_yield"},
    {SYS_uname, 1, "uname"},
    {SYS_getpid, 0, "getpid"},
    {SYS_getppid, 0, "getppid"},
    {SYS_brk, 1, "brk"},
    {SYS_wait4, 4, "wait4"},
    {SYS_spawn, 3, "spawn"},
    {SYS_clone, 5, "clone"},
    {SYS_execve, 3, "execve"},
    {SYS_cpu_times, 2, "cpu_times"},
    {SYS_trace_control, 4, "trace_control"},
};

/* Linux errno names for the values Duplex returns (asm-generic/errno-base.h, errno.h). */
static const char *errno_name(long error)
{
	static const char *const names[] = {
	    [1] = "EPERM",      [2] = "ENOENT",  [3] = "ESRCH",         [4] = "EINTR",
	    [5] = "EIO",        [7] = "E2BIG",   [8] = "ENOEXEC",       [9] = "EBADF",
	    [10] = "ECHILD",    [11] = "EAGAIN", [12] = "ENOMEM",       [13] = "EACCES",
	    [14] = "EFAULT",    [16] = "EBUSY",  [17] = "EEXIST",       [18] = "EXDEV",
	    [20] = "ENOTDIR",   [21] = "EISDIR", [22] = "EINVAL",       [24] = "EMFILE",
	    [25] = "ENOTTY",    [27] = "EFBIG",  [28] = "ENOSPC",       [29] = "ESPIPE",
	    [30] = "EROFS",     [34] = "ERANGE", [36] = "ENAMETOOLONG", [38] = "ENOSYS",
	    [39] = "ENOTEMPTY", [40] = "ELOOP",
	};
	return error > 0 && error < (long)(sizeof names / sizeof names[0]) && names[error]
	           ? names[error]
	           : "?";
}

/* One call: its entry records and, once seen, its result. */
struct pending_call {
	int pid;
	bool open;
	uint32_t number;
	uint64_t args[6];
};

static int traced[MAX_TRACED];
static int traced_count;
static struct pending_call pending[MAX_TRACED];

static void print_call(const struct pending_call *call, const char *result)
{
	const char *name = 0;
	int args = 6;
	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
		if (calls[i].number == call->number) {
			name = calls[i].name;
			args = calls[i].args;
		}
	}
	char line[256];
	int n =
	    name ? snprintf(line, sizeof line, "%d %s(", call->pid, name)
	         : snprintf(line, sizeof line, "%d syscall_%u(", call->pid, (unsigned)call->number);
	for (int i = 0; i < args; i++) {
		uint64_t v = call->args[i];
		/* Small values in decimal (fds, sizes, flags), the rest as addresses. */
		n += v < 0x10000 || ((int64_t)v < 0 && (int64_t)v > -4096)
		         ? snprintf(line + n, sizeof line - (size_t)n, "%s%lld", i ? ", " : "",
		                    (long long)v)
		         : snprintf(line + n, sizeof line - (size_t)n, "%s%#llx", i ? ", " : "",
		                    (unsigned long long)v);
	}
	n += snprintf(line + n, sizeof line - (size_t)n, ") = %s\n", result);
	put_line(line, (size_t)n);
}

static struct pending_call *slot_for(int pid)
{
	for (int i = 0; i < traced_count; i++) {
		if (traced[i] == pid)
			return &pending[i];
	}
	return 0;
}

/* One record, in time order. ENTER is followed by ARGS on the same hart. */
static void strace_record(const struct trace_record *r, struct pending_call *entering)
{
	if (r->event == TRACE_SYSCALL_ENTER) {
		entering->number = r->a;
		entering->args[0] = r->b, entering->args[1] = r->c, entering->args[2] = r->d;
	} else if (r->event == TRACE_SYSCALL_ARGS) {
		struct pending_call *call = slot_for((int)r->a);
		if (!call)
			return;
		*call = *entering;
		call->pid = (int)r->a;
		call->args[3] = r->b, call->args[4] = r->c, call->args[5] = r->d;
		call->open = true;
		if (call->number == SYS_exit || call->number == SYS_exit_group)
			print_call(call, "?"), call->open = false;
	} else if (r->event == TRACE_SYSCALL_EXIT) {
		struct pending_call *call = slot_for((int)r->c);
		if (!call || !call->open || call->number != r->a)
			return;
		long result = (long)r->b;
		char text[48];
		if (result < 0 && result > -4096)
			snprintf(text, sizeof text, "%ld %s", result, errno_name(-result));
		else if ((unsigned long)result < 0x10000 || result < 0)
			snprintf(text, sizeof text, "%ld", result);
		else
			snprintf(text, sizeof text, "%#lx", (unsigned long)result);
		print_call(call, text);
		call->open = false;
		/* A child is followed from its parent's return: a forked child's calls made
		 * before that return (on another hart) are not shown. */
		bool started_one = call->number == SYS_spawn || call->number == SYS_clone;
		if (started_one && result > 0 && traced_count < MAX_TRACED)
			traced[traced_count++] = (int)result;
	}
}

/* Merge the harts' rings (each in time order) and decode PROG's calls. */
static int strace(int argc, char **argv)
{
	if (argc < 1)
		return usage();
	if (start(TRACE_SYSCALL) != 0)
		return 1;
	pid_t pid = start_program(argv);
	int code = pid < 0 ? 127 : wait_for(pid);
	stop();
	if (pid < 0)
		return code;
	traced[traced_count++] = pid;
	struct trace_status status;
	if (get_status(&status) != 0)
		return 1;
	uint32_t harts = status.harts < TRACE_MAX_HARTS ? status.harts : TRACE_MAX_HARTS;
	static struct trace_record buffers[TRACE_MAX_HARTS][BATCH];
	uint64_t next[TRACE_MAX_HARTS] = {0}, base[TRACE_MAX_HARTS] = {0};
	long held[TRACE_MAX_HARTS] = {0};
	struct pending_call entering[TRACE_MAX_HARTS];
	tcdrain(1);
	for (;;) {
		int best = -1;
		for (uint32_t h = 0; h < harts; h++) {
			if (next[h] - base[h] >= (uint64_t)held[h] && next[h] < status.records[h]) {
				base[h] = next[h];
				held[h] = trace_control(TRACE_OP_READ, (uint64_t)h << 32 | next[h],
				                        buffers[h], sizeof buffers[h]);
			}
			if (next[h] - base[h] < (uint64_t)held[h] &&
			    (best < 0 || buffers[h][next[h] - base[h]].ticks <
			                     buffers[best][next[best] - base[best]].ticks))
				best = (int)h;
		}
		if (best < 0)
			break;
		strace_record(&buffers[best][next[best] - base[best]], &entering[best]);
		next[best]++;
	}
	for (uint64_t h = 0; h < harts; h++) {
		if (status.dropped[h]) {
			char line[96];
			int n = snprintf(line, sizeof line,
			                 "trace: hart %u lost %llu records (ring full)\n",
			                 (unsigned)h, (unsigned long long)status.dropped[h]);
			put_line(line, (size_t)n);
		}
	}
	flush_out();
	return code;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	const char *command = argv[1];
	if (!strcmp(command, "on")) {
		uint32_t mask = TRACE_ALL;
		if (argc > 2 && !parse_classes(argv[2], &mask))
			return 2;
		return start(mask) ? 1 : 0;
	}
	if (!strcmp(command, "off")) {
		stop();
		return 0;
	}
	if (!strcmp(command, "status"))
		return show_status();
	if (!strcmp(command, "dump"))
		return dump();
	if (!strcmp(command, "run"))
		return run(argc - 2, argv + 2);
	if (!strcmp(command, "strace"))
		return strace(argc - 2, argv + 2);
	if (!strcmp(command, "write"))
		return traced_write(argc - 2, argv + 2);
	return usage();
}
