/* The Goldfish RTC as the wall clock's source (goldfish_rtc.h describes the device): read
 * once at boot; from then on the kernel's CLOCK_REALTIME runs on the harts' `time` CSR,
 * as Linux's does on its clocksource after reading the RTC at boot (rtc hctosys). */
#include "drivers/rtc/goldfish_rtc.h"

#include "kernel/fdt/fdt.h"
#include "kernel/log/log.h"
#include "kernel/mm/vm.h"
#include "kernel/timer/clock.h"

int goldfish_rtc_probe(const struct device *device)
{
	uint64_t base, size;
	if (fdt_reg(device->fdt, device->node, 0, &base, &size) != 0) {
		log_printf("rtc: %s has no registers\n", device->compatible);
		return -1;
	}
	volatile uint8_t *registers = vm_map_device(base, size ? size : GOLDFISH_REGISTER_SPAN);
	clock_set_realtime_ns(goldfish_rtc_read_ns(registers));
	/* No date in the log: one-hart -icount boots must log the same bytes every run. */
	log_printf("rtc: %s at %#lx sets the wall clock\n", device->compatible, base);
	return 0;
}
