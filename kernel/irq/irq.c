/* External interrupt dispatch; see irq.h. */
#include "kernel/irq/irq.h"

#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/log/log.h"
#include "kernel/sync/spinlock.h"

struct irq_slot {
	irq_handler_fn handler;
	void *context;
	uint64_t count;
};

static const struct irq_chip_ops *chip;
static struct irq_slot slots[IRQ_MAX_SOURCES];
static uint64_t spurious;
/* Per hart: when its current dispatch began (irq_entered_ticks). One CSR read and a
 * store per interrupt; each hart writes only its own slot. */
static uint64_t entered_ticks[MAX_HARTS];

void irq_set_chip(const struct irq_chip_ops *new_chip)
{
	chip = new_chip;
}

void irq_init_hart(void)
{
	if (chip)
		chip->init_hart(this_hart()->index);
}

int irq_register(uint32_t irq, irq_handler_fn handler, void *context, int hart_index)
{
	if (!chip || irq == 0 || irq >= IRQ_MAX_SOURCES || slots[irq].handler)
		return -1;
	slots[irq].context = context;
	__atomic_store_n(&slots[irq].handler, handler, __ATOMIC_RELEASE);
	chip->enable(irq, hart_index);
	return 0;
}

bool irq_pending(uint32_t irq)
{
	return chip && chip->pending && irq > 0 && irq < IRQ_MAX_SOURCES && chip->pending(irq);
}

void irq_handle_external(void)
{
	int hart_index = this_hart()->index;
	entered_ticks[hart_index] = read_time();
	if (!chip)
		return;
	/* Claim until the controller has nothing more for this hart: one trap can serve
	 * several sources. */
	for (;;) {
		uint32_t irq = chip->claim(hart_index);
		if (irq == 0)
			break;
		struct irq_slot *slot = irq < IRQ_MAX_SOURCES ? &slots[irq] : 0;
		irq_handler_fn handler =
		    slot ? __atomic_load_n(&slot->handler, __ATOMIC_ACQUIRE) : 0;
		if (handler) {
			slot->count++;
			handler(slot->context);
		} else {
			spurious++;
		}
		chip->complete(irq, hart_index);
	}
}

bool irq_raise_software(uint32_t irq)
{
	if (irq == 0 || irq >= IRQ_MAX_SOURCES)
		return false;
	struct irq_slot *slot = &slots[irq];
	irq_handler_fn handler = __atomic_load_n(&slot->handler, __ATOMIC_ACQUIRE);
	if (!handler)
		return false;
	irq_push_off(); /* as in a trap: the handler never runs with interrupts on */
	entered_ticks[this_hart()->index] = read_time();
	slot->count++;
	handler(slot->context);
	irq_pop_off();
	return true;
}

uint64_t irq_entered_ticks(void)
{
	return entered_ticks[this_hart()->index];
}

uint64_t irq_count(uint32_t irq)
{
	return irq < IRQ_MAX_SOURCES ? slots[irq].count : 0;
}
