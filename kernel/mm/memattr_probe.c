/* Is this a T-Head hart with MAEE on? Read once at boot; see memattr.h. Kept apart from
 * memattr.c because it executes a CSR instruction, which the host tests cannot. */
#include "kernel/fdt/platform.h"
#include "kernel/log/log.h"
#include "kernel/mm/memattr.h"

/* Set by boards/<board>/board.mk's BOARD_KERNEL_CFLAGS for boards whose harts are T-Head
 * cores (lichee-rv-d1): kernel/boot/entry.S then already relied on th.sxstatus. */
#ifndef BOARD_CPU_THEAD
#define BOARD_CPU_THEAD 0
#endif

/* Called by vm_init() on the boot hart before the kernel's page table is built; the boot
 * page table (entry.S) is still in use. Never sleeps. */
void memattr_init(const struct platform *platform)
{
	/* th.sxstatus traps on every hart that is not T-Head's, QEMU's included: read it
	 * only when the device tree (every cpu "thead,...") or the build says T-Head, as
	 * Linux reads it only after the vendor id said T-Head (errata/thead/errata.c). */
	if (!platform->cpu_vendor_thead && !BOARD_CPU_THEAD) {
		if (platform->has_svpbmt) {
			memattr_set_scheme(MEMATTR_SVPBMT);
			log_printf("memattr: every hart has Svpbmt: device pages are mapped IO\n");
		}
		return;
	}
	uint64_t sxstatus;
	/* By number: binutils knows no T-Head CSR names (csr_read() pastes a name). */
	__asm__ volatile("csrr %0, %1" : "=r"(sxstatus) : "i"(CSR_THEAD_SXSTATUS));
	bool maee = (sxstatus & THEAD_SXSTATUS_MAEE) != 0;

	memattr_set_scheme(maee ? MEMATTR_THEAD_MAEE : MEMATTR_PMA_ONLY);
	log_printf("memattr: T-Head hart, th.sxstatus %#lx: MAEE %s%s\n", sxstatus,
	           maee ? "on, PTEs carry the T-Head attribute bits" : "off",
	           BOARD_CPU_THEAD && !platform->cpu_vendor_thead
	               ? " (device tree names no T-Head cpu; trusting the build)"
	               : "");
}
