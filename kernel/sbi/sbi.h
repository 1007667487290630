/* Calls into the SBI firmware (OpenSBI) from S-mode, per the RISC-V SBI specification
 * v1.0: `ecall` with the extension id in a7, the function id in a6, arguments in a0-a5;
 * the firmware returns an error code in a0 and a value in a1.
 * Every call here is safe in any context (they never sleep); they may take a while.
 *
 * Which extensions are used is decided here, from the firmware's answers to the base
 * extension's probe, cached on first use: DBCN (SBI 2.0) for the console if it is
 * there, else the legacy putchar; SRST (SBI 0.3) for power-off, else the legacy
 * shutdown; HSM (SBI 0.2) to start harts. `sbi=0.2` on the command line
 * (sbi_restrict_to_0_2) makes Duplex use only what the board's stock firmware, OpenSBI
 * v0.6 reporting SBI spec 0.2, can be counted on to have: base, legacy, TIME and IPI —
 * no DBCN, no SRST and no HSM (OpenSBI gained HSM only after v0.6). */
#ifndef DUPLEX_SBI_H
#define DUPLEX_SBI_H

#include <stdbool.h>
#include <stdint.h>

#define SBI_SUCCESS               0
#define SBI_ERR_ALREADY_AVAILABLE (-6)

struct sbi_result {
	long error;
	long value;
};

/* Base extension: is an extension implemented? (SBI spec 4.8) */
int sbi_probe_extension(long extension);
/* Base: spec version (major << 24 | minor), implementation id and version (SBI spec
 * 4.1-4.3); 0 from a pre-0.2 firmware, which has no base extension. */
long sbi_spec_version(void);
long sbi_implementation_id(void);
long sbi_implementation_version(void);

/* sbi=0.2: from now on use only the extensions an SBI 0.2 firmware has (above). Called
 * once by kernel_main on the boot hart, before any other hart runs. */
void sbi_restrict_to_0_2(void);
bool sbi_restricted_to_0_2(void);
/* Will the calls below use DBCN, SRST, HSM? (probed once, and never with sbi=0.2) */
bool sbi_has_dbcn(void);
bool sbi_has_srst(void);
bool sbi_has_hsm(void);

/* Called, if set, before every SBI call after which the firmware may drive the
 * console UART itself (console putchar, system reset, legacy shutdown): the console's
 * UART driver turns off what a firmware putc does not understand (the DW UART's PTIME,
 * drivers/uart/uart.h set_sole_driver). Set once by kernel_main on the boot hart; the
 * hook runs in the caller's context and must not sleep or take a lock a caller might
 * hold. */
typedef void (*sbi_before_firmware_output_fn)(void);
void sbi_set_before_firmware_output(sbi_before_firmware_output_fn hook);

/* One byte to the firmware's console: DBCN write_byte (SBI spec 2.0 chapter 12) where
 * available, else the legacy console putchar (SBI spec 5.2). The kernel log's output
 * before the UART driver is up, and the boot breadcrumbs'. Returns 0 or -1. */
int sbi_console_putchar(int c);

/* Does the firmware implement the TIME extension? (It may still not work:
 * timer/timer_source.h, timer_source_check.) False after sbi_test_hide_time. */
int sbi_timer_available(void);
/* TIME: program the next timer interrupt for this hart (absolute, in timebase ticks). */
void sbi_set_timer(uint64_t ticks);
/* Does the firmware answer the legacy set_timer (SBI spec 5.1, extension 0x00)? A
 * firmware without the base extension (SBI 0.1) is taken to, since the legacy calls
 * are all such a firmware has; others are asked through the base probe, which covers
 * the legacy ids (SBI spec 4.8; OpenSBI registers them as one extension). */
bool sbi_legacy_timer_available(void);
/* Legacy set_timer: the same request as sbi_set_timer, for a firmware without TIME. */
void sbi_legacy_set_timer(uint64_t ticks);
/* Test only (sbi.test.no_time=1): answer from now on that the firmware has no TIME
 * extension, as a firmware with only the legacy timer call would, so QEMU's OpenSBI
 * exercises the fallback (tests/test_kernel_core.py). Called once by kernel_main on the
 * boot hart, before the timer is chosen. */
void sbi_test_hide_time(void);

/* IPI: raise a supervisor software interrupt on the harts in the mask (bit i = hart
 * id base + i). */
long sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base);

/* HSM: start a stopped hart at a physical address with a1 = opaque. */
long sbi_hart_start(unsigned long hart_id, unsigned long start_address, unsigned long opaque);

/* HSM: stop the calling hart; returns only on failure. */
long sbi_hart_stop(void);

/* HSM: a hart's state (SBI spec 9.3): 0 started, 1 stopped, 2 start pending, 3 stop
 * pending (or a negative error). */
#define SBI_HSM_STARTED       0
#define SBI_HSM_STOPPED       1
#define SBI_HSM_START_PENDING 2
long sbi_hart_get_status(unsigned long hart_id);

/* SRST: reset type 0 = shutdown; reason 0 = none, 1 = system failure. Returns only
 * if the firmware refused. */
long sbi_system_reset(uint32_t type, uint32_t reason);
/* The legacy shutdown call (SBI spec 5.8), what SBI 0.1/0.2 firmware has. Returns only
 * if the firmware refused. */
void sbi_legacy_shutdown(void);

#endif
