/* The timer sources every RISC-V hart has one of (timer_source.h): Sstc's stimecmp and
 * the SBI TIME extension. */
#include "kernel/timer/timer_source.h"

#include "kernel/hart/csr.h"
#include "kernel/sbi/sbi.h"
#include "kernel/timer/clock.h"

#define SIP_STIP (1ul << 5) /* privileged spec 1.12, 4.1.3: supervisor timer pending */

/* Sstc (privileged spec 1.12 + Sstc 1.0): STIP is pending while time >= stimecmp. */
static void program_stimecmp(uint64_t deadline_ticks)
{
	csr_write(0x14d, deadline_ticks); /* CSR_STIMECMP */
}

const struct timer_source timer_source_sstc = {.name = "sstc stimecmp",
                                               .program = program_stimecmp};

const struct timer_source timer_source_sbi = {.name = "SBI set_timer", .program = sbi_set_timer};

/* Watch sip.STIP until `until` (timebase ticks); true if it was seen set. */
static bool timer_pending_seen(uint64_t until)
{
	do {
		if (csr_read(sip) & SIP_STIP)
			return true;
	} while (read_time() < until);
	return false;
}

enum sbi_timer_health sbi_timer_check(uint64_t patience_ns)
{
	uint64_t patience = clock_ns_to_ticks(patience_ns);
	/* A deadline far away must not interrupt: a firmware that never wrote the
	 * comparator (QEMU without the CLINT node, whose mtimecmp stays 0) fires at once. */
	uint64_t start = read_time();
	sbi_set_timer(UINT64_MAX);
	if (timer_pending_seen(start + patience / 4))
		return SBI_TIMER_EARLY;
	/* And one already due must. */
	start = read_time();
	sbi_set_timer(start);
	if (!timer_pending_seen(start + patience))
		return SBI_TIMER_SILENT;
	return SBI_TIMER_WORKS;
}
