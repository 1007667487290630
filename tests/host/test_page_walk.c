/* Host test of the memory attributes the kernel's page tables carry, built by the code
 * the board runs (kernel/mm/page_table.c with kernel/mm/memattr.c) over the D1's real
 * device trees, then walked leaf by leaf: every leaf over RAM must carry exactly the
 * normal-memory bits and every leaf over device registers exactly the device bits, under
 * each scheme (T-Head MAEE on, Svpbmt, none). A device page mapped cacheable or a RAM page
 * strongly ordered would break the board silently (the C906 with MAEE on: uncached RAM
 * makes atomics fail): QEMU's C906 reads MAEE as off, so nothing else executes this.
 *
 * Expected bits: T-Head C906 user manual (MAEE), Linux arch/riscv/include/asm/
 * pgtable-64.h (_PAGE_PMA_THEAD, _PAGE_IO_THEAD, _PAGE_IO_SVPBMT); the privileged spec
 * 1.12 (Sv39 PTE, Svpbmt). Page-table pages come from the host heap: the kernel's
 * physical/virtual arithmetic (page.h) wraps modulo 2^64, so a host pointer survives the
 * round trip through a PTE. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dtb_file.h"
#include "driver_probes.h"
#include "kernel/fdt/platform.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/memattr.h"
#include "kernel/mm/page.h"
#include "kernel/mm/page_table.h"

#define D1_DTB     "build/host/boards/lichee-rv-d1.dtb"
#define VENDOR_DTB "build/host/fixtures/d1-vendor.dtb" /* tests/fixtures/d1-vendor.dts */
/* Bits 63..54 of an Sv39 PTE: attributes (T-Head, Svpbmt) or reserved-zero. */
#define HIGH_BITS 0xffc0000000000000ull

/* page.h's allocator, for page_table.c: zeroed 4 KiB pages from the host heap, all kept
 * until the test ends (counted, to free them). */
#define MAX_TABLE_PAGES 256
static void *table_pages[MAX_TABLE_PAGES];
static int table_page_count;

void *page_alloc_pages(uint64_t count)
{
	if (count != 1 || table_page_count == MAX_TABLE_PAGES)
		return NULL;
	void *page = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (page)
		memset(page, 0, PAGE_SIZE);
	return table_pages[table_page_count++] = page;
}

void panic(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	fprintf(stderr, "panic: ");
	vfprintf(stderr, fmt, args);
	va_end(args);
	fprintf(stderr, "\n");
	abort();
}

static void free_table_pages(void)
{
	while (table_page_count > 0)
		free(table_pages[--table_page_count]);
}

/* What the walk found. */
struct leaf_census {
	int ram_leaves, device_leaves, straddling, wrong_bits;
	uint64_t ram_direct_bytes; /* RAM bytes mapped in the direct map */
	uint64_t image_bytes;      /* bytes mapped at KERNEL_VIRT_BASE and above */
	int user_leaves;
	uint64_t first_wrong_pte, first_wrong_virtual;
};

static bool inside_ram(const struct platform *platform, uint64_t start, uint64_t end)
{
	for (int i = 0; i < platform->memory_count; i++) {
		const struct mem_range *ram = &platform->memory[i];
		if (start >= ram->base && end <= ram->base + ram->size)
			return true;
	}
	return false;
}

static bool touches_ram(const struct platform *platform, uint64_t start, uint64_t end)
{
	for (int i = 0; i < platform->memory_count; i++) {
		const struct mem_range *ram = &platform->memory[i];
		if (start < ram->base + ram->size && end > ram->base)
			return true;
	}
	return false;
}

static void walk(const uint64_t *table, int level, uint64_t virtual_base,
                 const struct platform *platform, enum memattr_scheme scheme,
                 struct leaf_census *census)
{
	for (int i = 0; i < 512; i++) {
		uint64_t pte = table[i];
		if (!(pte & PTE_V))
			continue;
		uint64_t virtual = virtual_base + ((uint64_t)i << (12 + 9 * level));
		if (level == 2 && i >= 256)
			virtual |= 0xffffff8000000000ull; /* Sv39: bits 63..39 copy bit 38 */
		if (!(pte & (PTE_R | PTE_W | PTE_X))) {
			CHECK(level > 0);              /* a pointer at level 0 is malformed */
			CHECK((pte & HIGH_BITS) == 0); /* non-leaf: attribute bits reserved */
			if (level > 0)
				walk(physical_to_virtual(pte_physical(pte)), level - 1, virtual,
				     platform, scheme, census);
			continue;
		}
		uint64_t size = 1ull << (12 + 9 * level);
		uint64_t physical = pte_physical(pte);
		bool ram = inside_ram(platform, physical, physical + size);
		if (!ram && touches_ram(platform, physical, physical + size)) {
			census->straddling++;
			continue;
		}
		uint64_t expected = memattr_encode(ram ? MEMORY_NORMAL : MEMORY_DEVICE, scheme);
		if ((pte & HIGH_BITS) != expected || (!ram && (pte & PTE_X))) {
			if (!census->wrong_bits++) {
				census->first_wrong_pte = pte;
				census->first_wrong_virtual = virtual;
			}
		}
		census->user_leaves += (pte & PTE_U) != 0;
		if (ram) {
			census->ram_leaves++;
			if (virtual >= KERNEL_VIRT_BASE)
				census->image_bytes += size;
			else
				census->ram_direct_bytes += size;
		} else {
			census->device_leaves++;
		}
	}
}

/* The kernel's table for this tree under `scheme`, as vm_init and the drivers'
 * vm_map_device calls build it, walked. */
static void build_and_walk(const char *dtb_path, enum memattr_scheme scheme,
                           struct leaf_census *census)
{
	void *blob = dtb_load(dtb_path);
	struct platform platform;
	const char *error = NULL;
	CHECK(platform_from_fdt(&platform, blob, &error) == 0);
	struct bound_devices bound;
	bind_devices(&platform, &bound);

	memattr_set_scheme(scheme);
	uint64_t *root = page_alloc_pages(1);
	/* The D1 image as booti places it: 0x40200000, text, rodata and data/bss ending
	 * off any 2 MiB boundary (7.6 MiB in all, the size issue #40 measured), so every
	 * leaf size occurs. */
	const struct kernel_image image = {KERNEL_VIRT_BASE, KERNEL_VIRT_BASE + 0x123000,
	                                   KERNEL_VIRT_BASE + 0x1a7000, KERNEL_VIRT_BASE + 0x799000,
	                                   0x40200000};
	page_table_map_kernel(root, &image, &platform);
	/* Every device the drivers map on this board: the console UART, the PLIC, the
	 * timer block, the watchdogs (the probes' register spans; a page where they map
	 * one). */
	CHECK(bound.uart_driver && bound.irqchip_driver && bound.timer_driver);
	page_table_map_device(root, bound.uart.base, bound.uart.size);
	page_table_map_device(root, bound.plic.base, bound.plic.size);
	page_table_map_device(root, bound.timer.base, bound.timer.size ? bound.timer.size : 0x100);
	for (int i = 0; i < bound.watchdogs; i++)
		page_table_map_device(root, bound.watchdog_bases[i], PAGE_SIZE);

	memset(census, 0, sizeof *census);
	walk(root, 2, 0, &platform, scheme, census);
	/* All RAM in the direct map, the whole image at its link address. */
	uint64_t ram_bytes = 0;
	for (int i = 0; i < platform.memory_count; i++)
		ram_bytes += platform.memory[i].size;
	CHECK_EQ_U64(census->ram_direct_bytes, ram_bytes);
	CHECK_EQ_U64(census->image_bytes, 0x799000);
	CHECK_EQ_U64(census->straddling, 0);
	CHECK_EQ_U64(census->user_leaves, 0);
	if (census->wrong_bits)
		fprintf(stderr, "%s: %d leaves with the wrong bits, first %#llx at %#llx\n",
		        dtb_path, census->wrong_bits, (unsigned long long)census->first_wrong_pte,
		        (unsigned long long)census->first_wrong_virtual);
	CHECK_EQ_U64(census->wrong_bits, 0);
	CHECK(census->ram_leaves > 0 && census->device_leaves > 0);
	memattr_set_scheme(MEMATTR_PMA_ONLY);
	free_table_pages();
	free(blob);
}

static void test_d1_tree_with_maee_on(void)
{
	struct leaf_census census;
	build_and_walk(D1_DTB, MEMATTR_THEAD_MAEE, &census);
	/* UART0, the PLIC's 64 MiB (32 megapages), the timer block, the watchdog at
	 * 0x06011000: 1 + 32 + 1 + 1 leaves. */
	CHECK_EQ_U64(census.device_leaves, 35);
}

static void test_vendor_tree_with_maee_on(void)
{
	struct leaf_census census;
	build_and_walk(VENDOR_DTB, MEMATTR_THEAD_MAEE, &census);
}

static void test_d1_tree_with_svpbmt(void)
{
	struct leaf_census census;
	build_and_walk(D1_DTB, MEMATTR_SVPBMT, &census);
	CHECK_EQ_U64(census.device_leaves, 35);
}

static void test_d1_tree_without_attributes(void)
{
	struct leaf_census census;
	build_and_walk(D1_DTB, MEMATTR_PMA_ONLY, &census);
}

/* The walk itself catches what it is for: a RAM page given the device bits, and a
 * device page given RAM's, are each counted once. */
static void test_the_walk_sees_a_wrong_leaf(void)
{
	void *blob = dtb_load(D1_DTB);
	struct platform platform;
	const char *error = NULL;
	CHECK(platform_from_fdt(&platform, blob, &error) == 0);
	uint64_t *root = page_alloc_pages(1);
	const uint64_t rw = PTE_V | PTE_R | PTE_W | PTE_A | PTE_D | PTE_G;
	page_table_map_range(root, DIRECT_MAP_BASE + 0x40000000, 0x40000000, PAGE_SIZE,
	                     rw | THEAD_PTE_DEVICE);
	page_table_map_range(root, DIRECT_MAP_BASE + 0x02500000, 0x02500000, PAGE_SIZE,
	                     rw | THEAD_PTE_NORMAL);
	page_table_map_range(root, DIRECT_MAP_BASE + 0x40001000, 0x40001000, PAGE_SIZE,
	                     rw | THEAD_PTE_NORMAL);
	struct leaf_census census = {0};
	walk(root, 2, 0, &platform, MEMATTR_THEAD_MAEE, &census);
	CHECK_EQ_U64(census.wrong_bits, 2);
	CHECK_EQ_U64(census.ram_leaves, 2);
	CHECK_EQ_U64(census.device_leaves, 1);
	free_table_pages();
	free(blob);
}

int main(void)
{
	RUN(test_d1_tree_with_maee_on);
	RUN(test_vendor_tree_with_maee_on);
	RUN(test_d1_tree_with_svpbmt);
	RUN(test_d1_tree_without_attributes);
	RUN(test_the_walk_sees_a_wrong_leaf);
	return check_summary();
}
