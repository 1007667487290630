/* Boot breadcrumbs: one line per boot step, "boot: ...", written straight to the SBI
 * firmware's console (kernel/sbi/sbi.h: DBCN, else the legacy putchar), never through
 * the UART driver. So on a board whose UART driver never starts, or a boot that hangs
 * or traps half-way, the last line on the serial port names the step it stopped in.
 *
 * entry.S prints the first ones with the MMU still off (the entry registers, th.sxstatus
 * on T-Head builds, the checks of the DTB address) and catches traps before paging;
 * kernel_main prints one per step after that, up to handing the log to the UART. A trap
 * in between lands in boot_trap, which names the last step. */
#ifndef DUPLEX_BOOT_BREADCRUMB_H
#define DUPLEX_BOOT_BREADCRUMB_H

#include <stdint.h>

/* Called by kernel_main, boot hart only, before the scheduler. Formats like log_printf,
 * adds "boot: " and the newline, and remembers the text as the current step. Never
 * sleeps, takes no lock. */
void breadcrumb(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Called by kernel_main first thing after paging: point stvec at boot_trap_vector
 * (entry.S) until trap_init_hart installs the real trap vector. */
void breadcrumb_catch_traps(void);

/* Called from entry.S's boot_trap_vector on a trap before the trap vector is up:
 * prints the cause and the step it happened in, and stops this hart. */
void boot_trap(uint64_t scause, uint64_t sepc, uint64_t stval) __attribute__((noreturn));

/* Stop the boot hart after a breadcrumb said why (interrupts off, wfi for ever): on a
 * board the message stays the last thing on the screen. Never returns. */
void breadcrumb_stop(void) __attribute__((noreturn));

#endif
