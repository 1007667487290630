/* Spinlocks that mask interrupts on the holding hart, so an interrupt handler on the
 * same hart can never spin on a lock its own hart holds (xv6-riscv's push_off/pop_off
 * discipline). Holding a spinlock also means no preemption: the timer interrupt that
 * would preempt is masked. Never sleep while holding one. */
#ifndef DUPLEX_SYNC_SPINLOCK_H
#define DUPLEX_SYNC_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct spinlock {
	volatile uint32_t locked;
	int holder; /* hart index + 1 while held, 0 when free: for diagnostics */
	const char *name;
};

#define SPINLOCK_INIT(lock_name)                                                                   \
	{                                                                                          \
		0, 0, lock_name                                                                    \
	}

void spinlock_init(struct spinlock *lock, const char *name);
void spin_lock(struct spinlock *lock);
void spin_unlock(struct spinlock *lock);
bool spin_trylock(struct spinlock *lock);
bool spin_is_held_here(const struct spinlock *lock);

/* Nestable "interrupts off on this hart"; the outermost pop restores the state that
 * the outermost push found. Used by spin_lock and by code that needs this_hart() to
 * stay put. */
void irq_push_off(void);
void irq_pop_off(void);

#endif
