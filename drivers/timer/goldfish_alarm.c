/* QEMU virt's Goldfish RTC ("google,goldfish-rtc") as a timer source: its alarm raises a
 * PLIC interrupt at a nanosecond time. It stands in, under QEMU, for the SoC timer blocks
 * a board falls back on when its firmware has no working SBI timer (the D1's,
 * sun20i_timer.c): with Sstc off and no CLINT node in the device tree the kernel takes
 * every timer interrupt from here, so that path runs in the system tests
 * (tests/test_kernel_core.py). One alarm, so it serves hart 0 only.
 *
 * The registers are described once, in drivers/rtc/goldfish_rtc.h (whose driver reads
 * the same device's time for the wall clock). Its time runs on QEMU's virtual clock only
 * with `-rtc clock=vm`; with the default host clock alarms come at host times, which the
 * timer code tolerates (it runs only what is due and programs again) but makes
 * imprecise. */
#include "drivers/timer/goldfish_alarm.h"

#include "drivers/rtc/goldfish_rtc.h"
#include "kernel/hart/csr.h"
#include "kernel/irq/irq.h"
#include "kernel/log/log.h"
#include "kernel/mm/vm.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"

static volatile uint8_t *registers;
static uint32_t alarm_irq;

static void write_register(uint32_t offset, uint32_t value)
{
	*(volatile uint32_t *)(registers + offset) = value;
}

/* timer_source.program, on hart 0 with interrupts masked. The RTC counts from its own
 * epoch, so the deadline becomes "RTC now + time left"; one timebase tick is added because
 * the two clocks are read a few instructions apart: late, never early. */
static void program_alarm(uint64_t deadline_ticks)
{
	uint64_t now = read_time();
	uint64_t rtc_now = goldfish_rtc_read_ns(registers);
	uint64_t left = deadline_ticks > now ? deadline_ticks - now : 0;
	uint64_t alarm = rtc_now + clock_ticks_to_ns(left + 1);
	write_register(GOLDFISH_ALARM_HIGH, (uint32_t)(alarm >> 32));
	write_register(GOLDFISH_ALARM_LOW, (uint32_t)alarm);
}

/* timer_source.pending: the alarm's interrupt, at the PLIC. */
static bool alarm_pending(void)
{
	return irq_pending(alarm_irq);
}

static const struct timer_source source = {.name = "goldfish RTC alarm",
                                           .program = program_alarm,
                                           .max_harts = 1,
                                           .external = true,
                                           .pending = alarm_pending};

/* The alarm's interrupt, routed to hart 0. */
static void alarm_interrupt(void *context)
{
	(void)context;
	write_register(GOLDFISH_CLEAR_INTERRUPT, 1); /* lower the level before the PLIC completes */
	timer_handle_interrupt();
}

const struct timer_source *goldfish_alarm_probe(const struct device *device)
{
	struct timer_block_desc described;
	const struct timer_block_desc *desc = &described;
	if (platform_read_timer_block(device->fdt, device->node, device->compatible, &described))
		return 0; /* no registers or no interrupt */
	registers = vm_map_device(desc->base, desc->size ? desc->size : GOLDFISH_REGISTER_SPAN);
	write_register(GOLDFISH_CLEAR_ALARM, 1);
	write_register(GOLDFISH_CLEAR_INTERRUPT, 1);
	write_register(GOLDFISH_IRQ_ENABLED, 1);
	alarm_irq = desc->irqs[0];
	if (irq_register(desc->irqs[0], alarm_interrupt, 0, 0) != 0) {
		log_printf("timer: %s irq %u cannot be registered\n", desc->compatible,
		           desc->irqs[0]);
		return 0;
	}
	log_printf("timer: %s at %#lx, irq %u\n", desc->compatible, desc->base, desc->irqs[0]);
	return &source;
}
