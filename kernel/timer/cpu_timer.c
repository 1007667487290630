/* The timer sources every RISC-V hart has one of (timer_source.h): Sstc's stimecmp, the
 * SBI TIME extension and the legacy SBI set_timer. All three raise sip.STIP. */
#include "kernel/timer/timer_source.h"

#include "kernel/hart/csr.h"
#include "kernel/sbi/sbi.h"

#define SIP_STIP (1ul << 5) /* privileged spec 1.12, 4.1.3: supervisor timer pending */

/* Sstc (privileged spec 1.12 + Sstc 1.0): STIP is pending while time >= stimecmp. */
static void program_stimecmp(uint64_t deadline_ticks)
{
	csr_write(0x14d, deadline_ticks); /* CSR_STIMECMP */
}

/* timer_source.pending of all three. */
static bool supervisor_timer_pending(void)
{
	return (csr_read(sip) & SIP_STIP) != 0;
}

const struct timer_source timer_source_sstc = {
    .name = "sstc stimecmp", .program = program_stimecmp, .pending = supervisor_timer_pending};

const struct timer_source timer_source_sbi = {
    .name = "SBI set_timer", .program = sbi_set_timer, .pending = supervisor_timer_pending};

const struct timer_source timer_source_sbi_legacy = {.name = "legacy SBI set_timer",
                                                     .program = sbi_legacy_set_timer,
                                                     .pending = supervisor_timer_pending};
