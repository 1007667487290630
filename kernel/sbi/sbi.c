/* SBI calls (RISC-V SBI specification v1.0); see sbi.h. */
#include "kernel/sbi/sbi.h"

/* Extension ids, SBI spec chapters 4-10. */
#define SBI_EXT_LEGACY_PUTCHAR 0x01
#define SBI_EXT_BASE           0x10
#define SBI_EXT_TIME           0x54494d45 /* "TIME" */
#define SBI_EXT_IPI            0x735049   /* "sPI" */
#define SBI_EXT_HSM            0x48534d   /* "HSM" */
#define SBI_EXT_SRST           0x53525354 /* "SRST" */

static struct sbi_result sbi_call(long extension, long function, long a0, long a1, long a2)
{
	register long r_a0 __asm__("a0") = a0;
	register long r_a1 __asm__("a1") = a1;
	register long r_a2 __asm__("a2") = a2;
	register long r_a6 __asm__("a6") = function;
	register long r_a7 __asm__("a7") = extension;
	__asm__ volatile("ecall"
	                 : "+r"(r_a0), "+r"(r_a1)
	                 : "r"(r_a2), "r"(r_a6), "r"(r_a7)
	                 : "memory");
	return (struct sbi_result){r_a0, r_a1};
}

int sbi_probe_extension(long extension)
{
	struct sbi_result r = sbi_call(SBI_EXT_BASE, 3, extension, 0, 0);
	return r.error == SBI_SUCCESS && r.value != 0;
}

long sbi_spec_version(void)
{
	return sbi_call(SBI_EXT_BASE, 0, 0, 0, 0).value;
}

int sbi_console_putchar(int c)
{
	/* Legacy extensions return the error in a0 and take no function id. */
	return sbi_call(SBI_EXT_LEGACY_PUTCHAR, 0, c, 0, 0).error == 0 ? 0 : -1;
}

int sbi_timer_available(void)
{
	return sbi_probe_extension(SBI_EXT_TIME);
}

void sbi_set_timer(uint64_t ticks)
{
	sbi_call(SBI_EXT_TIME, 0, (long)ticks, 0, 0);
}

long sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base)
{
	return sbi_call(SBI_EXT_IPI, 0, (long)hart_mask, (long)hart_mask_base, 0).error;
}

long sbi_hart_start(unsigned long hart_id, unsigned long start_address, unsigned long opaque)
{
	return sbi_call(SBI_EXT_HSM, 0, (long)hart_id, (long)start_address, (long)opaque).error;
}

long sbi_hart_stop(void)
{
	return sbi_call(SBI_EXT_HSM, 1, 0, 0, 0).error;
}

long sbi_hart_get_status(unsigned long hart_id)
{
	struct sbi_result result = sbi_call(SBI_EXT_HSM, 2, hart_id, 0, 0);
	return result.error ? result.error : result.value;
}

long sbi_system_reset(uint32_t type, uint32_t reason)
{
	return sbi_call(SBI_EXT_SRST, 0, type, reason, 0).error;
}
