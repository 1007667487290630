/* The timer source choice; see timer_choice.h. */
#include "kernel/boot/timer_choice.h"

#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/panic/panic.h"
#include "kernel/sbi/sbi.h"
#include "drivers/base/bind.h"

/* How long a working SBI timer may take to raise an interrupt that is already due: an
 * ecall and a machine timer interrupt, microseconds; a broken one never does. A
 * quarter of it is spent checking that a far deadline stays quiet. */
#define SBI_TIMER_PATIENCE_NS 10000000ull

static const struct timer_source *try_sstc(const struct platform *platform)
{
	return platform->has_sstc ? &timer_source_sstc : 0;
}

static const struct timer_source *try_sbi(const struct platform *platform)
{
	(void)platform;
	if (!sbi_timer_available()) {
		log_printf("timer: the firmware has no SBI TIME extension\n");
		return 0;
	}
	enum sbi_timer_health health = sbi_timer_check(SBI_TIMER_PATIENCE_NS);
	if (health != SBI_TIMER_WORKS) {
		log_printf("timer: SBI set_timer %s (firmware without a timer driver?)\n",
		           health == SBI_TIMER_EARLY ? "interrupts long before the deadline"
		                                     : "raised no interrupt when due");
		return 0;
	}
	return &timer_source_sbi;
}

const struct timer_source *timer_choose(const struct platform *platform, const char *choice)
{
	/* The harts' own timers first; a timer device (drivers/timer/) only without them. */
	static const struct {
		const char *name;
		const struct timer_source *(*try)(const struct platform *platform);
	} sources[] = {{"sstc", try_sstc}, {"sbi", try_sbi}};
	const int count = sizeof(sources) / sizeof(sources[0]);

	int forced = -1;
	if (choice) {
		/* timer=NAME: one of the harts' sources, or a timer driver's name (the
		 * driver table, drivers/base/drivers.c). */
		while (++forced < count && strcmp(sources[forced].name, choice) != 0)
			;
		bool driver = forced == count && driver_exists(DRIVER_TIMER, choice);
		const struct timer_source *source = driver ? drivers_bind_timer(platform, choice)
		                                    : forced < count ? sources[forced].try(platform)
		                                                     : 0;
		if (source)
			return source;
		log_printf("timer=%s: %s; using the default\n", choice,
		           driver || forced < count
		               ? "not available on this machine"
		               : "unknown (sstc, sbi, or a timer driver's name)");
	}
	for (int i = 0; i < count; i++) {
		const struct timer_source *source = i == forced ? 0 : sources[i].try(platform);
		if (source)
			return source;
	}
	/* Else the first timer device the device tree has (the table's order). */
	const struct timer_source *device = drivers_bind_timer(platform, 0);
	if (device)
		return device;
	panic("no timer: no Sstc, no working SBI timer and no known timer block in the "
	      "device tree");
}
