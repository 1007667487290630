/* The timer source choice; see timer_choice.h. */
#include "kernel/boot/timer_choice.h"

#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/panic/panic.h"
#include "kernel/sbi/sbi.h"
#include "drivers/base/bind.h"

/* How long a working source may take to raise an interrupt that is already due: an
 * ecall and a machine timer interrupt, or a device's counter and the PLIC, are
 * microseconds; a broken one never does. First a far deadline must stay quiet this
 * long: a comparator nobody wrote fires at once. Both are virtual time under
 * QEMU -icount, where the check costs the boot about 1 ms. */
#define TIMER_PATIENCE_NS 10000000ull
#define TIMER_QUIET_NS    1000000ull

static const struct timer_source *try_sstc(const struct platform *platform)
{
	if (!platform->has_sstc)
		log_printf("timer: sstc: not every hart has Sstc\n");
	return platform->has_sstc ? &timer_source_sstc : 0;
}

static const struct timer_source *try_sbi(const struct platform *platform)
{
	(void)platform;
	bool available = sbi_timer_available();
	if (!available)
		log_printf("timer: sbi: the firmware has no SBI TIME extension\n");
	return available ? &timer_source_sbi : 0;
}

static const struct timer_source *try_sbi_legacy(const struct platform *platform)
{
	(void)platform;
	bool available = sbi_legacy_timer_available();
	if (!available)
		log_printf("timer: sbi-legacy: the firmware has no legacy set_timer either\n");
	return available ? &timer_source_sbi_legacy : 0;
}

/* The harts' own sources, in the default order: the hart's comparator, the firmware's
 * (TIME, then SBI 0.1's call). */
static const struct {
	const char *name;
	const struct timer_source *(*try)(const struct platform *platform);
} hart_sources[] = {{"sstc", try_sstc}, {"sbi", try_sbi}, {"sbi-legacy", try_sbi_legacy}};
#define HART_SOURCES ((int)(sizeof hart_sources / sizeof hart_sources[0]))

/* `source` if it interrupts when due (timer_source_check), else null; logged. */
static const struct timer_source *checked(const struct timer_source *source)
{
	if (!source)
		return 0;
	enum timer_health health = timer_source_check(source, TIMER_QUIET_NS, TIMER_PATIENCE_NS);
	if (health == TIMER_WORKS)
		return source;
	log_printf("timer: %s %s; trying the next source\n", source->name,
	           health == TIMER_EARLY
	               ? "interrupts long before the deadline (firmware without a timer driver?)"
	               : "raised no interrupt when due (firmware without a timer driver, or "
	                 "the interrupt does not reach this hart?)");
	return 0;
}

/* The source called `name` (a hart source or a timer driver), checked; null when the
 * machine lacks it or it does not work. Sets *known when the name means something. */
static const struct timer_source *try_named(const struct platform *platform, const char *name,
                                            bool *known)
{
	for (int i = 0; i < HART_SOURCES; i++)
		if (strcmp(hart_sources[i].name, name) == 0) {
			*known = true;
			return checked(hart_sources[i].try(platform));
		}
	*known = driver_exists(DRIVER_TIMER, name);
	return *known ? checked(drivers_bind_timer(platform, name)) : 0;
}

const struct timer_source *timer_choose(const struct platform *platform, const char *choice)
{
	if (choice) {
		bool known;
		const struct timer_source *source = try_named(platform, choice, &known);
		if (source)
			return source;
		log_printf("timer=%s: %s; using the default\n", choice,
		           known ? "not available on this machine"
		                 : "unknown (sstc, sbi, sbi-legacy, or a timer driver's name)");
	}
	/* The harts' own sources first; a timer device (drivers/timer/) only without them,
	 * in the driver table's order. */
	for (int i = 0; i < HART_SOURCES; i++) {
		if (choice && strcmp(hart_sources[i].name, choice) == 0)
			continue; /* tried above */
		const struct timer_source *source = checked(hart_sources[i].try(platform));
		if (source)
			return source;
	}
	for (int i = 0; i < driver_count; i++) {
		if (drivers[i].class != DRIVER_TIMER ||
		    (choice && strcmp(drivers[i].name, choice) == 0))
			continue;
		const struct timer_source *source =
		    checked(drivers_bind_timer(platform, drivers[i].name));
		if (source)
			return source;
	}
	panic("no timer: no Sstc, no working SBI timer and no known timer block in the "
	      "device tree that interrupts");
}
