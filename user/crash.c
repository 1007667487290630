/* crash WHAT: do one forbidden thing, to show that the kernel kills only this program.
 *
 * Each variant should end with the kernel's one-line report and a kill status for the
 * parent (SIGSEGV for bad memory accesses, SIGILL for privileged or illegal
 * instructions, SIGBUS for a misaligned atomic). If the program is still alive
 * afterwards, it prints "crash: survived" and exits 1. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Where the kernel image is mapped (kernel/mm/layout.h KERNEL_VIRT_BASE): valid in the
 * kernel's page table, but not user-accessible. */
#define KERNEL_ADDRESS 0xffffffffc0200000UL
/* QEMU virt's UART: a device address user space has no mapping for. */
#define UART_ADDRESS 0x10000000UL

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
};

#define VARIANT_COUNT (sizeof(variants) / sizeof(variants[0]))

/* Print which variant runs (flushed: a crash loses buffered output), run it. */
int main(int argc, char **argv)
{
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
