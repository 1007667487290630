/* SBI calls (RISC-V SBI specification v1.0); see sbi.h. */
#include "kernel/sbi/sbi.h"

/* Extension ids, SBI spec chapters 4-12. */
#define SBI_EXT_LEGACY_TIMER    0x00
#define SBI_EXT_LEGACY_PUTCHAR  0x01
#define SBI_EXT_LEGACY_SHUTDOWN 0x08
#define SBI_EXT_BASE            0x10
#define SBI_EXT_TIME            0x54494d45 /* "TIME" */
#define SBI_EXT_IPI             0x735049   /* "sPI" */
#define SBI_EXT_HSM             0x48534d   /* "HSM" */
#define SBI_EXT_SRST            0x53525354 /* "SRST" */
#define SBI_EXT_DBCN            0x4442434e /* "DBCN" */
#define SBI_DBCN_WRITE_BYTE     2

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

/* A pre-0.2 firmware has no base extension: the call fails with SBI_ERR_NOT_SUPPORTED
 * in a0 and leaves a1 as it was, so the value counts only without an error. */
static long base_value(long function)
{
	struct sbi_result r = sbi_call(SBI_EXT_BASE, function, 0, 0, 0);
	return r.error == SBI_SUCCESS ? r.value : 0;
}

long sbi_spec_version(void)
{
	return base_value(0);
}

long sbi_implementation_id(void)
{
	return base_value(1);
}

long sbi_implementation_version(void)
{
	return base_value(2);
}

/* What the probes said, cached: 0 not probed yet, 1 absent, 2 present. Written before
 * the other harts start and then only re-written with the same value, so relaxed
 * atomics are enough. */
static int dbcn_probed, srst_probed, hsm_probed;
static bool only_0_2;

static bool probed(int *cache, long extension)
{
	int known = __atomic_load_n(cache, __ATOMIC_RELAXED);
	if (!known) {
		known = sbi_probe_extension(extension) ? 2 : 1;
		__atomic_store_n(cache, known, __ATOMIC_RELAXED);
	}
	return known == 2;
}

void sbi_restrict_to_0_2(void)
{
	__atomic_store_n(&only_0_2, true, __ATOMIC_RELAXED);
}

bool sbi_restricted_to_0_2(void)
{
	return __atomic_load_n(&only_0_2, __ATOMIC_RELAXED);
}

bool sbi_has_dbcn(void)
{
	return !sbi_restricted_to_0_2() && probed(&dbcn_probed, SBI_EXT_DBCN);
}

bool sbi_has_srst(void)
{
	return !sbi_restricted_to_0_2() && probed(&srst_probed, SBI_EXT_SRST);
}

bool sbi_has_hsm(void)
{
	return !sbi_restricted_to_0_2() && probed(&hsm_probed, SBI_EXT_HSM);
}

static sbi_before_firmware_output_fn before_firmware_output;

void sbi_set_before_firmware_output(sbi_before_firmware_output_fn hook)
{
	before_firmware_output = hook;
}

/* Every call after which the firmware may write to the console UART. */
static void hand_uart_to_firmware(void)
{
	sbi_before_firmware_output_fn hook =
	    __atomic_load_n(&before_firmware_output, __ATOMIC_ACQUIRE);
	if (hook)
		hook();
}

int sbi_console_putchar(int c)
{
	hand_uart_to_firmware();
	if (sbi_has_dbcn())
		return sbi_call(SBI_EXT_DBCN, SBI_DBCN_WRITE_BYTE, c & 0xff, 0, 0).error == 0 ? 0
		                                                                              : -1;
	/* Legacy extensions return the error in a0 and take no function id. */
	return sbi_call(SBI_EXT_LEGACY_PUTCHAR, 0, c, 0, 0).error == 0 ? 0 : -1;
}

static bool time_hidden;

void sbi_test_hide_time(void)
{
	__atomic_store_n(&time_hidden, true, __ATOMIC_RELAXED);
}

int sbi_timer_available(void)
{
	return !__atomic_load_n(&time_hidden, __ATOMIC_RELAXED) &&
	       sbi_probe_extension(SBI_EXT_TIME);
}

void sbi_set_timer(uint64_t ticks)
{
	sbi_call(SBI_EXT_TIME, 0, (long)ticks, 0, 0);
}

bool sbi_legacy_timer_available(void)
{
	return sbi_spec_version() == 0 || sbi_probe_extension(SBI_EXT_LEGACY_TIMER);
}

void sbi_legacy_set_timer(uint64_t ticks)
{
	/* Legacy extensions take no function id (SBI spec 5). */
	sbi_call(SBI_EXT_LEGACY_TIMER, 0, (long)ticks, 0, 0);
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
	hand_uart_to_firmware();
	return sbi_call(SBI_EXT_SRST, 0, type, reason, 0).error;
}

void sbi_legacy_shutdown(void)
{
	hand_uart_to_firmware();
	sbi_call(SBI_EXT_LEGACY_SHUTDOWN, 0, 0, 0, 0);
}
