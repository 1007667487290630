/* Which timer source the kernel takes its timer interrupts from (timer/timer_source.h). */
#ifndef DUPLEX_BOOT_TIMER_CHOICE_H
#define DUPLEX_BOOT_TIMER_CHOICE_H

#include "kernel/fdt/platform.h"
#include "kernel/timer/timer_source.h"

/* `choice` is the command line's timer= (null when absent): "sstc", "sbi" or a timer
 * driver's name in the driver table ("sun20i", "goldfish") asks for that source; one
 * the machine lacks is logged and the default used.
 * The default: Sstc when every hart has it, else the SBI timer if it works, else the
 * device tree's timer device (the D1's timer block, QEMU's Goldfish RTC). Panics when
 * there is none. Called once by kernel_main on the boot hart, interrupts off, after the
 * PLIC is up (a timer device needs it). */
const struct timer_source *timer_choose(const struct platform *platform, const char *choice);

#endif
