/* crash WHAT: do one forbidden thing, to show that the kernel kills only this program.
 *
 * Each variant should end with the kernel's one-line report and a kill status for the
 * parent (SIGSEGV for bad memory accesses, SIGILL for privileged or illegal
 * instructions, SIGBUS for a misaligned atomic, SIGTRAP for ebreak). If the program is still alive
 * afterwards, it prints "crash: survived" and exits 1.
 *
 * `other` reads another program's memory: it starts `crash -secret` (a child that puts
 * a secret in a static buffer and on a heap page and says where), then looks at the
 * same addresses in its own address space. */
#include <duplex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* Where the kernel image is mapped (kernel/mm/layout.h KERNEL_VIRT_BASE): valid in the
 * kernel's page table, but not user-accessible. */
#define KERNEL_ADDRESS 0xffffffffc0200000UL
/* QEMU virt's UART: a device address user space has no mapping for. */
#define UART_ADDRESS 0x10000000UL
/* QEMU virt's PLIC, hart 0 S-mode claim register: reading it would steal an interrupt. */
#define PLIC_CLAIM_ADDRESS 0x0c201004UL
/* The kernel's direct map of RAM (kernel/mm/layout.h DIRECT_MAP_BASE + 0x80000000):
 * every physical page, other programs' included, is there for the kernel only. */
#define DIRECT_MAP_RAM 0xffffffc080000000UL
/* `other`: how far above the end of the program the child puts its secret. */
#define SECRET_OFFSET (1UL << 20)

/* Reads go here so the compiler cannot drop them. */
static volatile long sink;
/* The stack variant recurses until this depth, i.e. forever. */
static volatile long stop_depth = -1;

/* Load from address 0 (page 0 is never mapped). */
static void crash_null(void)
{
	volatile long *volatile address = NULL;
	sink = *address;
}

/* Load from the kernel's own memory. */
static void crash_kernel_read(void)
{
	volatile long *volatile address = (volatile long *)KERNEL_ADDRESS;
	sink = *address;
}

/* Store into the kernel's own memory. */
static void crash_kernel_write(void)
{
	volatile long *volatile address = (volatile long *)KERNEL_ADDRESS;
	*address = 0;
}

/* Jump into the kernel's code. */
static void crash_kernel_jump(void)
{
	void (*volatile function)(void) = (void (*)(void))KERNEL_ADDRESS;
	function();
}

/* Write a byte straight to the UART, bypassing the kernel. */
static void crash_mmio(void)
{
	volatile uint8_t *volatile uart = (volatile uint8_t *)UART_ADDRESS;
	*uart = '!';
}

/* An encoding that is no instruction at all. */
static void crash_illegal(void)
{
	__asm__ volatile("unimp");
}

/* Read a supervisor CSR (sstatus): U-mode may read only time, cycle and instret. */
static void crash_csr(void)
{
	long value;
	/* -march has no Zicsr (picolibc's multilib needs that), so enable it just here. */
	__asm__ volatile(".option push\n.option arch, +zicsr\ncsrr %0, sstatus\n.option pop"
	                 : "=r"(value));
	sink = value;
}

/* Write a supervisor CSR (satp, the page-table root): privileged. */
static void crash_csr_write(void)
{
	__asm__ volatile(".option push\n.option arch, +zicsr\ncsrw satp, zero\n.option pop");
}

/* Flush the TLB: a supervisor instruction. */
static void crash_sfence(void)
{
	__asm__ volatile("sfence.vma");
}

/* Return from a machine trap: privileged. */
static void crash_mret(void)
{
	__asm__ volatile("mret");
}

/* Load from the interrupt controller's claim register. */
static void crash_mmio_read(void)
{
	volatile uint32_t *volatile claim = (volatile uint32_t *)PLIC_CLAIM_ADDRESS;
	sink = *claim;
}

/* Load from the kernel's direct map of RAM. */
static void crash_direct_map(void)
{
	volatile long *volatile address = (volatile long *)DIRECT_MAP_RAM;
	sink = *address;
}

/* Jump into data: a writable page is never executable. */
static void crash_exec_data(void)
{
	static uint32_t code[4] = {0x00008067, 0x00008067}; /* ret; ret */
	void (*volatile function)(void) = (void (*)(void))(uintptr_t)code;
	function();
}

extern char _end[];

/* Where `other`'s child puts its secret: its heap, well above the end of the program. */
static uintptr_t secret_address(void)
{
	return (((uintptr_t)_end + 4095) & ~4095UL) + SECRET_OFFSET;
}

/* The secret the child also keeps in this buffer, at the same address in both. */
static char secret_buffer[64];

/* `crash -secret`: the child of `other`. Puts a secret in its static buffer and on a
 * heap page at secret_address(), says where, then stays alive until its parent is
 * gone (the parent is killed trying to read it). */
static int keep_secret(void)
{
	pid_t parent = getppid();
	uintptr_t heap_page = secret_address();
	if (brk((void *)(heap_page + 4096)) != 0) {
		puts("crash: -secret: brk failed");
		return 1;
	}
	snprintf(secret_buffer, sizeof secret_buffer, "SECRET-%d", getpid());
	strcpy((char *)heap_page, secret_buffer);
	printf("crash: secret \"%s\" at %p (static) and %#lx (heap)\n", secret_buffer,
	       (void *)secret_buffer, (unsigned long)heap_page);
	fflush(stdout);
	const struct timespec pause = {0, 10 * 1000 * 1000};
	while (getppid() == parent)
		nanosleep(&pause, NULL);
	return 0;
}

/* Console writes so far (every write() counts one or more): how the parent knows the
 * child has printed, i.e. has placed its secret, without any other way to talk. */
static uint64_t console_writes(void)
{
	struct console_telemetry counters;
	return ioctl(1, CONSOLE_IOCTL_TELEMETRY, &counters) == 0 ? counters.write_calls : 0;
}

/* Read another program's memory: start a child that keeps a secret, wait until it has
 * said where, look at the same addresses here. Address spaces are separate: the static
 * buffer is our own (empty) copy, and the heap page is not mapped here at all. */
static void crash_other(void)
{
	uint64_t before = console_writes();
	char *child[] = {"crash", "-secret", NULL};
	char *env[] = {NULL};
	if (spawn("/bin/crash", child, env) < 0) {
		puts("crash: other: spawn failed");
		exit(1);
	}
	const struct timespec pause = {0, 1000 * 1000};
	while (console_writes() == before)
		nanosleep(&pause, NULL);
	printf("crash: other: %p here holds \"%s\"\n", (void *)secret_buffer, secret_buffer);
	printf("crash: other: reading %#lx\n", (unsigned long)secret_address());
	fflush(stdout);
	volatile char *volatile heap_page = (volatile char *)secret_address();
	printf("crash: other: read \"%c\"\n", heap_page[0]);
}

/* Return from a supervisor trap: privileged. */
static void crash_sret(void)
{
	__asm__ volatile("sret");
}

/* Wait for an interrupt: privileged in U-mode when S-mode exists (QEMU enforces it; a
 * real core may just complete it, and then this variant survives). */
static void crash_wfi(void)
{
	__asm__ volatile("wfi");
}

/* Recurse with 1 KiB frames until the stack runs into the guard page below it. */
static long recurse(long depth)
{
	volatile char frame[1024];

	frame[0] = (char)depth;
	if (depth == stop_depth)
		return 0;
	return recurse(depth + 1) + frame[0];
}

static void crash_stack(void)
{
	sink = recurse(0);
}

/* Store into this program's own code, which is mapped read + execute only. */
static void crash_write_text(void)
{
	volatile uint32_t *volatile code = (volatile uint32_t *)(uintptr_t)crash_write_text;
	*code = 0;
}

/* An atomic add on an address that is not 4-byte aligned: atomics must be aligned, and
 * the kernel does not emulate them. */
static void crash_misaligned(void)
{
	static uint32_t words[2];
	uintptr_t address = (uintptr_t)words + 1;
	long old;

	__asm__ volatile("amoadd.w %0, %2, (%1)" : "=r"(old) : "r"(address), "r"(1L) : "memory");
	sink = old;
}

/* A breakpoint, as a debugger would plant: SIGTRAP. */
static void crash_ebreak(void)
{
	__asm__ volatile("ebreak");
}

static const struct {
	const char *name;
	void (*run)(void);
} variants[] = {
    {"null", crash_null},
    {"kernel-read", crash_kernel_read},
    {"kernel-write", crash_kernel_write},
    {"kernel-jump", crash_kernel_jump},
    {"mmio", crash_mmio},
    {"illegal", crash_illegal},
    {"csr", crash_csr},
    {"sret", crash_sret},
    {"wfi", crash_wfi},
    {"stack", crash_stack},
    {"write-text", crash_write_text},
    {"misaligned", crash_misaligned},
    {"ebreak", crash_ebreak},
    {"csr-write", crash_csr_write},
    {"sfence", crash_sfence},
    {"mret", crash_mret},
    {"mmio-read", crash_mmio_read},
    {"direct-map", crash_direct_map},
    {"exec-data", crash_exec_data},
    {"other", crash_other},
};

#define VARIANT_COUNT (sizeof(variants) / sizeof(variants[0]))

/* Print which variant runs (flushed: a crash loses buffered output), run it. */
int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "-secret") == 0)
		return keep_secret();
	for (unsigned i = 0; argc == 2 && i < VARIANT_COUNT; i++) {
		if (strcmp(argv[1], variants[i].name) == 0) {
			printf("crash: %s\n", variants[i].name);
			fflush(stdout);
			variants[i].run();
			puts("crash: survived");
			return 1;
		}
	}
	fputs("usage: crash", stderr);
	for (unsigned i = 0; i < VARIANT_COUNT; i++)
		fprintf(stderr, "%c%s", i == 0 ? ' ' : '|', variants[i].name);
	fputc('\n', stderr);
	return 2;
}
