/* Host unit tests for the D1 timer block driver (drivers/timer/sun20i_timer.c), run
 * against a register-level model of the block written from the Allwinner manuals'
 * "Timer" section (the facts are in drivers/timer/sun20i_timer.h):
 *   - a channel counts down from INTERVAL at the counters' clock once ENABLE and RELOAD
 *     are written together, and at 0 sets its IRQ_STATUS bit (and stops, single-shot);
 *   - IRQ_STATUS bits are write-1-to-clear; the interrupt line is STATUS & ENABLE;
 *   - INTERVAL may be changed only while the channel is stopped, and more than 2 counter
 *     cycles must pass between clearing ENABLE and setting it again; the model counts
 *     every breach of either rule.
 * Time is the model's: every READS_PER_TICK reads of the `time` CSR advance it by one tick,
 * as real time passes while the driver spins (a read takes a few ns, a 24 MHz tick 42). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "drivers/timer/sun20i_timer.h"

struct channel_model {
	uint32_t control, interval, current;
	uint64_t stopped_at_cycle;
};

struct block_model {
	uint32_t timebase_hz, clock_hz;
	uint64_t time; /* timebase ticks */
	uint32_t irq_enable, irq_status;
	struct channel_model channel[SUN20I_TIMER_CHANNELS];
	int interval_while_running, restart_too_soon, unknown_register;
	int fired[SUN20I_TIMER_CHANNELS];
};

#define READS_PER_TICK 4

static struct block_model model;
static unsigned time_reads;
static struct sun20i_timer timer;

static uint64_t cycle_at(uint64_t time)
{
	return time * model.clock_hz / model.timebase_hz;
}

/* Let time run to `until`, counting every enabled channel down. */
static void advance_to(uint64_t until)
{
	if (until <= model.time)
		return;
	uint64_t elapsed = cycle_at(until) - cycle_at(model.time);
	for (int n = 0; n < SUN20I_TIMER_CHANNELS; n++) {
		struct channel_model *ch = &model.channel[n];
		if (!(ch->control & SUN20I_TIMER_ENABLE))
			continue;
		if (elapsed >= ch->current) {
			ch->current = 0;
			model.irq_status |= 1u << n;
			model.fired[n]++;
			if (ch->control & SUN20I_TIMER_SINGLE_SHOT)
				ch->control &= ~SUN20I_TIMER_ENABLE;
			else
				ch->current = ch->interval;
		} else {
			ch->current -= (uint32_t)elapsed;
		}
	}
	model.time = until;
}

static uint64_t model_read_time(struct sun20i_timer *unused)
{
	(void)unused;
	if (++time_reads % READS_PER_TICK == 0)
		advance_to(model.time + 1);
	return model.time;
}

static int channel_of(uint32_t offset, uint32_t *field)
{
	if (offset < 0x10 || offset >= 0x10 + 0x10 * SUN20I_TIMER_CHANNELS)
		return -1;
	*field = offset & 0xf;
	return (int)(offset - 0x10) / 0x10;
}

static uint32_t model_read(struct sun20i_timer *unused, uint32_t offset)
{
	(void)unused;
	uint32_t field;
	int n = channel_of(offset, &field);
	if (offset == SUN20I_TIMER_IRQ_ENABLE)
		return model.irq_enable;
	if (offset == SUN20I_TIMER_IRQ_STATUS)
		return model.irq_status;
	if (n >= 0 && field == 0x0)
		return model.channel[n].control;
	if (n >= 0 && field == 0x4)
		return model.channel[n].interval;
	if (n >= 0 && field == 0x8)
		return model.channel[n].current;
	model.unknown_register++;
	return 0;
}

static void model_write(struct sun20i_timer *unused, uint32_t offset, uint32_t value)
{
	(void)unused;
	uint32_t field;
	int n = channel_of(offset, &field);
	if (offset == SUN20I_TIMER_IRQ_ENABLE) {
		model.irq_enable = value;
	} else if (offset == SUN20I_TIMER_IRQ_STATUS) {
		model.irq_status &= ~value;
	} else if (n >= 0 && field == 0x0) {
		struct channel_model *ch = &model.channel[n];
		bool was_on = ch->control & SUN20I_TIMER_ENABLE, on = value & SUN20I_TIMER_ENABLE;
		if (was_on && !on)
			ch->stopped_at_cycle = cycle_at(model.time);
		if (!was_on && on && cycle_at(model.time) - ch->stopped_at_cycle <= 2)
			model.restart_too_soon++;
		if (on && (value & SUN20I_TIMER_RELOAD))
			ch->current = ch->interval;
		ch->control = value & ~SUN20I_TIMER_RELOAD; /* the hardware clears it when done */
	} else if (n >= 0 && field == 0x4) {
		if (model.channel[n].control & SUN20I_TIMER_ENABLE)
			model.interval_while_running++;
		model.channel[n].interval = value;
	} else {
		model.unknown_register++;
	}
}

static bool line_raised(int channel)
{
	return (model.irq_status & model.irq_enable) & (1u << channel);
}

/* A fresh model (time well past 0, as after boot) and a driver set up on it. */
static void fresh(uint32_t timebase_hz, int channels)
{
	memset(&model, 0, sizeof(model));
	model.timebase_hz = timebase_hz;
	model.clock_hz = SUN20I_TIMER_CLOCK_HZ;
	model.time = 123456789;
	/* Firmware may leave a channel running with its interrupt pending. */
	model.channel[0].control = SUN20I_TIMER_ENABLE;
	model.channel[0].current = 5;
	model.irq_status = 3;
	timer = (struct sun20i_timer){.clock_hz = SUN20I_TIMER_CLOCK_HZ,
	                              .timebase_hz = timebase_hz,
	                              .read_register = model_read,
	                              .write_register = model_write,
	                              .read_time = model_read_time};
	sun20i_timer_setup(&timer, channels);
}

static bool rules_kept(void)
{
	return model.interval_while_running == 0 && model.restart_too_soon == 0 &&
	       model.unknown_register == 0;
}

static void test_setup_stops_and_clears(void)
{
	fresh(24000000, 1);
	for (int n = 0; n < SUN20I_TIMER_CHANNELS; n++) {
		CHECK_EQ_U64(model.channel[n].control,
		             SUN20I_TIMER_SOURCE_OSC24M | SUN20I_TIMER_SINGLE_SHOT);
	}
	CHECK_EQ_U64(model.irq_status, 0);
	CHECK_EQ_U64(model.irq_enable, 1); /* one channel asked for */
	fresh(24000000, 2);
	CHECK_EQ_U64(model.irq_enable, 3);
	CHECK(rules_kept());
}

/* The interrupt comes at the deadline's tick, not one tick before. */
static void test_fires_at_the_deadline_not_before(void)
{
	fresh(24000000, 1);
	uint64_t deadline = model.time + 1000;
	sun20i_timer_program(&timer, 0, deadline);
	advance_to(deadline - 1);
	CHECK(!line_raised(0));
	advance_to(deadline);
	CHECK(line_raised(0));
	CHECK_EQ_U64(model.fired[0], 1);
	CHECK(rules_kept());
}

/* QEMU's 10 MHz timebase against the 24 MHz counter: converted so that it is never early
 * and at most one tick late, for every distance from 0 to 3000 ticks. */
static void test_other_timebases_are_never_early(void)
{
	static const uint32_t timebases[] = {10000000, 24000000, 1000000, 32768};
	for (size_t t = 0; t < sizeof(timebases) / sizeof(timebases[0]); t++) {
		fresh(timebases[t], 1);
		for (uint64_t distance = 0; distance <= 3000; distance += 7) {
			uint64_t deadline = model.time + distance;
			sun20i_timer_program(&timer, 0, deadline);
			uint64_t fired_at = 0;
			while (!line_raised(0) && model.time < deadline + 10) {
				advance_to(model.time + 1);
				if (line_raised(0))
					fired_at = model.time;
			}
			CHECK(fired_at >= deadline || (distance == 0 && fired_at > 0));
			CHECK(fired_at <= (deadline > model.time ? deadline : model.time) + 1);
			CHECK(sun20i_timer_acknowledge(&timer, 0));
		}
		CHECK(rules_kept());
	}
}

/* A new deadline replaces the old one, in either direction. */
static void test_reprogramming_replaces_the_deadline(void)
{
	fresh(24000000, 1);
	uint64_t now = model.time;
	sun20i_timer_program(&timer, 0, now + 100);
	sun20i_timer_program(&timer, 0, now + 5000);
	advance_to(now + 4999);
	CHECK(!line_raised(0));
	advance_to(now + 5000);
	CHECK(line_raised(0));
	CHECK(sun20i_timer_acknowledge(&timer, 0));

	now = model.time;
	sun20i_timer_program(&timer, 0, now + 5000);
	sun20i_timer_program(&timer, 0, now + 100);
	advance_to(now + 100);
	CHECK(line_raised(0));
	CHECK_EQ_U64(model.fired[0], 2);
	CHECK(rules_kept());
}

/* An interrupt for an old deadline that fired meanwhile must not stand for the new one. */
static void test_stale_pending_is_cleared(void)
{
	fresh(24000000, 1);
	sun20i_timer_program(&timer, 0, model.time + 10);
	advance_to(model.time + 20);
	CHECK(line_raised(0));
	uint64_t deadline = model.time + 1000;
	sun20i_timer_program(&timer, 0, deadline);
	CHECK(!line_raised(0));
	advance_to(deadline);
	CHECK(line_raised(0));
	CHECK(rules_kept());
}

static void test_past_deadline_fires_at_once(void)
{
	fresh(24000000, 1);
	sun20i_timer_program(&timer, 0, model.time - 500);
	CHECK_EQ_U64(model.channel[0].interval, 1);
	advance_to(model.time + 1);
	CHECK(line_raised(0));
	CHECK(rules_kept());
}

/* 200 s is past the 32-bit counter (179 s at 24 MHz): the longest interval, early. */
static void test_far_deadline_is_clamped(void)
{
	fresh(24000000, 1);
	uint64_t deadline = model.time + 200ull * 24000000;
	sun20i_timer_program(&timer, 0, deadline);
	CHECK_EQ_U64(model.channel[0].interval, UINT32_MAX);
	advance_to(model.time + UINT32_MAX);
	CHECK(line_raised(0));
	CHECK(model.time < deadline);
	CHECK(rules_kept());
}

/* Each channel is its own hart's: programming and acknowledging one leaves the other. */
static void test_channels_are_independent(void)
{
	fresh(24000000, 2);
	uint64_t now = model.time;
	sun20i_timer_program(&timer, 0, now + 300);
	sun20i_timer_program(&timer, 1, now + 100);
	CHECK(!sun20i_timer_acknowledge(&timer, 0)); /* nothing pending: spurious */
	advance_to(now + 100);
	CHECK(line_raised(1) && !line_raised(0));
	CHECK(sun20i_timer_acknowledge(&timer, 1));
	CHECK(!line_raised(1));
	advance_to(now + 300);
	CHECK(line_raised(0) && !line_raised(1));
	CHECK(sun20i_timer_acknowledge(&timer, 0));
	CHECK_EQ_U64(model.irq_status, 0);
	CHECK(rules_kept());
}

/* The model does catch a driver that restarts a channel too soon or changes a running
 * interval, so rules_kept() above means something. */
static void test_model_catches_rule_breaches(void)
{
	fresh(24000000, 1);
	model_write(&timer, SUN20I_TIMER_CONTROL(0),
	            SUN20I_TIMER_ENABLE | SUN20I_TIMER_RELOAD | SUN20I_TIMER_SINGLE_SHOT);
	model_write(&timer, SUN20I_TIMER_INTERVAL(0), 7);
	CHECK_EQ_U64(model.interval_while_running, 1);
	model_write(&timer, SUN20I_TIMER_CONTROL(0), SUN20I_TIMER_SINGLE_SHOT);
	model_write(&timer, SUN20I_TIMER_CONTROL(0),
	            SUN20I_TIMER_ENABLE | SUN20I_TIMER_RELOAD | SUN20I_TIMER_SINGLE_SHOT);
	CHECK_EQ_U64(model.restart_too_soon, 1);
}

int main(void)
{
	RUN(test_setup_stops_and_clears);
	RUN(test_fires_at_the_deadline_not_before);
	RUN(test_other_timebases_are_never_early);
	RUN(test_reprogramming_replaces_the_deadline);
	RUN(test_stale_pending_is_cleared);
	RUN(test_past_deadline_fires_at_once);
	RUN(test_far_deadline_is_clamped);
	RUN(test_channels_are_independent);
	RUN(test_model_catches_rule_breaches);
	return check_summary();
}
