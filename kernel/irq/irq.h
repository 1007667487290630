/* External interrupts: a dispatch table that drivers register handlers into, over
 * whichever interrupt controller driver registered itself (the PLIC on both boards).
 * Handlers run in interrupt context with interrupts masked; they must not sleep. */
#ifndef DUPLEX_IRQ_H
#define DUPLEX_IRQ_H

#include <stdbool.h>
#include <stdint.h>

#define IRQ_MAX_SOURCES 256

typedef void (*irq_handler_fn)(void *context);

/* What the kernel needs from an interrupt controller driver. */
struct irq_chip_ops {
	const char *name;
	void (*init_hart)(int hart_index);            /* accept interrupts on this hart */
	void (*enable)(uint32_t irq, int hart_index); /* route irq to that hart */
	void (*disable)(uint32_t irq, int hart_index);
	uint32_t (*claim)(int hart_index); /* 0 when nothing is pending */
	void (*complete)(uint32_t irq, int hart_index);
	bool (*pending)(uint32_t irq); /* raised and not yet claimed */
};

/* Called by the controller driver at boot. */
void irq_set_chip(const struct irq_chip_ops *chip);
/* Called by each hart at boot, after irq_set_chip. */
void irq_init_hart(void);
/* Install `handler` for source `irq` and route it to `hart_index`. Boot or task
 * context. Returns 0, or -1 for a bad number, a taken source or no controller. */
int irq_register(uint32_t irq, irq_handler_fn handler, void *context, int hart_index);
/* Is source `irq` raised at the controller and not yet claimed? For the boot-time
 * check that a timer device's interrupt arrives (kernel/timer/timer_check.c). False
 * without a controller. Any context; never sleeps. */
bool irq_pending(uint32_t irq);
/* Called by the trap handler on a supervisor external interrupt. */
void irq_handle_external(void);
/* Run source `irq`'s registered handler now, on this hart, as if the controller had
 * claimed it: for interrupt sources simulated in software (the UART line model's TX
 * interrupt, drivers/uart/line_model.c, is raised from a timer callback). Any context
 * that holds no lock the handler takes; the handler runs with interrupts masked, as
 * from irq_handle_external, and is counted in irq_count. Unlike a claimed source it is
 * not serialised by the controller: the handler may be running on another hart for a
 * real claim at the same time, so it must lock for that (the console backends do).
 * Returns false, and runs nothing, when no handler is registered for `irq`. */
bool irq_raise_software(uint32_t irq);
/* The `time` CSR when this hart's current external interrupt dispatch began
 * (irq_handle_external's first step, or irq_raise_software's): for a handler that
 * timestamps what its interrupt brought, such as the console's received bytes (the
 * benchmark times echo and ^C from it). Called from a handler, on its hart; any other
 * caller gets the last dispatch's time. Never sleeps. */
uint64_t irq_entered_ticks(void);
/* Interrupts handled for a source since boot. */
uint64_t irq_count(uint32_t irq);

#endif
