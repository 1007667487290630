/* The Allwinner D1 (sun20i) timer block: two 32-bit down-counters that raise PLIC
 * interrupts, used as the kernel's timer source (kernel/timer/timer_source.h) when the
 * firmware's SBI timer does not work (OpenSBI 1.1 on the D1, or a device tree without
 * the CLINT node: OpenSBI 1.2 release notes). Channel N serves hart index N.
 * DT: compatible "allwinner,sun20i-d1-timer" / "allwinner,sun8i-a23-timer", reg
 * 0x02050000, interrupts 75 and 76 (Linux sunxi-d1s-t113.dtsi).
 *
 * This file and sun20i_timer.c are the register logic alone, so host tests can run
 * them against a model of the block (tests/host/test_sun20i_timer.c);
 * sun20i_timer_probe.c joins them to the kernel. */
#ifndef DUPLEX_DRIVERS_SUN20I_TIMER_H
#define DUPLEX_DRIVERS_SUN20I_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#define SUN20I_TIMER_CHANNELS 2

/* Register offsets and bits: the "Timer" section of the Allwinner D1 User Manual; the
 * block is the one of the A10/A20/A23 (A20 User Manual 1.9.3, and Linux's
 * timer-sun4i.c, which drives "allwinner,sun8i-a23-timer", the D1's fallback
 * compatible). */
#define SUN20I_TIMER_IRQ_ENABLE  0x00 /* bit N: channel N's interrupt enabled */
#define SUN20I_TIMER_IRQ_STATUS  0x04 /* bit N: channel N reached 0; write 1 to clear */
#define SUN20I_TIMER_CONTROL(n)  (0x10 + 0x10 * (n))
#define SUN20I_TIMER_INTERVAL(n) (0x14 + 0x10 * (n)) /* loaded into the counter on RELOAD */
#define SUN20I_TIMER_CURRENT(n)  (0x18 + 0x10 * (n)) /* the counter, counting down */
/* CONTROL bits, same source. */
#define SUN20I_TIMER_ENABLE        (1u << 0)
#define SUN20I_TIMER_RELOAD        (1u << 1) /* load INTERVAL; hardware clears it when done */
#define SUN20I_TIMER_SOURCE_OSC24M (1u << 2) /* bits 3:2 = 01: the 24 MHz crystal */
#define SUN20I_TIMER_PRESCALE_MASK (7u << 4) /* bits 6:4: divide by 2^n; 0 = by 1 */
#define SUN20I_TIMER_SINGLE_SHOT   (1u << 7) /* stop at 0 instead of reloading */
/* The crystal the counters run from (D1 User Manual, "Timer": OSC24M). */
#define SUN20I_TIMER_CLOCK_HZ 24000000u
/* Between clearing ENABLE and setting it again more than 2 counter clock cycles must
 * pass (A20 User Manual 1.9.3.3, TMR0_EN: "the time between the timer disabled and
 * enabled should be larger than 2*Tcycles"; Linux timer-sun4i.c waits the same). The
 * interval may be changed while the timer is stopped, and RELOAD must be set together
 * with ENABLE for the counter to start from the new interval (same note). */
#define SUN20I_TIMER_SYNC_CYCLES 3

struct sun20i_timer {
	volatile uint8_t *registers;
	uint32_t clock_hz;    /* the counters' clock: SUN20I_TIMER_CLOCK_HZ */
	uint32_t timebase_hz; /* the `time` CSR's, in which deadlines come */
	/* Register access: null means MMIO (the kernel); host tests install a model's. */
	uint32_t (*read_register)(struct sun20i_timer *timer, uint32_t offset);
	void (*write_register)(struct sun20i_timer *timer, uint32_t offset, uint32_t value);
	/* The `time` CSR (the probe's rdtime; host tests: the model's clock). Required. */
	uint64_t (*read_time)(struct sun20i_timer *timer);
	void *access_context;
};

/* Stop both channels, drop anything pending, select the 24 MHz crystal undivided and
 * single-shot mode, and enable the interrupt of the first `channels` channels. Called
 * once by the probe on the boot hart, before any channel is programmed. */
void sun20i_timer_setup(struct sun20i_timer *timer, int channels);

/* Make `channel` interrupt once `time` >= deadline_ticks (timebase ticks), never
 * earlier; a deadline past, or nearer than the counter can resolve, interrupts within
 * one counter tick. Farther than the 32-bit counter reaches (179 s at 24 MHz) it
 * interrupts early and the timer code, finding nothing due, programs again. Replaces
 * the channel's earlier request and clears its pending interrupt. Called by the
 * channel's own hart with interrupts masked; spins for SUN20I_TIMER_SYNC_CYCLES. */
void sun20i_timer_program(struct sun20i_timer *timer, int channel, uint64_t deadline_ticks);

/* Clear `channel`'s pending interrupt; false if it had none (a spurious call).
 * Called by the interrupt handler of that channel. */
bool sun20i_timer_acknowledge(struct sun20i_timer *timer, int channel);

#endif
