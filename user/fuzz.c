/* fuzz: an in-guest system call fuzzer (tests/test_reliability.py).
 *
 *   fuzz SEED COUNT [CHILDREN]    parent: runs CHILDREN (default 8) fuzzing children, child
 *                                 N pinned to hart N % harts, COUNT calls in all
 *   fuzz -v SEED COUNT 1          the same, printing every call before it is made (to
 *                                 replay a failure: same SEED, one child, the call
 *                                 number FUZZ-BAD reported)
 *   fuzz -c SLOT SEED COUNT HART GENERATION VERBOSE
 *                                 one child (the parent starts these)
 *
 * Every child makes its calls with raw `ecall`s (the kernel's own result comes back,
 * no libc in between) and checks each result:
 *   - numbers Duplex does not implement (everything in 0..511 but the calls
 *     in uapi/syscall_numbers.h) must
 *     return -ENOSYS;
 *   - every result is either valid for the call (a length no larger than asked, our own
 *     pid, a descriptor below 32, ...) or a Linux errno, -4095..-1 (and in fact -133..-1);
 *   - the kernel must preserve every register but a0 (a1..a5 and a7 are compared);
 *   - no call may take a hart out of service: every HARTS_CHECK_EVERY calls, and at the
 *     start and end, each child asks which harts are online (sched_setaffinity to all,
 *     sched_getaffinity, its own mask put back), and every hart must be (the parent
 *     looks once more when all are done). A run once left hart 1 off the online mask
 *     while it kept running tasks; a change is reported as "FUZZ-BAD ... harts online"
 *     with the child's calls since its last look ("FUZZ-RECENT ...").
 * A bad result prints "FUZZ-BAD ..." with the call; the child carries on and exits 250.
 * At the end each child prints "FUZZ-CHILD slot=S gen=G calls=N ok=K errors=E bad=B
 * crashes=K skipped=X forks=F execs=E frames=S ...", and the parent "FUZZ-RESOURCES
 * descriptors=D,D' free_pages=P,P'" (its open descriptors and the free pages before the
 * children started and after the last was reaped) and "FUZZ-DONE seed=S calls=C
 * children=N respawns=R failures=F" (calls: what the parent asked for; the children's
 * lines count exactly).
 *
 * Calls: the first 512 draws of child 0 sweep every number 0..511 once (exit and
 * exit_group are drawn but skipped, as below); after that one call in four takes a
 * uniformly random number in 0..511 (or, rarely, a huge one) with random arguments, and
 * the rest pick one of the implemented calls with arguments of the right kinds, drawn
 * from pools of boundary values: 0, -1, 1, small ints, INT_MAX, UINT64_MAX; pointers
 * into kernel space (0xffffffc000000000, 0xffffffffc0200000), to MMIO (0x10000000,
 * 0x0c000000, 0x02000000), unmapped (0x1000, 0x3000000000, the stack guard page),
 * non-canonical, unaligned, wrapping ranges (a pointer near the top with a huge
 * length), read-only memory (our code and rodata), the last bytes of a mapped page
 * with the next one unmapped, valid pointers into our own buffers, and strings such as
 * "/dev/null", "/dev/console", "/bin/true", "/" and unterminated or overlong ones.
 *
 * What the fuzzer does to stay alive and bounded (each rule applies in both modes):
 *   - sleeps: nanosleep and clock_nanosleep get a request we write ourselves, at most
 *     1 ms (or invalid: a negative or >= 1e9 ns field, or a bad pointer); with
 *     TIMER_ABSTIME a time that is already past. The fuzzer sends itself no signals
 *     (below): a long sleep would simply take long.
 *   - signals: kill, tkill and tgkill send signal 0 only; a new action is SIG_DFL or
 *     SIG_IGN (or an unmapped pointer), never a random handler; rt_sigtimedwait only
 *     polls; rt_sigsuspend is skipped. rt_sigreturn, when drawn (one time in
 *     FAULT_RARITY), runs one of user/frame_faults.h's broken signal frames in a forked
 *     child: garbage registers, a set reserved word, sp unmapped at the return or at the
 *     delivery, a kernel pc, sigreturn with no frame, an alternate stack on unmapped
 *     memory. The child must be killed by a signal, with the kernel's one-line report
 *     (counted: "crashes=" in FUZZ-CHILD, and the host test counts the reports), except
 *     the frame whose saved mask blocks everything, which returns and exits 0.
 *   - clone, when drawn (one time in FAULT_RARITY): a fork whose child makes
 *     FORK_CHILD_CALLS fuzzed calls of its own (implemented calls only, and no clone,
 *     execve, frame case or exit in there) and exits, reaped at once; with
 * CLONE_CHILD_SETTID/CLEARTID, CLONE_PARENT_SETTID (any pointer) or CLONE_SETTLS (any value: tp is
 * put back in the child); a new stack on unmapped memory (the child must be killed: a crash); flags
 * Duplex cannot do (CLONE_THREAD, CLONE_VM without CLONE_VFORK and the reverse, an exit signal past
 *     64), which must be EINVAL; or a vfork whose child, in registers only, execve()s an
 *     exec path (below) and exits with the errno.
 *   - execve, when drawn (one time in FAULT_RARITY): in a forked child, reaped at once,
 *     with a path that is a short program (/bin/true, /bin/false, a `#!` script run by
 *     /bin/true) or must fail: missing, empty, a directory, not executable, not ELF,
 *     `#!` loops, a `#!` script whose interpreter is missing (the parent writes both
 *     scripts into /tmp and removes them at the end), a device, a bad pointer, a 256-
 *     character name; argv and envp as any_argv makes them (bad pointers, unterminated,
 *     too many: E2BIG) or one unterminated 8 KiB string. A failed execve must give a
 *     Linux errno; the child exits, a program runs and exits; a kill is a failure.
 *   - reads: before read/readv on an fd, if ioctl(fd, TCGETS) succeeds (a console) and
 *     the fd is not O_NONBLOCK, O_NONBLOCK is set first; nothing types at the console
 *     during the run, so a blocking read would wait forever. The same for pipes (fstat
 *     says S_IFIFO) before read, readv, write and writev, since the fuzzer holds both
 *     ends of its pipes, and for every pipe before a spawn (the child shares them).
 *   - ppoll and pselect6 get a timeout we write ourselves, as the sleeps do (never NULL,
 *     which would mean no timeout at all).
 *   - console writes: write/writev to a console fd are capped at 16 bytes (writev: at
 *     most 8 pieces of 16, from an array we filled) so the run does not drown the
 *     serial line in random bytes; the kernel's checks of long or bad ranges are the
 *     same for /dev/null, which is not capped.
 *   - exit/exit_group: skipped, except one time in 256 when drawn: then the child really
 *     exits, with its progress in the exit code (10..209), and the parent starts a
 *     replacement (a new generation) for the rest of its calls.
 *   - spawn: the path is always a harmless one ("/bin/true", "/bin/false", "/bin/echo",
 *     a missing file, "/etc/motd" (not ELF), "/bin", "" or a bad pointer), never a
 *     program that reads the console or fuzzes; a child that starts is reaped at once
 *     with wait4, so children of children never pile up. Spawn is drawn rarely.
 *   - brk: the children never use malloc (no stdio either: snprintf into static
 *     buffers and raw writes); their buffers sit at the start of the heap, so a break
 *     below their end is put back at once after the call; every 1024 calls the break
 *     goes back to where it started, as do the descriptors (all closed, the standard set
 *     reopened: 0-2 a console of our own, so O_NONBLOCK set here never reaches the
 *     parent's console), so the tables never stay full.
 *   - termios: TCSETS with random bytes can change output processing for everyone
 *     (the settings are the console's: OLCUC, OCRNL...); a child puts its starting
 *     settings back after each TCSETS* and TCOON after each TCXONC, and the parent
 *     restores them at the end.
 *   - memory: munmap and mprotect of a range that touches the child's own memory (its
 *     image, heap and brk reserve, or stack), and mmap with MAP_FIXED over it, are
 *     moved to an address nothing uses (SCRATCH, a page long if the range is huge);
 *     whatever an mmap maps is unmapped again at once, so memory never piles up, and
 *     one mmap in 256 may ask for more than 256 KiB (the kernel zeroes every page).
 * A child that hangs or dies is a failure (the parent waits for it; the host test has
 * a timeout); a child killed by a signal counts as a failure. */
#include <duplex.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "frame_faults.h"

/* Linux's SIGPIPE, the job-control stops and SIG_IGN (asm-generic/signal.h,
 * signal-defs.h). */
#define FUZZ_SIGPIPE      13
#define FUZZ_SIGTSTP      20
#define FUZZ_SIGTTIN      21
#define FUZZ_SIGTTOU      22
#define FUZZ_SIG_IGN      1
#define DEFAULT_CHILDREN  8
#define MAX_CHILDREN      32
#define NUMBERS           512 /* the kernel's table size: every number below is swept */
#define RESET_INTERVAL    1024
#define PROGRESS_EVERY    262144
#define MAX_BAD_REPORTS   20
#define HARTS_CHECK_EVERY 64  /* calls between two looks at the online harts */
#define EXIT_BAD          250 /* a child saw a bad result */
#define PROGRESS_STEPS    200 /* a deliberate exit's code: EXIT_PROGRESS + progress in 1/200ths */
#define EXIT_PROGRESS     10  /* codes EXIT_PROGRESS..EXIT_PROGRESS + PROGRESS_STEPS - 1 */
#define FAULT_RARITY      8   /* clone, execve, rt_sigreturn: one draw in this many runs */
#define FORK_CHILD_CALLS  16  /* fuzzed calls a forked child makes before it exits */

/* Linux values (raw calls take and return these). */
#define L_ENOSYS               38
#define L_MAX_ERRNO            133 /* EHWPOISON: the largest errno Linux defines */
#define L_AT_FDCWD             (-100)
#define L_O_RDONLY             0
#define L_O_WRONLY             1
#define L_O_RDWR               2
#define L_O_APPEND             02000
#define L_O_NONBLOCK           04000
#define L_O_DIRECTORY          0200000
#define L_O_CLOEXEC            02000000
#define L_F_GETFL              3
#define L_F_SETFL              4
#define L_TCGETS               0x5401
#define L_TCSETS               0x5402
#define L_TCSETSW              0x5403
#define L_TCSETSF              0x5404
#define L_TCSBRK               0x5409
#define L_TIOCOUTQ             0x5411
#define L_FIONREAD             0x541b
#define L_FIONBIO              0x5421
#define L_EINVAL               22
#define L_SIGCHLD              17
#define L_F_DUPFD_CLOEXEC      1030
#define L_CLONE_VM             0x100ul
#define L_CLONE_VFORK          0x4000ul
#define L_CLONE_THREAD         0x10000ul
#define L_CLONE_SETTLS         0x80000ul
#define L_CLONE_PARENT_SETTID  0x100000ul
#define L_CLONE_CHILD_CLEARTID 0x200000ul
#define L_CLONE_CHILD_SETTID   0x1000000ul
#define MAX_FILES              32           /* kernel/proc/process.h PROCESS_MAX_FILES */
#define HEAP_LIMIT             (64ul << 20) /* kernel/mm/address_space.h USER_HEAP_LIMIT */

/* Addresses no call may touch (kernel/mm/layout.h, QEMU virt's memory map). */
#define DIRECT_MAP_BASE       0xffffffc000000000ul
#define KERNEL_IMAGE          0xffffffffc0200000ul
#define KERNEL_IN_DIRECT      0xffffffc080200000ul
#define UART_MMIO             0x10000000ul
#define PLIC_MMIO             0x0c000000ul
#define CLINT_MMIO            0x02000000ul
#define USER_SPACE_END        0x0000004000000000ul
#define USER_STACK_TOP        0x3ffffff000ul
#define STACK_GUARD           (USER_STACK_TOP - 64 * 1024 - 4096)
#define SCRATCH               0x2000000000ul /* user space no mapping uses */
#define MMAP_LARGE            (256ul << 10)
#define L_MAP_FIXED           0x10
#define L_MAP_FIXED_NOREPLACE 0x100000

/* ------------------------------------------------------------------ randomness */

static uint64_t random_state;

/* xorshift64*: the whole run follows from the seed. */
static uint64_t next_random(void)
{
	uint64_t x = random_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	random_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static uint64_t below(uint64_t n)
{
	return n ? next_random() % n : 0;
}

static bool one_in(uint64_t n)
{
	return below(n) == 0;
}

/* The signals every fuzzing child keeps ignored (child() says why); called by
 * fuzz_one's rt_sigaction case. */
static bool kept_ignored(long signal)
{
	return signal == FUZZ_SIGPIPE || signal == FUZZ_SIGTSTP || signal == FUZZ_SIGTTIN ||
	       signal == FUZZ_SIGTTOU;
}

/* A seed for child `slot`, generation `generation` of a run seeded `seed`. */
static uint64_t child_seed(uint64_t seed, int slot, int generation)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + (uint64_t)slot * 0xbf58476d1ce4e5b9ull +
	             (uint64_t)generation * 0x94d049bb133111ebull;
	return x ? x : 1;
}

/* ------------------------------------------------------------------ raw calls */

/* `ecall` with all six arguments; *clobbered is set if the kernel changed any argument
 * register other than a0 or the number in a7 (Linux preserves them all). */
static long raw_call(long number, const long args[6], bool *clobbered)
{
	register long a0 __asm__("a0") = args[0];
	register long a1 __asm__("a1") = args[1];
	register long a2 __asm__("a2") = args[2];
	register long a3 __asm__("a3") = args[3];
	register long a4 __asm__("a4") = args[4];
	register long a5 __asm__("a5") = args[5];
	register long a7 __asm__("a7") = number;
	__asm__ volatile("ecall"
	                 : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5), "+r"(a7)
	                 :
	                 : "memory");
	*clobbered = a1 != args[1] || a2 != args[2] || a3 != args[3] || a4 != args[4] ||
	             a5 != args[5] || a7 != number;
	return a0;
}

/* Print `text` on a console descriptor of its own, opened blocking for this line: the
 * fuzzed fds 0-2 may be closed, redirected or O_NONBLOCK (a write could then fail with
 * EAGAIN and the line be lost). If the table is full, fd 31 makes room. */
static void say(const char *text)
{
	long fd = syscall4(SYS_openat, L_AT_FDCWD, (long)(uintptr_t) "/dev/console", L_O_RDWR, 0);
	if (fd < 0) {
		syscall1(SYS_close, 31);
		fd =
		    syscall4(SYS_openat, L_AT_FDCWD, (long)(uintptr_t) "/dev/console", L_O_RDWR, 0);
	}
	syscall3(SYS_write, fd < 0 ? 1 : fd, (long)(uintptr_t)text, (long)strlen(text));
	if (fd >= 0)
		syscall1(SYS_close, fd);
}

/* ------------------------------------------------------------------ memory we own */

/* The data buffers every output pointer we own points into: four of 8 KiB at the
 * start of the heap, page aligned, with the break right after them. So whatever the
 * kernel writes there, however long, either stays inside them or runs into the
 * unmapped page after them (and the call fails whole): it can never reach our own
 * variables (in .bss, below the heap) or our stack. */
#define POOL_BUFFERS     4
#define POOL_BUFFER_SIZE 8192
static uint8_t (*pool)[POOL_BUFFER_SIZE];
/* The strings, the iovec and argv arrays, and the timespec the sleep rule writes: the
 * kernel only ever reads these. */
static _Alignas(16) uint64_t iovec_area[2 * 80];
static _Alignas(16) uint64_t argv_area[80];
static _Alignas(16) int64_t sleep_request[2];
static char long_string[8192]; /* no NUL inside: ENAMETOOLONG / E2BIG */
static char path_255[256];     /* 255 characters and a NUL */
static char path_256[257];     /* 256 characters and a NUL: one too many */
static const char readonly_data[64] = "read-only data the kernel may read but not write";

static uint64_t heap_start;  /* the break when the child started */
static uint64_t heap_mapped; /* the end of the pool: the break; the next page is unmapped */
static long own_pid, parent_pid;

static const char *const strings[] = {
    "/dev/null", "/dev/console", "/bin/true",    "/",
    "/bin",      "/bin/",        "bin/echo",     "",
    "/etc/motd", "/etc",         "/nonexistent", "//bin//true",
    "/dev",      "/dev/",        "/bin/sh/x",    "/bin/../bin/true",
    ".",         "..",           "/dev/null/",   "etc/motd",
};
#define STRING_COUNT (sizeof strings / sizeof strings[0])

static const char *const safe_programs[] = {
    "/bin/true", "/bin/false", "/bin/echo", "/nonexistent", "/etc/motd", "/bin", "", "bin/true",
};
#define SAFE_PROGRAM_COUNT (sizeof safe_programs / sizeof safe_programs[0])

/* Addresses that must always fail. */
static const uint64_t bad_pointers[] = {
    0, /* first: sleep_timespec skips it */
    1,
    0x1000,
    0x3000000000ul,
    STACK_GUARD,
    USER_STACK_TOP,
    USER_SPACE_END - 8,
    USER_SPACE_END,
    USER_SPACE_END + 4096,
    0x8000000000000000ul,
    DIRECT_MAP_BASE,
    DIRECT_MAP_BASE + 0x80000000ul,
    KERNEL_IN_DIRECT,
    KERNEL_IMAGE,
    KERNEL_IMAGE + 0x1000,
    UART_MMIO,
    PLIC_MMIO + 0x200004,
    CLINT_MMIO + 0xbff8,
    0x80000000ul,
    0xfffffffffffff000ul,
    0xffffffffffffffffull,
    0xfffffffffffffff8ull,
};
#define BAD_POINTER_COUNT (sizeof bad_pointers / sizeof bad_pointers[0])

static const uint64_t integers[] = {
    0,
    1,
    2,
    3,
    4,
    7,
    8,
    15,
    16,
    31,
    32,
    33,
    63,
    64,
    100,
    127,
    128,
    255,
    256,
    511,
    512,
    1023,
    1024,
    1025,
    4095,
    4096,
    4097,
    8191,
    8192,
    65536,
    1ul << 20,
    0x7fffffff,
    0x80000000,
    0xffffffff,
    0x100000000ul,
    0x100000001ul,
    0x7fffffffffffffffull,
    0x8000000000000000ull,
    0xffffffffffffffffull,
    0xfffffffffffffffeull,
    (uint64_t)-100,
    (uint64_t)-4095,
    (uint64_t)-4096,
    (uint64_t)-2147483648l,
};
#define INTEGER_COUNT (sizeof integers / sizeof integers[0])

/* A boundary integer, a small one, or 64 random bits. */
static uint64_t any_integer(void)
{
	switch (below(4)) {
	case 0:
	case 1:
		return integers[below(INTEGER_COUNT)];
	case 2:
		return below(64);
	default:
		return next_random();
	}
}

/* A pointer into our own writable memory (aligned or not). */
static uint64_t own_pointer(void)
{
	uint8_t *buffer = pool[below(POOL_BUFFERS)];
	static const uint32_t offsets[] = {0, 1, 3, 7, 8, 16, 4092, 4095, 4096, 8000, 8184};
	uint32_t offset = one_in(2) ? offsets[below(sizeof offsets / sizeof offsets[0])]
	                            : (uint32_t)below(POOL_BUFFER_SIZE);
	return (uint64_t)(uintptr_t)(buffer + offset);
}

/* Any pointer: our buffers, the edge of the heap, read-only memory, or one that must
 * fail. Never our stack or .bss: a long read there would overwrite the fuzzer itself. */
static uint64_t any_pointer(void)
{
	switch (below(10)) {
	case 0:
	case 1:
	case 2:
	case 3:
	case 6:
		return own_pointer();
	case 4: /* the last bytes before an unmapped page */
		return heap_mapped - (uint64_t[]){1, 2, 8, 16, 64, 4096}[below(6)];
	case 5:
		return one_in(2) ? (uint64_t)(uintptr_t)readonly_data
		                 : (uint64_t)(uintptr_t)&any_pointer; /* code: R-X */
	case 7:
		return bad_pointers[below(BAD_POINTER_COUNT)] + (one_in(4) ? below(8) : 0);
	case 8:
		return own_pointer() + HEAP_LIMIT * 2; /* far past everything we map */
	default:
		return any_integer();
	}
}

/* A length that suits the pointer sometimes and wraps or overruns at other times. */
static uint64_t any_length(uint64_t pointer)
{
	switch (below(6)) {
	case 0:
		return below(65);
	case 1:
		return below(POOL_BUFFER_SIZE + 1);
	case 2:
		return integers[below(INTEGER_COUNT)];
	case 3: /* exactly to the end of user space, or one past (wrap checks) */
		return USER_SPACE_END - pointer + below(2);
	case 4:
		return (uint64_t)0 - pointer + below(3); /* pointer + length wraps to 0..2 */
	default:
		return below(4097);
	}
}

static uint64_t any_string(void)
{
	switch (below(8)) {
	case 0:
		return (uint64_t)(uintptr_t)long_string;
	case 1:
		return (uint64_t)(uintptr_t)(one_in(2) ? path_255 : path_256);
	case 2: /* runs off the end of the mapped heap */
		return heap_mapped - 4;
	case 3:
		return any_pointer();
	default:
		return (uint64_t)(uintptr_t)strings[below(STRING_COUNT)];
	}
}

static uint64_t any_fd(void)
{
	switch (below(6)) {
	case 0:
	case 1:
	case 2:
		return below(8); /* 0-2 console, 3 /dev/null, 4 /bin, 5 /etc/motd, 6-7 maybe */
	case 3:
		return below(MAX_FILES + 2);
	case 4:
		return (uint64_t[]){(uint64_t)-1,  (uint64_t)L_AT_FDCWD, 0x7fffffff,
		                    0x100000000ul, 0x100000001ul,        64,
		                    1024}[below(7)];
	default:
		return any_integer();
	}
}

/* Fill an iovec array with random (pointer, length) pairs; returns its address. */
static uint64_t any_iovec(bool console)
{
	/* For a console, every entry a count of up to 8 can reach is (re)filled, capped. */
	int count = console ? 8 : 1 + (int)below(8);
	for (int i = 0; i < count * 2; i += 2) {
		uint64_t base = one_in(3) ? any_pointer() : own_pointer();
		uint64_t length = one_in(4) ? any_length(base) : below(2048);
		if (console && length > 16)
			length = 16;
		iovec_area[i] = base;
		iovec_area[i + 1] = length;
	}
	if (console) /* only arrays we filled: pool bytes could name a long, valid range */
		return (uint64_t)(uintptr_t)iovec_area;
	switch (below(8)) {
	case 0:
		return any_pointer();
	case 1: /* the array itself starts right before an unmapped page */
		return heap_mapped - 16 * below(3);
	default:
		return (uint64_t)(uintptr_t)iovec_area;
	}
}

static uint64_t any_iovec_count(bool console)
{
	uint64_t count = one_in(4) ? any_integer() : below(9);
	return console && count > 4 && count <= 1024 ? 4 : count;
}

/* A NULL-terminated argv of harmless words, or a broken one. */
static uint64_t any_argv(void)
{
	switch (below(8)) {
	case 0:
		return 0;
	case 1:
		return any_pointer();
	case 2: /* more than PROCESS_MAX_ARGS entries: E2BIG */
		for (int i = 0; i < 79; i++)
			argv_area[i] = (uint64_t)(uintptr_t) "x";
		argv_area[79] = 0;
		return (uint64_t)(uintptr_t)argv_area;
	case 3: /* no terminator within the array: runs into random pool bytes */
		for (int i = 0; i < 80; i++)
			argv_area[i] = any_pointer();
		return (uint64_t)(uintptr_t)argv_area;
	default: {
		int count = (int)below(5);
		for (int i = 0; i < count; i++)
			argv_area[i] = one_in(4)
			                   ? any_string()
			                   : (uint64_t)(uintptr_t)strings[below(STRING_COUNT)];
		argv_area[count] = 0;
		return (uint64_t)(uintptr_t)argv_area;
	}
	}
}

/* Write 64 random bytes where `pointer` points, if that is inside our pool. */
static void scramble(uint64_t pointer)
{
	uint64_t start = (uint64_t)(uintptr_t)pool;
	uint64_t pool_end = start + POOL_BUFFERS * POOL_BUFFER_SIZE;
	if (pointer < start || pointer >= pool_end)
		return;
	uint64_t end = pointer + 64 < pool_end ? pointer + 64 : pool_end;
	for (uint64_t p = pointer; p < end; p++)
		*(uint8_t *)(uintptr_t)p = (uint8_t)next_random();
}

/* A timespec for a sleep: at most 1 ms, or invalid, or a bad pointer, never NULL: to
 * ppoll and pselect6 NULL means no timeout, and a child polling a quiet descriptor (or
 * none: nfds 0) then sleeps for good. That hung the first 17-million-call soak run
 * (issue #29): two children in ppoll(..., NULL, ...) from call 6193 and 31340 of their
 * generation, replayed alone with `fuzz -c SLOT SEED COUNT 0 GEN 1`. */
static uint64_t sleep_timespec(void)
{
	if (one_in(8))
		return bad_pointers[1 + below(BAD_POINTER_COUNT - 1)];
	sleep_request[0] = 0;
	sleep_request[1] = (int64_t)below(1000001);
	if (one_in(8)) { /* invalid: EINVAL, never a sleep */
		sleep_request[0] = (int64_t[]){-1, 0, 0}[below(3)];
		sleep_request[1] = (int64_t[]){0, 1000000000, -1}[below(3)];
		if (sleep_request[0] == 0 && sleep_request[1] == 0)
			sleep_request[1] = -5;
	}
	return (uint64_t)(uintptr_t)sleep_request;
}

/* ------------------------------------------------------------------ the calls */

enum kind {
	ANY,
	FD,
	BUF,
	LEN,
	STR,
	OFLAGS,
	IOCTL,
	FCNTL,
	INT,
	CLOCK,
	PID,
	IOV,
	IOVCNT,
	ARGV,
	BRK,
	PROT,   /* PROT_* bits */
	MFLAGS, /* mmap flags */
	SIGNAL, /* a signal number */
	SMALL,  /* 0..16: a resource, a `how`, a flag word */
	LOGACTION,
	LOGLEN
};

struct call {
	int number;
	int weight;
	enum kind args[6];
	long max_result; /* the largest valid non-negative result (-1: none checked) */
};

/* The implemented calls and the kinds of their arguments: every number in
 * uapi/syscall_numbers.h, no more (a call added there must be added here too, or the
 * fuzzer reports it as "unimplemented number succeeded"). Weights: how often each is
 * drawn in the structured mode; max_result: the largest valid non-negative result. */
static const struct call calls[] = {
    {SYS_dup, 4, {FD}, MAX_FILES - 1},
    {SYS_dup3, 3, {FD, FD, OFLAGS}, MAX_FILES - 1},
    {SYS_pipe2, 2, {BUF, OFLAGS}, 0},
    {SYS_ppoll, 3, {BUF, SMALL, BUF, BUF, SMALL}, MAX_FILES},
    {SYS_pselect6, 2, {SMALL, BUF, BUF, BUF, BUF, BUF}, 3 * 64},
    {SYS_fcntl, 6, {FD, FCNTL, INT}, 3 | L_O_APPEND | L_O_NONBLOCK},
    {SYS_ioctl, 10, {FD, IOCTL, BUF}, 0},
    {SYS_openat, 8, {FD, STR, OFLAGS, INT}, MAX_FILES - 1},
    {SYS_close, 5, {FD}, 0},
    {SYS_getdents64, 5, {FD, BUF, LEN}, 4096},
    {SYS_lseek, 4, {FD, INT, FCNTL}, INT64_MAX}, /* any offset at or past the end */
    {SYS_read, 8, {FD, BUF, LEN}, 65536},        /* a pipe reads up to its whole buffer */
    {SYS_write, 8, {FD, BUF, LEN}, -1},          /* checked against the length asked */
    {SYS_readv, 6, {FD, IOV, IOVCNT}, 4096},
    {SYS_writev, 6, {FD, IOV, IOVCNT}, -1},
    {SYS_exit, 1, {INT}, -1},
    {SYS_exit_group, 1, {INT}, -1},
    {SYS_nanosleep, 2, {BUF, BUF}, 0},
    {SYS_clock_gettime, 4, {CLOCK, BUF}, 0},
    {SYS_clock_getres, 4, {CLOCK, BUF}, 0},
    {SYS_clock_nanosleep, 2, {CLOCK, INT, BUF, BUF}, 0},
    {SYS_sched_setaffinity, 3, {PID, LEN, BUF}, 0},
    {SYS_sched_getaffinity, 3, {PID, LEN, BUF}, 8},
    {SYS_sched_yield, 2, {ANY}, 0},
    {SYS_uname, 3, {BUF}, 0},
    {SYS_getpid, 2, {ANY}, -1},
    {SYS_getppid, 2, {ANY}, -1},
    {SYS_brk, 3, {BRK}, -1},
    {SYS_wait4, 4, {PID, BUF, INT, BUF}, 0x7fffffff},
    {SYS_spawn, 1, {STR, ARGV, ARGV}, 0x7fffffff},
    /* Run by the rules in the header (a child of their own, reaped at once), never as
     * drawn: a fork would double the fuzzers, an execve replace this one. clone3 is
     * ENOSYS, as an unimplemented number. */
    {SYS_clone, 2, {ANY}, -1},
    {SYS_execve, 2, {ANY}, -1},
    {SYS_setpgid, 2, {PID, PID}, 0},
    {SYS_getpgid, 2, {PID}, 0x7fffffff},
    {SYS_getsid, 2, {PID}, 0x7fffffff},
    {SYS_setsid, 1, {ANY}, 0x7fffffff},
    {SYS_cpu_times, 3, {BUF, LEN}, 64},
    {SYS_readlinkat, 2, {FD, STR, BUF, LEN}, 256}, /* a link target: PATH_LINK_MAX */
    {SYS_newfstatat, 3, {FD, STR, BUF, SMALL}, 0},
    {SYS_fstat, 3, {FD, BUF}, 0},
    {SYS_set_tid_address, 1, {BUF}, -1},
    {SYS_set_robust_list, 1, {BUF, LEN}, 0},
    {SYS_rt_sigaction, 3, {SIGNAL, BUF, BUF, SMALL}, 0},
    {SYS_rt_sigprocmask, 3, {SMALL, BUF, BUF, SMALL}, 0},
    {SYS_rt_sigpending, 1, {BUF, SMALL}, 0},
    {SYS_rt_sigtimedwait, 1, {BUF, BUF, BUF, SMALL}, 64},
    {SYS_sigaltstack, 1, {BUF, BUF}, 0},
    {SYS_kill, 2, {PID, SIGNAL}, 0},
    {SYS_tkill, 1, {PID, SIGNAL}, 0},
    {SYS_tgkill, 1, {PID, PID, SIGNAL}, 0},
    {SYS_rt_sigsuspend, 1, {BUF, SMALL}, -1},
    {SYS_rt_sigreturn, 1, {ANY}, -1},
    {SYS_getrlimit, 2, {SMALL, BUF}, 0},
    {SYS_setrlimit, 2, {SMALL, BUF}, 0},
    {SYS_gettid, 1, {ANY}, -1},
    {SYS_sysinfo, 1, {BUF}, 0},
    {SYS_munmap, 3, {BUF, LEN}, 0},
    {SYS_mmap, 4, {BUF, LEN, PROT, MFLAGS, FD, INT}, -1},
    {SYS_mprotect, 3, {BUF, LEN, PROT}, 0},
    {SYS_prlimit64, 2, {PID, SMALL, BUF, BUF}, 0},
    {SYS_getrandom, 2, {BUF, LEN, SMALL}, -1},
    /* op, argument, buffer, size: an old mask (<= 0x1f), 0, or records copied (at most
     * a ring's 2^20) */
    {SYS_trace_control, 2, {INT, ANY, BUF, LEN}, 1 << 20},
    {SYS_syslog, 3, {LOGACTION, BUF, LOGLEN}, 512 * 256}, /* SIZE_BUFFER's largest */
    /* names and the working directory (kernel/syscall/sys_fs.c, sys_cwd.c) */
    {SYS_getcwd, 2, {BUF, LEN}, 513}, /* "/" + FILE_PATH_MAX - 1 bytes + NUL */
    {SYS_chdir, 2, {STR}, 0},
    {SYS_fchdir, 2, {FD}, 0},
    {SYS_mkdirat, 2, {FD, STR, INT}, 0},
    {SYS_unlinkat, 2, {FD, STR, SMALL}, 0},
    {SYS_symlinkat, 2, {STR, FD, STR}, 0},
    {SYS_renameat2, 2, {FD, STR, FD, STR, SMALL}, 0},
    {SYS_truncate, 2, {STR, INT}, 0},
    {SYS_ftruncate, 2, {FD, INT}, 0},
    {SYS_faccessat, 2, {FD, STR, SMALL}, 0},
    {SYS_faccessat2, 2, {FD, STR, SMALL, SMALL}, 0},
    {SYS_fchmod, 2, {FD, INT}, 0},
    {SYS_fchmodat, 2, {FD, STR, INT}, 0},
    {SYS_utimensat, 2, {FD, STR, BUF, SMALL}, 0},
    {SYS_getuid, 1, {ANY}, 0},
    {SYS_geteuid, 1, {ANY}, 0},
    {SYS_getgid, 1, {ANY}, 0},
    {SYS_getegid, 1, {ANY}, 0},
    {SYS_getresuid, 2, {BUF, BUF, BUF}, 0},
    {SYS_getresgid, 2, {BUF, BUF, BUF}, 0},
    {SYS_getgroups, 2, {INT, BUF}, 0},
    {SYS_setuid, 1, {INT}, 0},
    {SYS_setgid, 1, {INT}, 0},
    {SYS_prctl, 3, {SMALL, BUF}, 0},
    {SYS_sendfile, 4, {FD, FD, BUF, LEN}, -1}, /* checked against the length asked */
    {SYS_riscv_hwprobe, 3, {BUF, SMALL, LEN, BUF, SMALL}, 0},
    {SYS_clock_settime, 2, {CLOCK, BUF}, 0},
    {SYS_gettimeofday, 2, {BUF, BUF}, 0},
    {SYS_settimeofday, 2, {BUF, BUF}, 0},
    /* SYS_rseq is not here: Duplex answers it ENOSYS, as an unimplemented number. */
};
#define CALL_COUNT (sizeof calls / sizeof calls[0])

static const struct call *implemented(long number)
{
	for (size_t i = 0; i < CALL_COUNT; i++) {
		if (calls[i].number == number)
			return &calls[i];
	}
	return NULL;
}

static const struct call *pick_call(void)
{
	static int total;
	if (!total) {
		for (size_t i = 0; i < CALL_COUNT; i++)
			total += calls[i].weight;
	}
	int r = (int)below((uint64_t)total);
	for (size_t i = 0; i < CALL_COUNT; i++) {
		r -= calls[i].weight;
		if (r < 0)
			return &calls[i];
	}
	return &calls[0];
}

static uint64_t argument(enum kind kind, uint64_t previous)
{
	switch (kind) {
	case FD:
		return any_fd();
	case BUF: {
		uint64_t pointer = any_pointer();
		scramble(pointer);
		return pointer;
	}
	case LEN:
		return any_length(previous);
	case STR:
		return any_string();
	case OFLAGS: {
		static const uint64_t flags[] = {L_O_RDONLY,   L_O_WRONLY,    L_O_RDWR,    3,
		                                 L_O_NONBLOCK, L_O_DIRECTORY, L_O_CLOEXEC, 0100000,
		                                 0400,         01000,         0100};
		uint64_t value = flags[below(3)] | (one_in(2) ? flags[below(11)] : 0);
		return one_in(8) ? any_integer() : value;
	}
	case IOCTL: {
		static const uint64_t requests[] = {L_TCGETS,
		                                    L_TCSETS,
		                                    L_TCSETSW,
		                                    L_TCSETSF,
		                                    L_TCSBRK,
		                                    L_TIOCOUTQ,
		                                    L_FIONREAD,
		                                    L_FIONBIO,
		                                    CONSOLE_IOCTL_TELEMETRY,
		                                    CONSOLE_IOCTL_RESET_TELEMETRY,
#ifdef CONSOLE_IOCTL_INFO
		                                    CONSOLE_IOCTL_INFO,
#endif
		                                    0x100005401ul,
		                                    0x5400,
		                                    0x540a};
		return one_in(8) ? any_integer() : requests[below(sizeof requests / 8)];
	}
	case FCNTL: /* F_DUPFD .. F_GETLK, and F_DUPFD_CLOEXEC */
		return one_in(6) ? any_integer() : one_in(7) ? L_F_DUPFD_CLOEXEC : below(6);
	case CLOCK:
		return one_in(4) ? any_integer() : (uint64_t[]){0, 1, 4, 7, 2, 3, 5, 6}[below(8)];
	case PID:
		return (uint64_t[]){0, (uint64_t)-1, (uint64_t)own_pid, (uint64_t)parent_pid,
		                    1, (uint64_t)-2, any_integer(),     0x80000000ul}[below(8)];
	case INT:
		return any_integer();
	case LOGACTION: /* syslog(2): the actions Duplex has, others, garbage */
		return one_in(4) ? any_integer() : below(12);
	case LOGLEN: /* at most a pool buffer, or negative as an int (EINVAL) */
		return one_in(4) ? (any_integer() | 0x80000000u) : below(POOL_BUFFER_SIZE + 1);
	case IOV:
		return any_iovec(false);
	case IOVCNT:
		return any_iovec_count(false);
	case ARGV:
		return any_argv();
	case BRK: {
		/* The whole 64 MiB only rarely: every page of it is zeroed. */
		static const uint64_t steps[] = {0,
		                                 1,
		                                 4095,
		                                 4096,
		                                 8192,
		                                 65536,
		                                 1ul << 20,
		                                 HEAP_LIMIT + 1,
		                                 (uint64_t)-4096,
		                                 (uint64_t)-1};
		if (one_in(4096))
			return heap_start + HEAP_LIMIT;
		return one_in(4) ? any_integer() : heap_start + steps[below(10)];
	}
	case PROT:
		return one_in(8) ? any_integer() : below(8);
	case MFLAGS: {
		static const uint64_t flags[] = {0x22, 0x21, 0x23, 0x32, 0x100022,
		                                 0x02, 0x01, 0,    0x20};
		return one_in(8) ? any_integer() : flags[below(9)];
	}
	case SIGNAL:
		return one_in(8) ? any_integer() : below(66);
	case SMALL:
		return one_in(8) ? any_integer() : below(17);
	case ANY:
	default:
		switch (below(4)) {
		case 0:
			return any_pointer();
		case 1:
			return any_fd();
		default:
			return any_integer();
		}
	}
}

/* ------------------------------------------------------------------ one child */

struct tally {
	uint64_t calls, ok, errors, bad, skipped, enosys;
	uint64_t crashes;              /* children killed on purpose (bad frames, stacks) */
	uint64_t forks, execs, frames; /* clone, execve and signal-frame children run */
	uint64_t errno_counts[L_MAX_ERRNO + 1];
};

static struct tally tally;
static int slot, generation;
static bool verbose;
static bool in_forked_child; /* a clone child: no clone, execve, frames or exit here */
static char line[512];

/* The console's termios when this child started, put back after every TCSETS*. */
static uint8_t child_settings[64];
static bool have_settings;

static bool is_console(uint64_t fd)
{
	static uint8_t termios[64];
	bool clobbered;
	long args[6] = {(long)fd, L_TCGETS, (long)(uintptr_t)termios, 0, 0, 0};
	return raw_call(SYS_ioctl, args, &clobbered) == 0;
}

static bool is_pipe(uint64_t fd)
{
	static uint64_t status[16]; /* struct stat: st_mode at byte 16 */
	if (syscall2(SYS_fstat, (long)fd, (long)(uintptr_t)status) != 0)
		return false;
	return ((uint32_t)status[2] & 0170000) == 0010000;
}

/* The nonblocking rule: a console fd (or, with `pipes`, a pipe) without O_NONBLOCK gets
 * it now. */
static void make_nonblocking(uint64_t fd, bool pipes)
{
	if (!is_console(fd) && !(pipes && is_pipe(fd)))
		return;
	long flags = syscall3(SYS_fcntl, (long)fd, L_F_GETFL, 0);
	if (flags >= 0 && !(flags & L_O_NONBLOCK))
		syscall3(SYS_fcntl, (long)fd, L_F_SETFL, flags | L_O_NONBLOCK);
}

/* Close every descriptor, reopen the standard set, put the break back. */
static void reset_files_and_heap(void)
{
	for (int fd = 0; fd < MAX_FILES; fd++)
		syscall1(SYS_close, fd);
	static const struct {
		const char *path;
		long flags;
	} standard[] = {{"/dev/console", L_O_RDWR},           {"/dev/console", L_O_RDWR},
	                {"/dev/console", L_O_RDWR},           {"/dev/null", L_O_RDWR},
	                {"/bin", L_O_RDONLY | L_O_DIRECTORY}, {"/etc/motd", L_O_RDONLY}};
	for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++)
		syscall4(SYS_openat, L_AT_FDCWD, (long)(uintptr_t)standard[i].path,
		         standard[i].flags, 0);
	syscall1(SYS_brk, (long)heap_mapped);
}

static void report_bad(uint64_t index, long number, const long args[6], long result,
                       const char *why)
{
	tally.bad++;
	if (tally.bad > MAX_BAD_REPORTS)
		return;
	snprintf(line, sizeof line,
	         "\nFUZZ-BAD slot=%d gen=%d call=%llu nr=%ld args=%#lx,%#lx,%#lx,%#lx,%#lx,%#lx "
	         "result=%ld (%s)\n",
	         slot, generation, (unsigned long long)index, number, args[0], args[1], args[2],
	         args[3], args[4], args[5], result, why);
	say(line);
}

/* Is `result` right for `number` with `args`? Returns NULL, or why not. */
static const char *judge(long number, const long args[6], long result, const struct call *call,
                         uint64_t asked_length)
{
	if (result < 0) {
		if (result < -L_MAX_ERRNO)
			return "not a Linux errno";
		if (!call && result != -L_ENOSYS)
			return "unimplemented number did not give ENOSYS";
		if (call && result == -L_ENOSYS)
			return "implemented call gave ENOSYS";
		return NULL;
	}
	if (!call)
		return "unimplemented number succeeded";
	switch (number) {
	case SYS_getpid:
		return result == own_pid ? NULL : "getpid is not our pid";
	case SYS_getppid:
		return result == parent_pid ? NULL : "getppid is not our parent";
	case SYS_brk:
		return (uint64_t)result >= heap_start && (uint64_t)result <= heap_start + HEAP_LIMIT
		           ? NULL
		           : "break outside the heap";
	case SYS_write:
	case SYS_sendfile:
		return (uint64_t)result <= asked_length ? NULL : "wrote more than asked";
	case SYS_read:
	case SYS_getdents64:
		if ((uint64_t)result > asked_length)
			return "returned more than asked";
		break;
	case SYS_wait4:
		return NULL; /* we have no children here; any pid is fine */
	case SYS_set_tid_address:
	case SYS_gettid:
		return result == own_pid ? NULL : "thread id is not our pid";
	case SYS_getrandom:
		return (uint64_t)result <= (uint64_t)args[1] ? NULL : "returned more than asked";
	case SYS_mmap:
		return !(result & 4095) && (uint64_t)result < USER_SPACE_END
		           ? NULL
		           : "mapping not page-aligned in user space";
	default:
		break;
	}
	(void)args;
	if (call->max_result >= 0 && result > call->max_result)
		return "result too large";
	return NULL;
}

/* Does [start, start + length) touch the child's own memory: its image, heap and brk
 * reserve, or its stack? */
static bool touches_own_memory(uint64_t start, uint64_t length)
{
	uint64_t end = start + length < start ? UINT64_MAX : start + length;
	return start < heap_start + HEAP_LIMIT || (end > STACK_GUARD && start < USER_STACK_TOP);
}

/* The memory rule of the header: keep munmap, mprotect and MAP_FIXED away from our own
 * memory. */
static void keep_off_own_memory(long args[6])
{
	if (!touches_own_memory((uint64_t)args[0], (uint64_t)args[1]))
		return;
	args[0] = (long)SCRATCH;
	if (touches_own_memory(SCRATCH, (uint64_t)args[1]))
		args[1] = 4096;
}

/* ------------------------------------------------------------------ the harts check */

/* The harts the kernel counts as online, as a mask, or -1 if it refused to say. With
 * every hart allowed, sched_getaffinity answers exactly the online ones (the allowed
 * set and the online harts); the caller's own affinity is put back after. */
static long online_harts(void)
{
	uint64_t saved = 0, all = ~0ull, online = 0;
	if (syscall3(SYS_sched_getaffinity, 0, sizeof saved, (long)(uintptr_t)&saved) != 8 ||
	    syscall3(SYS_sched_setaffinity, 0, sizeof all, (long)(uintptr_t)&all) != 0)
		return -1;
	long got = syscall3(SYS_sched_getaffinity, 0, sizeof online, (long)(uintptr_t)&online);
	syscall3(SYS_sched_setaffinity, 0, sizeof saved, (long)(uintptr_t)&saved);
	return got == 8 ? (long)online : -1;
}

/* Every hart of the machine, as a mask (cpu_times counts the harts, online or not). */
static long every_hart(void)
{
	struct duplex_cpu_times times[64];
	long harts = cpu_times(times, 64);
	return harts < 1 ? 1 : harts >= 64 ? -1 /* all 64 */ : (long)((1ull << harts) - 1);
}

/* The calls since the last harts check, to name in a report. */
static struct recent_call {
	uint64_t index_plus_1; /* 0: never used */
	long number;
	long args[6];
} recent[HARTS_CHECK_EVERY];
static long all_harts;
static bool harts_reported;

/* No system call may take a hart out of service: after every HARTS_CHECK_EVERY calls
 * the online mask must still be every hart (a fuzzed call once left hart 1 off it while
 * the hart kept running tasks). A change is reported once, with this child's calls
 * since the last check; the culprit may also be another child's, whose own check
 * reports its window. Called by child(); `index` is the next call's. */
static void check_harts(uint64_t index)
{
	long online = online_harts();
	if (harts_reported || online == all_harts)
		return;
	harts_reported = true;
	tally.bad++;
	uint64_t since = index > HARTS_CHECK_EVERY ? index - HARTS_CHECK_EVERY : 0;
	snprintf(line, sizeof line,
	         "\nFUZZ-BAD slot=%d gen=%d call=%llu harts online %#lx, want %#lx: changed by a "
	         "call before this one (this child's since call %llu follow)\n",
	         slot, generation, (unsigned long long)index, online, all_harts,
	         (unsigned long long)since);
	say(line);
	for (uint64_t i = since; i < index; i++) {
		const struct recent_call *call = &recent[i % HARTS_CHECK_EVERY];
		if (call->index_plus_1 != i + 1)
			continue;
		snprintf(line, sizeof line,
		         "FUZZ-RECENT slot=%d gen=%d call=%llu nr=%ld "
		         "args=%#lx,%#lx,%#lx,%#lx,%#lx,%#lx\n",
		         slot, generation, (unsigned long long)i, call->number, call->args[0],
		         call->args[1], call->args[2], call->args[3], call->args[4], call->args[5]);
		say(line);
	}
}

/* ------------------------------------------------------------------ children of a child */

static void fuzz_one(uint64_t index, uint64_t quota, bool sweep);

/* The wait status of our child `pid`, reaped now; -1 if wait4 did not return it. */
static int reap(long pid)
{
	static int status;
	return syscall4(SYS_wait4, pid, (long)(uintptr_t)&status, 0, 0) == pid ? status : -1;
}

/* Count one special call (clone, execve, a frame case) with its result. */
static void count_call(long result)
{
	tally.calls++;
	if (result >= 0) {
		tally.ok++;
	} else {
		tally.errors++;
		if (result >= -L_MAX_ERRNO)
			tally.errno_counts[-result]++;
	}
}

static char why_text[160]; /* a report's reason, when it needs numbers */

/* A child that had to be killed: by a signal, reported (the kernel's line), counted. */
static void expect_killed(uint64_t index, long number, const long args[6], long pid, int status,
                          const char *what)
{
	if (status != -1 && (status & 0x7f) != 0) {
		tally.crashes++;
		return;
	}
	snprintf(why_text, sizeof why_text, "%s was not killed (wait status %#x)", what, status);
	report_bad(index, number, args, pid, why_text);
}

/* A child that had to exit by itself: not killed, and not with EXIT_BAD. */
static void expect_exited(uint64_t index, long number, const long args[6], long pid, int status,
                          const char *what)
{
	if (status != -1 && (status & 0x7f) == 0 && ((status >> 8) & 0xff) != EXIT_BAD)
		return;
	snprintf(why_text, sizeof why_text, "%s ended with wait status %#x", what, status);
	report_bad(index, number, args, pid, why_text);
}

/* The execve rule's paths (the header): short programs, and every way to fail. */
static uint64_t exec_path(void)
{
	static const char *const paths[] = {
	    "/bin/true",
	    "/bin/false",
	    "/bin/no-such-program",
	    "",
	    "/bin",
	    "/bin/true/x",
	    "/etc/motd",
	    "/etc/fork_garbage",
	    "/etc/fork_loop",
	    "/dev/null",
	    "/dev/console",
	    "/tmp/fuzz-no-interpreter",
	    "/tmp/fuzz-true-script",
	};
	switch (below(8)) {
	case 0:
		return bad_pointers[below(BAD_POINTER_COUNT)];
	case 1:
		return (uint64_t)(uintptr_t)(one_in(2) ? path_256 : long_string);
	default:
		return (uint64_t)(uintptr_t)paths[below(sizeof paths / sizeof paths[0])];
	}
}

static uint64_t exec_environment(void)
{
	static uint64_t huge[2];
	if (!one_in(8))
		return any_argv();
	huge[0] = (uint64_t)(uintptr_t)long_string; /* 8 KiB without a NUL: E2BIG or EFAULT */
	huge[1] = 0;
	return (uint64_t)(uintptr_t)huge;
}

/* vfork, and in the child execve(path, argv, envp) and exit with the errno: registers
 * only, since the child runs on our stack, in our memory, until it execs or exits.
 * Returns the child's pid (or the errno) in the parent. */
static long vfork_execve(uint64_t path, uint64_t argv, uint64_t envp)
{
	register long a0 __asm__("a0") = (long)(L_CLONE_VM | L_CLONE_VFORK | L_SIGCHLD);
	register long a1 __asm__("a1") = 0;
	register long a2 __asm__("a2") = 0;
	register long a3 __asm__("a3") = 0;
	register long a4 __asm__("a4") = 0;
	register long a7 __asm__("a7") = SYS_clone;
	register uint64_t path_register __asm__("t3") = path;
	register uint64_t argv_register __asm__("t4") = argv;
	register uint64_t envp_register __asm__("t5") = envp;
	__asm__ volatile(
	    "ecall\n\t"
	    "bnez a0, 1f\n\t"
	    "mv a0, t3\n\t"
	    "mv a1, t4\n\t"
	    "mv a2, t5\n\t"
	    "li a7, %[execve]\n\t"
	    "ecall\n\t"
	    "neg a0, a0\n\t"
	    "li a7, %[exit_group]\n\t"
	    "ecall\n"
	    "1:"
	    : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a7)
	    : "r"(a3), "r"(a4), "r"(path_register), "r"(argv_register),
	      "r"(envp_register), [execve] "i"(SYS_execve), [exit_group] "i"(SYS_exit_group)
	    : "memory");
	return a0;
}

/* A clone child (fork semantics): FORK_CHILD_CALLS fuzzed calls, then exit (EXIT_BAD if
 * one was bad). Never returns. */
static void __attribute__((noreturn)) forked_child(uint64_t index, uint64_t quota)
{
	in_forked_child = true;
	parent_pid = own_pid;
	own_pid = syscall0(SYS_getpid);
	random_state = random_state * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	if (!random_state)
		random_state = 1;
	uint64_t bad_before = tally.bad;
	for (int i = 0; i < FORK_CHILD_CALLS; i++)
		fuzz_one(index, quota, false);
	syscall1(SYS_exit_group, tally.bad != bad_before ? EXIT_BAD : 0);
	__builtin_unreachable();
}

/* The clone rule of the header. */
static void fuzz_clone(uint64_t index, uint64_t quota)
{
	static const uint64_t unmapped_stacks[] = {0x1000,          0x3000000000ul, STACK_GUARD,
	                                           DIRECT_MAP_BASE, KERNEL_IMAGE,   UART_MMIO};
	long args[6] = {(long)L_SIGCHLD, 0, 0, 0, 0, 0};
	bool kill_expected = false, invalid = false;
	tally.forks++;
	switch (below(8)) {
	case 0:
	case 1:
		break; /* fork() */
	case 2:
		args[0] |= (long)(L_CLONE_CHILD_SETTID | L_CLONE_CHILD_CLEARTID);
		args[3] = one_in(4) ? (long)any_pointer() : (long)(own_pointer() & ~3ul);
		break;
	case 3:
		args[0] |= (long)L_CLONE_PARENT_SETTID;
		args[2] = (long)any_pointer(); /* a bad one is ignored, as Linux does */
		break;
	case 4:
		args[0] |= (long)L_CLONE_SETTLS;
		args[4] = (long)any_integer();
		break;
	case 5:
		args[1] = (long)unmapped_stacks[below(sizeof unmapped_stacks / 8)];
		kill_expected = true;
		break;
	case 6:
		invalid = true;
		switch (below(4)) {
		case 0:
			args[0] = (long)(any_integer() | L_CLONE_THREAD);
			break;
		case 1:
			args[0] = (long)(L_CLONE_VM | L_SIGCHLD);
			break;
		case 2:
			args[0] = (long)(L_CLONE_VFORK | L_SIGCHLD);
			break;
		default:
			args[0] = (long)(65 + below(191)); /* no such exit signal */
			break;
		}
		break;
	default: {
		uint64_t path = exec_path(), argv = any_argv(), envp = exec_environment();
		long pid = vfork_execve(path, argv, envp);
		count_call(pid);
		long shown[6] = {(long)(L_CLONE_VM | L_CLONE_VFORK | L_SIGCHLD),
		                 (long)path,
		                 (long)argv,
		                 (long)envp,
		                 0,
		                 0};
		if (pid > 0)
			expect_exited(index, SYS_clone, shown, pid, reap(pid),
			              "a vfork+execve child");
		else if (pid < -L_MAX_ERRNO || pid == -L_ENOSYS || pid == 0)
			report_bad(index, SYS_clone, shown, pid, "vfork gave no pid and no errno");
		return;
	}
	}
	if (verbose) {
		snprintf(line, sizeof line, "call %llu: clone args=%#lx,%#lx,%#lx,%#lx,%#lx\n",
		         (unsigned long long)index, args[0], args[1], args[2], args[3], args[4]);
		say(line);
	}
	long saved_tp;
	__asm__ volatile("mv %0, tp" : "=r"(saved_tp));
	bool clobbered;
	long pid = raw_call(SYS_clone, args, &clobbered);
	if (pid == 0) {
		__asm__ volatile("mv tp, %0" ::"r"(saved_tp)); /* CLONE_SETTLS: ours back */
		forked_child(index, quota);
	}
	count_call(pid);
	if (clobbered)
		report_bad(index, SYS_clone, args, pid, "an argument register changed");
	else if (invalid && pid != -L_EINVAL)
		report_bad(index, SYS_clone, args, pid, "clone flags Duplex cannot do: not EINVAL");
	else if (pid > 0 && kill_expected)
		expect_killed(index, SYS_clone, args, pid, reap(pid),
		              "a clone child on an unmapped stack");
	else if (pid > 0)
		expect_exited(index, SYS_clone, args, pid, reap(pid), "a forked child");
	else if (pid < -L_MAX_ERRNO || pid == -L_ENOSYS || pid == 0)
		report_bad(index, SYS_clone, args, pid, "clone gave no pid and no errno");
}

/* The execve rule of the header: in a forked child. */
static void fuzz_execve(uint64_t index)
{
	long args[6] = {(long)exec_path(), (long)any_argv(), (long)exec_environment(), 0, 0, 0};
	tally.execs++;
	if (verbose) {
		snprintf(line, sizeof line, "call %llu: execve args=%#lx,%#lx,%#lx\n",
		         (unsigned long long)index, args[0], args[1], args[2]);
		say(line);
	}
	long pid = syscall5(SYS_clone, L_SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		in_forked_child = true;
		bool clobbered;
		long result = raw_call(SYS_execve, args, &clobbered);
		const char *why = clobbered               ? "an argument register changed"
		                  : result >= 0           ? "execve returned, with success"
		                  : result < -L_MAX_ERRNO ? "not a Linux errno"
		                  : result == -L_ENOSYS   ? "implemented call gave ENOSYS"
		                                          : NULL;
		if (why)
			report_bad(index, SYS_execve, args, result, why);
		syscall1(SYS_exit_group, why ? EXIT_BAD : 0);
	}
	count_call(pid);
	if (pid > 0)
		expect_exited(index, SYS_execve, args, pid, reap(pid), "an execve child");
}

/* The rt_sigreturn rule of the header: one broken frame case in a forked child. */
static void fuzz_signal_frame(uint64_t index)
{
	enum frame_fault fault = (enum frame_fault)below(FRAME_FAULT_COUNT);
	uint64_t seed = next_random();
	long args[6] = {(long)fault, (long)seed, 0, 0, 0, 0};
	tally.frames++;
	if (verbose) {
		snprintf(line, sizeof line, "call %llu: signal frame case %d seed %#lx\n",
		         (unsigned long long)index, (int)fault, (long)seed);
		say(line);
	}
	long pid = syscall5(SYS_clone, L_SIGCHLD, 0, 0, 0, 0);
	if (pid == 0)
		frame_fault_run(fault, pool[2], seed);
	count_call(pid);
	if (pid <= 0)
		return;
	int status = reap(pid);
	if (fault == FRAME_BAD_ALTSTACK && status == (FRAME_ALTSTACK_BUSY << 8))
		return; /* an alternate stack of ours was in the way: nothing to judge */
	if (frame_fault_kills(fault))
		expect_killed(index, SYS_rt_sigreturn, args, pid, status, "a broken signal frame");
	else if (status != (FRAME_RETURNED_OK << 8))
		report_bad(index, SYS_rt_sigreturn, args, status,
		           "a frame with every signal blocked did not return with SIGKILL and "
		           "SIGSTOP unblockable");
}

/* Make one call (index `index` of this child), following the rules in the header. */
static void fuzz_one(uint64_t index, uint64_t quota, bool sweep)
{
	long number;
	const struct call *call;
	long args[6];
	/* A forked child draws implemented calls only: it is a new process, and the kernel
	 * would log each unimplemented number it hits once more (kernel/syscall/unknown.c),
	 * which on a 115200-baud console costs more than the calls. */
	bool structured = !sweep && (in_forked_child || !one_in(4));

	if (structured) {
		call = pick_call();
		number = call->number;
		uint64_t previous = 0;
		for (int i = 0; i < 6; i++) {
			previous = argument(call->args[i], previous);
			args[i] = (long)previous;
		}
	} else {
		number = sweep        ? (long)index
		         : one_in(64) ? (long)any_integer()
		                      : (long)below(NUMBERS);
		call = implemented(number);
		for (int i = 0; i < 6; i++)
			args[i] = (long)argument(ANY, 0);
	}

	/* The rules that keep the fuzzer alive and bounded (see the header). */
	uint64_t asked_length = (uint64_t)args[2];
	switch (number) {
	case SYS_exit:
	case SYS_exit_group:
		if (in_forked_child || !one_in(256)) {
			tally.skipped++;
			return;
		}
		snprintf(line, sizeof line,
		         "\nFUZZ-CHILD slot=%d gen=%d calls=%llu ok=%llu errors=%llu bad=%llu "
		         "crashes=%llu skipped=%llu forks=%llu execs=%llu frames=%llu "
		         "exit=deliberate\n",
		         slot, generation, (unsigned long long)tally.calls,
		         (unsigned long long)tally.ok, (unsigned long long)tally.errors,
		         (unsigned long long)tally.bad, (unsigned long long)tally.crashes,
		         (unsigned long long)tally.skipped, (unsigned long long)tally.forks,
		         (unsigned long long)tally.execs, (unsigned long long)tally.frames);
		say(line);
		args[0] = tally.bad ? EXIT_BAD
		                    : EXIT_PROGRESS + (long)(tally.calls * PROGRESS_STEPS / quota);
		break;
	case SYS_read:
	case SYS_readv:
		make_nonblocking((uint64_t)args[0], true);
		break;
	case SYS_ppoll:
		args[2] = (long)sleep_timespec();
		break;
	case SYS_pselect6:
		args[4] = (long)sleep_timespec();
		break;
	case SYS_sendfile: /* out, in, offset, count: the reading and writing rules both */
		make_nonblocking((uint64_t)args[0], true);
		make_nonblocking((uint64_t)args[1], true);
		if (is_console((uint64_t)args[0]) && (uint64_t)args[3] > 16)
			args[3] = (long)((uint64_t)args[3] % 17);
		asked_length = (uint64_t)args[3];
		break;
	case SYS_write:
		make_nonblocking((uint64_t)args[0], true);
		if (is_console((uint64_t)args[0]) && (uint64_t)args[2] > 16)
			args[2] = asked_length = (uint64_t)args[2] % 17;
		break;
	case SYS_writev:
		make_nonblocking((uint64_t)args[0], true);
		if (is_console((uint64_t)args[0])) {
			args[1] = (long)any_iovec(true);
			args[2] = (long)any_iovec_count(true);
		}
		break;
	case SYS_nanosleep:
		args[0] = (long)sleep_timespec();
		break;
	/* Signals: only existence checks are sent (a real one could kill the parent or a
	 * sibling: kill(-1, ...)); a new action is SIG_DFL or SIG_IGN with random flags and
	 * mask, never a random handler that a SIGCHLD would then run; sigtimedwait only
	 * polls; sigsuspend (which waits for a signal nobody sends) and rt_sigreturn (a
	 * random frame kills) are skipped. */
	case SYS_kill:
	case SYS_tkill:
		args[1] = 0;
		break;
	case SYS_tgkill:
		args[2] = 0;
		break;
	case SYS_rt_sigaction:
		if (args[1] && !one_in(8)) {
			static unsigned long action[3];
			action[0] = kept_ignored(args[0]) ? FUZZ_SIG_IGN : below(2);
			action[1] = any_integer();
			action[2] = any_integer();
			args[1] = (long)(uintptr_t)action;
		} else if (args[1]) {
			args[1] = (long)bad_pointers[below(BAD_POINTER_COUNT)];
		}
		break;
	/* The wall clock is not moved: a time set years back or ahead would turn every
	 * child's absolute CLOCK_REALTIME sleep into a wait of years (as on Linux). The calls
	 * still run, with a time they must refuse (a bad pointer: EFAULT). */
	case SYS_clock_settime:
		args[1] = (long)bad_pointers[below(BAD_POINTER_COUNT)];
		break;
	case SYS_settimeofday:
		args[0] = (long)bad_pointers[below(BAD_POINTER_COUNT)];
		break;
	case SYS_rt_sigtimedwait: {
		static const long zero[2];
		args[2] = (long)(uintptr_t)zero;
		break;
	}
	case SYS_rt_sigsuspend:
		tally.skipped++;
		return;
	case SYS_clock_nanosleep:
		args[2] = (long)sleep_timespec();
		break;
	case SYS_munmap:
	case SYS_mprotect:
		keep_off_own_memory(args);
		break;
	case SYS_mmap:
		if (args[3] & (L_MAP_FIXED | L_MAP_FIXED_NOREPLACE))
			keep_off_own_memory(args);
		/* Every page is allocated and zeroed at once: big ones only now and then. */
		if ((uint64_t)args[1] > MMAP_LARGE && !one_in(256))
			args[1] = (long)((uint64_t)args[1] % (MMAP_LARGE + 1));
		break;
	case SYS_clone:
	case SYS_execve:
	case SYS_rt_sigreturn:
		if (in_forked_child || (!sweep && !one_in(FAULT_RARITY))) {
			tally.skipped++;
			return;
		}
		if (number == SYS_clone)
			fuzz_clone(index, quota);
		else if (number == SYS_execve)
			fuzz_execve(index);
		else
			fuzz_signal_frame(index);
		return;
	case SYS_spawn:
		if (!sweep && !one_in(16)) { /* drawn rarely: most draws are skipped */
			tally.skipped++;
			return;
		}
		args[0] = one_in(8) ? (long)any_pointer()
		                    : (long)(uintptr_t)safe_programs[below(SAFE_PROGRAM_COUNT)];
		for (int fd = 0; fd < MAX_FILES; fd++) /* /bin/echo must not block on a pipe */
			if (is_pipe((uint64_t)fd))
				make_nonblocking((uint64_t)fd, true);
		break;
	default:
		break;
	}

	if (verbose) {
		snprintf(line, sizeof line,
		         "call %llu: nr=%ld args=%#lx,%#lx,%#lx,%#lx,%#lx,%#lx\n",
		         (unsigned long long)index, number, args[0], args[1], args[2], args[3],
		         args[4], args[5]);
		say(line);
	}
	struct recent_call *entry = &recent[index % HARTS_CHECK_EVERY];
	entry->index_plus_1 = index + 1;
	entry->number = number;
	memcpy(entry->args, args, sizeof entry->args);
	bool clobbered;
	long result = raw_call(number, args, &clobbered);
	tally.calls++;
	if (result >= 0)
		tally.ok++;
	else {
		tally.errors++;
		if (result >= -L_MAX_ERRNO)
			tally.errno_counts[-result]++;
	}
	if (number == SYS_spawn && result > 0) /* reap it now: no children pile up */
		syscall4(SYS_wait4, result, 0, 0, 0);
	if (number == SYS_mmap && result > 0 && !(result & 4095)) /* nor mappings */
		syscall2(SYS_munmap, result, args[1]);
	if (number == SYS_brk && (uint64_t)result < heap_mapped) /* the pool must stay mapped */
		syscall1(SYS_brk, (long)heap_mapped);
	/* The console's settings are everyone's: a TCSETS* (random OPOST flags such as OLCUC
	 * garble every later line) is undone at once, a TCXONC that stopped output too. */
	if (number == SYS_ioctl && args[1] >= L_TCSETS && args[1] <= L_TCSETSF && have_settings)
		syscall3(SYS_ioctl, args[0], L_TCSETS, (long)(uintptr_t)&child_settings);
	if (number == SYS_ioctl && args[1] == 0x540a) /* TCXONC: TCOON */
		syscall3(SYS_ioctl, args[0], 0x540a, 1);
	const char *why = clobbered ? "an argument register changed"
	                            : judge(number, args, result, call, asked_length);
	if (why)
		report_bad(index, number, args, result, why);
}

static int child(int my_slot, uint64_t seed, uint64_t quota, int hart, int my_generation)
{
	slot = my_slot;
	generation = my_generation;
	random_state = child_seed(seed, slot, generation);
	uint64_t mask = 1ull << hart;
	if (syscall3(SYS_sched_setaffinity, 0, sizeof mask, (long)(uintptr_t)&mask) != 0)
		say("fuzz: could not pin to a hart\n");
	own_pid = syscall0(SYS_getpid);
	parent_pid = syscall0(SYS_getppid);
	/* SIGPIPE ignored, and kept so (rt_sigaction below): a random write to a pipe whose
	 * reader is gone would otherwise end the child, as Linux's pipe_write does. So are
	 * the job-control stops: a child that a random setpgid/setsid put in a background
	 * group would be stopped for good by its next console read or TCSETS (SIGTTIN,
	 * SIGTTOU, as Linux's tty_jobctrl.c does), and nobody sends SIGCONT; ignored, the
	 * read gets EIO and the settings change goes through. */
	static const unsigned long ignore[3] = {FUZZ_SIG_IGN, 0, 0};
	static const int ignored[] = {FUZZ_SIGPIPE, FUZZ_SIGTSTP, FUZZ_SIGTTIN, FUZZ_SIGTTOU};
	for (unsigned i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
		syscall4(SYS_rt_sigaction, ignored[i], (long)(uintptr_t)ignore, 0, 8);
	have_settings = syscall3(SYS_ioctl, 1, L_TCGETS, (long)(uintptr_t)&child_settings) == 0;
	heap_start = (uint64_t)syscall1(SYS_brk, 0);
	pool = (uint8_t(*)[POOL_BUFFER_SIZE])(uintptr_t)((heap_start + 4095) & ~4095ul);
	heap_mapped = (uint64_t)(uintptr_t)pool + POOL_BUFFERS * POOL_BUFFER_SIZE;
	if ((uint64_t)syscall1(SYS_brk, (long)heap_mapped) != heap_mapped) {
		say("fuzz: no memory for the pool\n");
		return 1;
	}
	memset(long_string, 'L', sizeof long_string);
	memset(path_255, 'p', 255);
	memset(path_256, 'q', 256);
	path_255[0] = path_256[0] = '/';
	for (size_t b = 0; b < POOL_BUFFERS; b++) {
		for (size_t i = 0; i < POOL_BUFFER_SIZE; i++)
			pool[b][i] = (uint8_t)next_random();
	}
	reset_files_and_heap();
	all_harts = every_hart();
	check_harts(0); /* a child before this one may have done it */

	bool sweep_first = slot == 0 && generation == 0;
	/* `quota` counts calls made; skipped draws (exit, most spawns) do not count. */
	uint64_t index = 0;
	for (; tally.calls < quota; index++) {
		if (index && index % RESET_INTERVAL == 0)
			reset_files_and_heap();
		if (index && index % PROGRESS_EVERY == 0) {
			snprintf(line, sizeof line, "\nFUZZ-PROGRESS slot=%d gen=%d calls=%llu\n",
			         slot, generation, (unsigned long long)tally.calls);
			say(line);
		}
		fuzz_one(index, quota, sweep_first && index < NUMBERS);
		if ((index + 1) % HARTS_CHECK_EVERY == 0)
			check_harts(index + 1);
	}
	check_harts(index);

	reset_files_and_heap();
	syscall1(SYS_brk, (long)heap_start);
	snprintf(line, sizeof line,
	         "\nFUZZ-CHILD slot=%d gen=%d calls=%llu ok=%llu errors=%llu bad=%llu crashes=%llu "
	         "skipped=%llu forks=%llu execs=%llu frames=%llu efault=%llu einval=%llu "
	         "ebadf=%llu enosys=%llu\n",
	         slot, generation, (unsigned long long)tally.calls, (unsigned long long)tally.ok,
	         (unsigned long long)tally.errors, (unsigned long long)tally.bad,
	         (unsigned long long)tally.crashes, (unsigned long long)tally.skipped,
	         (unsigned long long)tally.forks, (unsigned long long)tally.execs,
	         (unsigned long long)tally.frames, (unsigned long long)tally.errno_counts[14],
	         (unsigned long long)tally.errno_counts[22],
	         (unsigned long long)tally.errno_counts[9],
	         (unsigned long long)tally.errno_counts[L_ENOSYS]);
	say(line);
	return tally.bad ? EXIT_BAD : 0;
}

/* ------------------------------------------------------------------ the parent */

/* The execve rule's two scripts (see the header). */
static const struct {
	const char *path, *text;
} scripts[] = {
    {"/tmp/fuzz-no-interpreter", "#!/no/such/interpreter -x\n"},
    {"/tmp/fuzz-true-script", "#!/bin/true\n"},
};
#define SCRIPT_COUNT (sizeof scripts / sizeof scripts[0])

static void write_scripts(void)
{
	for (size_t i = 0; i < SCRIPT_COUNT; i++) {
		long fd = syscall4(SYS_openat, L_AT_FDCWD, (long)(uintptr_t)scripts[i].path,
		                   L_O_WRONLY | 0100 /* O_CREAT */ | 01000 /* O_TRUNC */, 0755);
		if (fd < 0)
			continue; /* then execve says ENOENT: still a valid answer */
		syscall3(SYS_write, fd, (long)(uintptr_t)scripts[i].text,
		         (long)strlen(scripts[i].text));
		syscall1(SYS_close, fd);
	}
}

static void remove_scripts(void)
{
	for (size_t i = 0; i < SCRIPT_COUNT; i++)
		syscall3(SYS_unlinkat, L_AT_FDCWD, (long)(uintptr_t)scripts[i].path, 0);
}

/* How many descriptors are open (fstat succeeds) among 0..MAX_FILES - 1. */
static int open_descriptors(void)
{
	static uint64_t status[16];
	int open = 0;
	for (int fd = 0; fd < MAX_FILES; fd++)
		open += syscall2(SYS_fstat, fd, (long)(uintptr_t)status) == 0;
	return open;
}

/* sysinfo's free RAM: freeram at byte 40, in pages (Duplex's mem_unit is the page). */
static unsigned long free_pages(void)
{
	static uint64_t info[14];
	syscall1(SYS_sysinfo, (long)(uintptr_t)info);
	return (unsigned long)info[5];
}

struct slot_state {
	long pid;
	uint64_t quota; /* calls this slot still owes */
	uint64_t given; /* the quota its current child was started with */
	int generation;
};

static long start_child(int index, uint64_t seed, struct slot_state *state, long harts,
                        bool verbose_children)
{
	char slot_text[16], seed_text[24], quota_text[24], hart_text[16], generation_text[16];
	snprintf(slot_text, sizeof slot_text, "%d", index);
	snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
	snprintf(quota_text, sizeof quota_text, "%llu", (unsigned long long)state->quota);
	snprintf(hart_text, sizeof hart_text, "%ld", index % harts);
	snprintf(generation_text, sizeof generation_text, "%d", state->generation);
	char *argv[] = {"/bin/fuzz", "-c",      slot_text,       seed_text,
	                quota_text,  hart_text, generation_text, verbose_children ? "1" : "0",
	                NULL};
	char *envp[] = {NULL};
	state->given = state->quota;
	state->pid = spawn("/bin/fuzz", argv, envp);
	return state->pid;
}

int main(int argc, char **argv)
{
	if (argc == 8 && strcmp(argv[1], "-c") == 0) {
		verbose = strcmp(argv[7], "1") == 0;
		return child(atoi(argv[2]), strtoull(argv[3], NULL, 0), strtoull(argv[4], NULL, 0),
		             atoi(argv[5]), atoi(argv[6]));
	}
	bool verbose_children = argc > 1 && strcmp(argv[1], "-v") == 0;
	if (verbose_children) {
		argc--;
		argv++;
	}
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: fuzz [-v] SEED COUNT [CHILDREN]\n");
		return 2;
	}
	uint64_t seed = strtoull(argv[1], NULL, 0);
	uint64_t count = strtoull(argv[2], NULL, 0);
	int children = argc == 4 ? atoi(argv[3]) : DEFAULT_CHILDREN;
	if (children < 1 || children > MAX_CHILDREN) {
		fprintf(stderr, "fuzz: 1..%d children\n", MAX_CHILDREN);
		return 2;
	}
	struct duplex_cpu_times times[64];
	long harts = cpu_times(times, 64);
	if (harts < 1)
		harts = 1;
	struct termios saved;
	bool have_termios = tcgetattr(1, &saved) == 0;

	printf("FUZZ-BEGIN seed=%llu count=%llu children=%d harts=%ld (replay: fuzz %llu %llu "
	       "%d)\n",
	       (unsigned long long)seed, (unsigned long long)count, children, harts,
	       (unsigned long long)seed, (unsigned long long)count, children);
	fflush(stdout);

	write_scripts();
	int descriptors_before = open_descriptors();
	unsigned long pages_before = free_pages();
	struct slot_state slots[MAX_CHILDREN];
	int running = 0, failures = 0, respawns = 0;
	for (int i = 0; i < children; i++) {
		slots[i].quota = count / (uint64_t)children + (i < (int)(count % children) ? 1 : 0);
		slots[i].generation = 0;
		if (start_child(i, seed, &slots[i], harts, verbose_children) > 0)
			running++;
		else
			failures++;
	}
	while (running > 0) {
		int status;
		pid_t pid = wait4(-1, &status, 0, NULL);
		if (pid <= 0)
			break;
		int i = 0;
		while (i < children && slots[i].pid != pid)
			i++;
		if (i == children)
			continue; /* not one of ours */
		running--;
		slots[i].pid = 0;
		bool exited = WIFEXITED(status);
		int code = exited ? WEXITSTATUS(status) : -1;
		if (exited && code >= EXIT_PROGRESS && code < EXIT_PROGRESS + PROGRESS_STEPS &&
		    (uint64_t)respawns < count) {
			/* A deliberate exit: carry on where it stopped (rounded down). */
			uint64_t done =
			    (uint64_t)(code - EXIT_PROGRESS) * slots[i].given / PROGRESS_STEPS;
			slots[i].quota = slots[i].given - done;
			slots[i].generation++;
			respawns++;
			if (start_child(i, seed, &slots[i], harts, verbose_children) > 0)
				running++;
			else
				failures++;
			continue;
		}
		if (!exited || code != 0) {
			failures++;
			printf("FUZZ-FAILED slot=%d gen=%d %s %d\n", i, slots[i].generation,
			       exited ? "exit" : "signal", exited ? code : WTERMSIG(status));
			fflush(stdout);
		}
	}
	if (have_termios)
		tcsetattr(1, TCSANOW, &saved);
	printf("\nFUZZ-RESOURCES descriptors=%d,%d free_pages=%lu,%lu\n", descriptors_before,
	       open_descriptors(), pages_before, free_pages());
	remove_scripts();
	/* The invariant the children check, once more now that all of them are done. */
	long online = online_harts(), all = every_hart();
	if (online != all) {
		printf("\nFUZZ-BAD parent: harts online %#lx, want %#lx\n", online, all);
		failures++;
	}
	printf("\nFUZZ-DONE seed=%llu calls=%llu children=%d respawns=%d failures=%d\n",
	       (unsigned long long)seed, (unsigned long long)count, children, respawns, failures);
	return failures ? 1 : 0;
}
