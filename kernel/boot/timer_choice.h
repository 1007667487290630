/* Which timer source the kernel takes its timer interrupts from (timer/timer_source.h). */
#ifndef DUPLEX_BOOT_TIMER_CHOICE_H
#define DUPLEX_BOOT_TIMER_CHOICE_H

#include "kernel/fdt/platform.h"
#include "kernel/timer/timer_source.h"

/* `choice` is the command line's timer= (null when absent): "sstc", "sbi",
 * "sbi-legacy" or a timer driver's name in the driver table ("sun20i", "goldfish") asks
 * for that source; one the machine lacks, or that does not work, is logged and the
 * default used.
 * The default, in order: Sstc when every hart has it, the SBI TIME extension, the
 * legacy SBI set_timer, then the device tree's timer devices in the driver table's
 * order (the D1's timer block, QEMU's Goldfish RTC). Each is taken only if it passes
 * timer_source_check (timer/timer_source.h: a due deadline interrupts within 10 ms of
 * the `time` CSR's time, a far one stays quiet); every source skipped is logged with
 * why. Panics when none works. Called once by kernel_main on the boot hart, interrupts
 * off, after the PLIC is up (a timer device needs it). */
const struct timer_source *timer_choose(const struct platform *platform, const char *choice);

#endif
