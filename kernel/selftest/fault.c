/* selftest=fault: a kernel task loads from an unmapped address. The trap handler must
 * print the fault report (cause, sepc, stval, registers, backtrace) and power off with
 * POWER_STATUS_PANIC; returning from here means the fault did not happen. */
#include <stdint.h>

#include "kernel/log/log.h"
#include "kernel/selftest/selftest.h"

/* Not static and not inlined, so the backtrace shows a real call chain. */
__attribute__((noinline)) uint64_t selftest_touch(volatile uint64_t *address)
{
	return *address;
}

int selftest_fault(const struct cmdline *line)
{
	(void)line;
	log_printf("selftest fault: loading from unmapped address 0x10\n");
	uint64_t value = selftest_touch((volatile uint64_t *)0x10);
	log_printf("selftest fault: the load returned %#lx instead of faulting\n", value);
	return -1;
}
