/* The D1 timer block as the kernel's timer source: maps it, registers one interrupt
 * per channel (channel N on hart index N) and programs the channel of the calling
 * hart. Kept apart from sun20i_timer.c so the host tests link that without the kernel. */
#include "drivers/timer/sun20i_timer_probe.h"

#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/irq/irq.h"
#include "kernel/log/log.h"
#include "kernel/mm/vm.h"
#include "drivers/timer/sun20i_timer.h"
#include "kernel/timer/timer.h"

/* Map the registers up to timer 1's (0x28) when the device tree gives no size. */
#define DEFAULT_REGISTER_SPAN 0x100

static struct sun20i_timer block;
static uint32_t channel_irq[SUN20I_TIMER_CHANNELS];

static uint64_t read_time_csr(struct sun20i_timer *timer)
{
	(void)timer;
	return read_time();
}

/* timer_source.program: called with interrupts masked on the hart being programmed. */
static void program_this_hart(uint64_t deadline_ticks)
{
	sun20i_timer_program(&block, this_hart()->index, deadline_ticks);
}

/* timer_source.pending: the calling hart's channel's interrupt, at the PLIC. */
static bool this_hart_pending(void)
{
	return irq_pending(channel_irq[this_hart()->index]);
}

static struct timer_source source = {.name = "sun20i timer block",
                                     .program = program_this_hart,
                                     .external = true,
                                     .pending = this_hart_pending};

/* Interrupt handler of channel `context` (= hart index), routed to that hart. Nothing
 * pending (a level that fell before the claim) is not a timer event. */
static void channel_interrupt(void *context)
{
	int channel = (int)(uintptr_t)context;
	if (sun20i_timer_acknowledge(&block, channel))
		timer_handle_interrupt();
}

const struct timer_source *sun20i_timer_probe(const struct device *device)
{
	struct timer_block_desc described;
	const struct timer_block_desc *desc = &described;
	uint32_t timebase_hz = device->platform->timebase_hz;
	int harts = device->platform->hart_count;
	if (platform_read_timer_block(device->fdt, device->node, device->compatible, &described))
		return 0; /* no registers or no interrupt */
	int channels =
	    desc->irq_count < SUN20I_TIMER_CHANNELS ? desc->irq_count : SUN20I_TIMER_CHANNELS;
	if (channels > harts)
		channels = harts;
	block.registers =
	    vm_map_device(desc->base, desc->size ? desc->size : DEFAULT_REGISTER_SPAN);
	block.clock_hz = SUN20I_TIMER_CLOCK_HZ;
	block.timebase_hz = timebase_hz;
	block.read_time = read_time_csr;
	sun20i_timer_setup(&block, channels);
	for (int channel = 0; channel < channels; channel++) {
		channel_irq[channel] = desc->irqs[channel];
		if (irq_register(desc->irqs[channel], channel_interrupt, (void *)(uintptr_t)channel,
		                 channel) != 0) {
			log_printf("timer: %s irq %u cannot be registered\n", desc->compatible,
			           desc->irqs[channel]);
			return 0;
		}
	}
	source.max_harts = channels;
	log_printf("timer: %s at %#lx, irqs %u and %u, %d channel(s) in use\n", desc->compatible,
	           desc->base, desc->irqs[0], desc->irq_count > 1 ? desc->irqs[1] : 0, channels);
	return &source;
}
