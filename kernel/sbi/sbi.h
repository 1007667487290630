/* Calls into the SBI firmware (OpenSBI) from S-mode, per the RISC-V SBI specification
 * v1.0: `ecall` with the extension id in a7, the function id in a6, arguments in a0-a5;
 * the firmware returns an error code in a0 and a value in a1.
 * Every call here is safe in any context (they never sleep); they may take a while. */
#ifndef DUPLEX_SBI_H
#define DUPLEX_SBI_H

#include <stdint.h>

#define SBI_SUCCESS               0
#define SBI_ERR_ALREADY_AVAILABLE (-6)

struct sbi_result {
	long error;
	long value;
};

/* Base extension: is an extension implemented? (SBI spec 4.8) */
int sbi_probe_extension(long extension);
long sbi_spec_version(void);

/* Legacy console putchar (SBI spec 5.2): the kernel log's output before the UART
 * driver is up. Returns 0 or -1 if the firmware lacks it. */
int sbi_console_putchar(int c);

/* Does the firmware implement the TIME extension? (It may still not work:
 * timer/timer_source.h, sbi_timer_check.) */
int sbi_timer_available(void);
/* TIME: program the next timer interrupt for this hart (absolute, in timebase ticks). */
void sbi_set_timer(uint64_t ticks);

/* IPI: raise a supervisor software interrupt on the harts in the mask (bit i = hart
 * id base + i). */
long sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base);

/* HSM: start a stopped hart at a physical address with a1 = opaque. */
long sbi_hart_start(unsigned long hart_id, unsigned long start_address, unsigned long opaque);

/* HSM: stop the calling hart; returns only on failure. */
long sbi_hart_stop(void);

/* HSM: a hart's state (SBI spec 9.3): 0 started, 1 stopped, 2 start pending, 3 stop
 * pending (or a negative error). */
#define SBI_HSM_STOPPED 1
long sbi_hart_get_status(unsigned long hart_id);

/* SRST: reset type 0 = shutdown; reason 0 = none, 1 = system failure. Returns only
 * if the firmware refused. */
long sbi_system_reset(uint32_t type, uint32_t reason);

#endif
