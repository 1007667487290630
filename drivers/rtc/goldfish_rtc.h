/* QEMU virt's Goldfish RTC ("google,goldfish-rtc"): the one description of the device,
 * shared by its two drivers: the wall clock at boot (goldfish_rtc.c, here) and the alarm
 * as a timer source (drivers/timer/goldfish_alarm.c).
 *
 * Registers: QEMU hw/rtc/goldfish_rtc.c (the Android Goldfish virtual hardware spec,
 * GOLDFISH-VIRTUAL-HARDWARE.TXT, plus QEMU's IRQ_ENABLED .. CLEAR_INTERRUPT), 32 bits
 * each. The time is nanoseconds since the Unix epoch; reading TIME_LOW latches the high
 * half into TIME_HIGH, so TIME_LOW is read first. QEMU starts it at the host's time of
 * day (`-rtc base=utc`, the default) and runs it on the host clock, or on the virtual
 * clock with `-rtc clock=vm`. */
#ifndef DUPLEX_DRIVERS_RTC_GOLDFISH_RTC_H
#define DUPLEX_DRIVERS_RTC_GOLDFISH_RTC_H

#include <stdint.h>

#include "drivers/base/driver.h"

#define GOLDFISH_TIME_LOW        0x00 /* read: the time in ns, low half; latches the high half */
#define GOLDFISH_TIME_HIGH       0x04
#define GOLDFISH_ALARM_LOW       0x08 /* write: alarm time low half, and arm it */
#define GOLDFISH_ALARM_HIGH      0x0c
#define GOLDFISH_IRQ_ENABLED     0x10
#define GOLDFISH_CLEAR_ALARM     0x14
#define GOLDFISH_CLEAR_INTERRUPT 0x1c
#define GOLDFISH_REGISTER_SPAN   0x20

/* The RTC's time in ns, from mapped `registers`: the low half first (it latches the high
 * half). Any context. */
static inline uint64_t goldfish_rtc_read_ns(volatile uint8_t *registers)
{
	uint64_t low = *(volatile uint32_t *)(registers + GOLDFISH_TIME_LOW);
	uint64_t high = *(volatile uint32_t *)(registers + GOLDFISH_TIME_HIGH);
	return high << 32 | low;
}

/* The driver table's DRIVER_RTC probe (drivers/base/drivers.c): read the time once and
 * set the kernel's wall clock from it (clock_set_realtime_ns). 0, or -1 (logged) when
 * the node has no registers. Boot hart, interrupts off, after the kernel page table. */
int goldfish_rtc_probe(const struct device *device);

#endif
