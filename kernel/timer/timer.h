/* One-shot timers with nanosecond deadlines on the monotonic clock (clock.h).
 * Tickless: each hart keeps its pending timers sorted by deadline and programs the
 * hardware for the earliest one only, through the timer source kernel_main chose
 * (timer_source.h: Sstc, SBI or a SoC timer block). With nothing pending a keep-alive deadline is
 * programmed anyway, because QEMU with `-icount sleep=off` hangs in `wfi` with no timer armed.
 *
 * Callbacks run in interrupt context on the hart that armed the timer, with interrupts
 * masked and no timer lock held; they may re-arm timers and wake tasks, never sleep.
 * After calling a callback the timer code never touches that timer again, so a
 * callback's last action may be to wake the task that owns it. */
#ifndef DUPLEX_TIMER_H
#define DUPLEX_TIMER_H

#include <stdbool.h>
#include <stdint.h>

struct timer {
	uint64_t deadline_ns;
	void (*callback)(struct timer *timer);
	void *context; /* for the callback */
	struct timer *next;
	int hart_index; /* the queue it is armed on, -1 when idle */
};

/* How long the hardware may go without any deadline. */
#define TIMER_KEEPALIVE_NS 1000000000ull

struct timer_source;

/* Called on each hart by boot code before interrupts are enabled, with the same source
 * on every hart. */
void timers_init_hart(const struct timer_source *source);

void timer_init(struct timer *timer, void (*callback)(struct timer *timer), void *context);
/* Arm (or re-arm) on the calling hart. Any context; takes that hart's timer lock. */
void timer_start(struct timer *timer, uint64_t deadline_ns);
/* Disarm; true if it was pending (its callback will not run). If the callback was
 * already running on another hart, waits for it to return, so after timer_cancel
 * the caller may free the timer and whatever its callback uses. */
bool timer_cancel(struct timer *timer);
bool timer_is_pending(const struct timer *timer);

/* Called by the trap handler on a supervisor timer interrupt, or by a SoC timer's
 * interrupt handler (drivers/timer/), on the hart the interrupt is for. */
void timer_handle_interrupt(void);

/* Timer interrupts taken on this hart since boot (for the scheduler's statistics). */
uint64_t timer_interrupt_count(int hart_index);

#endif
