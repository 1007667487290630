/* Page-table entry bits, and the one place that decides the memory attributes of
 * normal memory and of device registers.
 *
 * Sv39 PTE bits: RISC-V privileged spec 1.12, section 4.4.1. On standard harts (QEMU)
 * attributes come from the platform's PMAs, so both kinds carry no extra bits: bits
 * 63..54 are reserved there and must be zero, or the walk page-faults.
 *
 * The T-Head C906 of the Allwinner D1 (and the C910) is different when its MAEE bit
 * (mxstatus bit 21, which both D1 bootloaders set) is on: PTE bits 63..59 are then its
 * own memory attributes, and a RAM mapping without "cacheable, bufferable, shareable" is
 * uncached memory on which atomics fail, so spinlocks hang
 * (T-Head C906 user manual, MAEE; Linux arch/riscv/include/asm/
 * pgtable-64.h _PAGE_PMA_THEAD / _PAGE_IO_THEAD, arch/riscv/errata/thead/errata.c).
 *
 * vm.c and address_space.c ask memattr_pte_bits() for these bits; memattr.c is the one
 * place that maps a kind of memory to them. The T-Head values are plain macros so that
 * kernel/boot/entry.S, whose boot page table is built before any C runs, uses the very
 * same ones. */
#ifndef DUPLEX_MM_MEMATTR_H
#define DUPLEX_MM_MEMATTR_H

#ifdef __ASSEMBLY__
#define MEMATTR_BIT(n) (1 << (n))
#else
#define MEMATTR_BIT(n) (1ull << (n))
#endif

/* T-Head extended PTE attribute bits, meaningful only with MAEE on [Linux pgtable-64.h;
 * T-Head XuanTie C906 user manual, "MMU" / "page attributes"]. Bit 59 (Sec, trustable)
 * is left clear, as Linux leaves it. */
#define THEAD_PTE_STRONG_ORDER MEMATTR_BIT(63) /* SO: accesses in program order, no merging */
#define THEAD_PTE_CACHEABLE    MEMATTR_BIT(62) /* C */
#define THEAD_PTE_BUFFERABLE   MEMATTR_BIT(61) /* B */
#define THEAD_PTE_SHAREABLE    MEMATTR_BIT(60) /* SH */
/* RAM: cacheable, bufferable, shareable (Linux _PAGE_PMA_THEAD). */
#define THEAD_PTE_NORMAL (THEAD_PTE_CACHEABLE | THEAD_PTE_BUFFERABLE | THEAD_PTE_SHAREABLE)
/* Device registers: strongly ordered, shareable (Linux _PAGE_IO_THEAD). */
#define THEAD_PTE_DEVICE (THEAD_PTE_STRONG_ORDER | THEAD_PTE_SHAREABLE)

/* Svpbmt (RISC-V privileged spec 1.12, chapter "Svpbmt"): PTE bits 62..61 are PBMT,
 * 0 = the physical address's PMAs, 1 = NC (non-cacheable), 2 = IO (non-cacheable,
 * strongly ordered I/O). RAM keeps 0, device registers get IO (Linux
 * arch/riscv/include/asm/pgtable-64.h _PAGE_IO_SVPBMT). Standard harts without it must
 * keep bits 63..54 zero. */
#define SVPBMT_PTE_IO MEMATTR_BIT(62)

/* th.sxstatus, the S-mode view of mxstatus, and its MAEE bit [Linux
 * arch/riscv/include/asm/vendorid_list.h and errata/thead/errata.c: CSR_TH_SXSTATUS,
 * SXSTATUS_MAEE]. The CSR exists only on T-Head cores: anywhere else reading it is an
 * illegal-instruction trap, so it is read only when the hart is known to be T-Head. */
#define CSR_THEAD_SXSTATUS  0x5c0
#define THEAD_SXSTATUS_MAEE MEMATTR_BIT(21)

#ifndef __ASSEMBLY__

#include <stdbool.h>
#include <stdint.h>

struct platform;

#define PTE_V (1ull << 0)
#define PTE_R (1ull << 1)
#define PTE_W (1ull << 2)
#define PTE_X (1ull << 3)
#define PTE_U (1ull << 4)
#define PTE_G (1ull << 5)
#define PTE_A (1ull << 6) /* set up front: harts without hardware A/D updates fault otherwise */
#define PTE_D (1ull << 7)

#define PTE_PPN_SHIFT 10
/* The PPN field, bits 53..10 (Sv39: 44 bits). The bits above it may hold memory
 * attributes (T-Head MAEE sets 63..60), so a PTE's address must be taken through
 * pte_physical(), never by shifting alone. */
#define PTE_PPN_MASK (((1ull << 44) - 1) << PTE_PPN_SHIFT)

/* The physical address a PTE points at (a page, or the next-level table). */
static inline uint64_t pte_physical(uint64_t pte)
{
	return ((pte & PTE_PPN_MASK) >> PTE_PPN_SHIFT) << 12; /* 4 KiB pages */
}

enum memory_kind {
	MEMORY_NORMAL, /* RAM: cacheable */
	MEMORY_DEVICE, /* MMIO registers: strongly ordered, uncached */
};

/* Which PTE attribute bits the machine's harts read. */
enum memattr_scheme {
	MEMATTR_PMA_ONLY,   /* none: the physical address's PMAs decide (QEMU by default) */
	MEMATTR_THEAD_MAEE, /* T-Head C906/C910 with MAEE on: bits 63..59 */
	MEMATTR_SVPBMT,     /* the standard Svpbmt: bits 62..61 */
};

/* The attribute bits of a leaf PTE for `kind` under `scheme`. Pure; the host tests
 * call it. */
uint64_t memattr_encode(enum memory_kind kind, enum memattr_scheme scheme);

/* Record which scheme this machine's harts use. Called once, by memattr_init(), before
 * anything is mapped; the host tests call it too. */
void memattr_set_scheme(enum memattr_scheme scheme);
enum memattr_scheme memattr_scheme(void);

/* Extra PTE bits for a leaf mapping of this kind of memory on this machine. Any
 * context, any hart; constant after memattr_init(). */
uint64_t memattr_pte_bits(enum memory_kind kind);

/* Decide the scheme: T-Head's bits only on a T-Head hart (the device tree says so, or
 * the kernel was built for a T-Head board), and there only if th.sxstatus says MAEE is
 * on; else Svpbmt when every hart's device tree node names it; else none. Called by
 * vm_init() on the boot hart, before it maps anything; never sleeps. Implemented in
 * memattr_probe.c (it reads a CSR, so the host tests, which link memattr.c, leave it
 * out). */
void memattr_init(const struct platform *platform);

#endif /* __ASSEMBLY__ */

#endif
