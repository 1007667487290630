/* Host unit tests for the memory-attribute bits (kernel/mm/memattr.c): what a leaf PTE
 * carries for RAM and for device registers, with the T-Head C906's MAEE on and off.
 * Expected values: the T-Head C906 user manual (MAEE) and Linux's
 * _PAGE_PMA_THEAD / _PAGE_IO_THEAD (arch/riscv/include/asm/pgtable-64.h). */
#include <string.h>

#include "check.h"
#include "kernel/mm/memattr.h"

/* Bits 63..54 of an Sv39 PTE: reserved on standard harts (must be zero). */
#define SV39_RESERVED_HIGH_BITS 0xffc0000000000000ull

static void test_standard_harts_get_no_bits(void)
{
	CHECK_EQ_U64(memattr_encode(MEMORY_NORMAL, MEMATTR_PMA_ONLY), 0);
	CHECK_EQ_U64(memattr_encode(MEMORY_DEVICE, MEMATTR_PMA_ONLY), 0);
}

static void test_thead_maee_bits(void)
{
	/* Normal memory: cacheable (62), bufferable (61), shareable (60). */
	CHECK_EQ_U64(memattr_encode(MEMORY_NORMAL, MEMATTR_THEAD_MAEE), 0x7000000000000000ull);
	/* Devices: strongly ordered (63), shareable (60). */
	CHECK_EQ_U64(memattr_encode(MEMORY_DEVICE, MEMATTR_THEAD_MAEE), 0x9000000000000000ull);
	/* The named constants entry.S uses are the same values. */
	CHECK_EQ_U64(THEAD_PTE_NORMAL, (1ull << 62) | (1ull << 61) | (1ull << 60));
	CHECK_EQ_U64(THEAD_PTE_DEVICE, (1ull << 63) | (1ull << 60));
	/* Only the T-Head attribute field (63..59) is touched, never the PPN or flags, and
	 * bit 59 (Sec) stays clear as in Linux. */
	for (int kind = MEMORY_NORMAL; kind <= MEMORY_DEVICE; kind++) {
		uint64_t bits = memattr_encode((enum memory_kind)kind, MEMATTR_THEAD_MAEE);
		CHECK((bits & ~0xf800000000000000ull) == 0);
		CHECK((bits & (1ull << 59)) == 0);
		CHECK((bits & SV39_RESERVED_HIGH_BITS) == bits);
	}
	/* th.sxstatus: CSR 0x5c0, MAEE is bit 21. */
	CHECK_EQ_U64(CSR_THEAD_SXSTATUS, 0x5c0);
	CHECK_EQ_U64(THEAD_SXSTATUS_MAEE, 0x200000);
}

/* memattr_pte_bits() follows what memattr_init() (here: the test) decided. */
static void test_pte_bits_follow_the_decision(void)
{
	memattr_set_scheme(MEMATTR_PMA_ONLY);
	CHECK(memattr_scheme() == MEMATTR_PMA_ONLY);
	CHECK_EQ_U64(memattr_pte_bits(MEMORY_NORMAL), 0);
	CHECK_EQ_U64(memattr_pte_bits(MEMORY_DEVICE), 0);

	memattr_set_scheme(MEMATTR_THEAD_MAEE);
	CHECK(memattr_scheme() == MEMATTR_THEAD_MAEE);
	CHECK_EQ_U64(memattr_pte_bits(MEMORY_NORMAL), THEAD_PTE_NORMAL);
	CHECK_EQ_U64(memattr_pte_bits(MEMORY_DEVICE), THEAD_PTE_DEVICE);

	/* A whole kernel RW leaf as vm.c builds it for RAM at 0x40200000 on the D1. */
	uint64_t pte = ((0x40200000ull >> 12) << PTE_PPN_SHIFT) | PTE_V | PTE_R | PTE_W | PTE_G |
	               PTE_A | PTE_D | memattr_pte_bits(MEMORY_NORMAL);
	CHECK_EQ_U64(pte, 0x70000000100800e7ull);
	/* ... and its address read back without the attribute bits (a plain shift would
	 * turn bits 61..60 into address bits 63..62). */
	CHECK_EQ_U64(pte_physical(pte), 0x40200000);
	CHECK_EQ_U64(pte_physical(pte | THEAD_PTE_DEVICE), 0x40200000);
	CHECK_EQ_U64(pte_physical(0x3ffffffffffffc00ull), 0xfffffffffff000ull); /* 56-bit PA */
	memattr_set_scheme(MEMATTR_PMA_ONLY);
}

/* Svpbmt: RAM keeps PBMT 0 (its PMAs), devices get IO (2 in bits 62..61), nothing else. */
static void test_svpbmt_bits(void)
{
	CHECK_EQ_U64(memattr_encode(MEMORY_NORMAL, MEMATTR_SVPBMT), 0);
	CHECK_EQ_U64(memattr_encode(MEMORY_DEVICE, MEMATTR_SVPBMT), 0x4000000000000000ull);
	CHECK_EQ_U64(SVPBMT_PTE_IO, 2ull << 61);
}

int main(void)
{
	RUN(test_standard_harts_get_no_bits);
	RUN(test_thead_maee_bits);
	RUN(test_pte_bits_follow_the_decision);
	RUN(test_svpbmt_bits);
	return check_summary();
}
