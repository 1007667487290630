/* The D1 timer block's register logic; see sun20i_timer.h for the sources. */
#include "drivers/timer/sun20i_timer.h"

#define ONE_SHOT_CONTROL (SUN20I_TIMER_SOURCE_OSC24M | SUN20I_TIMER_SINGLE_SHOT) /* prescale 1 */

static uint32_t read_register(struct sun20i_timer *timer, uint32_t offset)
{
	if (timer->read_register)
		return timer->read_register(timer, offset);
	return *(volatile uint32_t *)(timer->registers + offset);
}

static void write_register(struct sun20i_timer *timer, uint32_t offset, uint32_t value)
{
	if (timer->write_register)
		timer->write_register(timer, offset, value);
	else
		*(volatile uint32_t *)(timer->registers + offset) = value;
}

/* Counter cycles -> timebase ticks, rounded up. */
static uint64_t cycles_to_ticks(const struct sun20i_timer *timer, uint64_t cycles)
{
	return (cycles * timer->timebase_hz + timer->clock_hz - 1) / timer->clock_hz;
}

/* Stop a channel and wait until the counter's clock domain has seen it (sun20i_timer.h). */
static void stop_channel(struct sun20i_timer *timer, int channel)
{
	write_register(timer, SUN20I_TIMER_CONTROL(channel), ONE_SHOT_CONTROL);
	uint64_t stopped = timer->read_time(timer);
	uint64_t wait = cycles_to_ticks(timer, SUN20I_TIMER_SYNC_CYCLES);
	while (timer->read_time(timer) - stopped < wait)
		;
}

void sun20i_timer_setup(struct sun20i_timer *timer, int channels)
{
	uint32_t enable = 0;
	for (int channel = 0; channel < SUN20I_TIMER_CHANNELS; channel++) {
		stop_channel(timer, channel);
		if (channel < channels)
			enable |= 1u << channel;
	}
	write_register(timer, SUN20I_TIMER_IRQ_STATUS, (1u << SUN20I_TIMER_CHANNELS) - 1);
	write_register(timer, SUN20I_TIMER_IRQ_ENABLE, enable);
}

void sun20i_timer_program(struct sun20i_timer *timer, int channel, uint64_t deadline_ticks)
{
	stop_channel(timer, channel);
	/* A request for the old deadline may have fired meanwhile: the new one is what counts. */
	write_register(timer, SUN20I_TIMER_IRQ_STATUS, 1u << channel);

	/* The counter interrupts when it reaches 0 after `cycles` of its clock. Convert
	 * with the rounding that makes it late rather than early; clamp to 1 .. 2^32-1. */
	uint64_t now = timer->read_time(timer);
	uint64_t ticks = deadline_ticks > now ? deadline_ticks - now : 0;
	uint64_t far = (uint64_t)UINT32_MAX * timer->timebase_hz / timer->clock_hz;
	uint64_t cycles;
	if (ticks >= far)
		cycles = UINT32_MAX;
	else
		cycles = (ticks * timer->clock_hz + timer->timebase_hz - 1) / timer->timebase_hz;
	if (cycles == 0)
		cycles = 1;
	write_register(timer, SUN20I_TIMER_INTERVAL(channel), (uint32_t)cycles);
	write_register(timer, SUN20I_TIMER_CONTROL(channel),
	               ONE_SHOT_CONTROL | SUN20I_TIMER_RELOAD | SUN20I_TIMER_ENABLE);
}

bool sun20i_timer_acknowledge(struct sun20i_timer *timer, int channel)
{
	uint32_t bit = 1u << channel;
	if (!(read_register(timer, SUN20I_TIMER_IRQ_STATUS) & bit))
		return false;
	write_register(timer, SUN20I_TIMER_IRQ_STATUS, bit);
	return true;
}
