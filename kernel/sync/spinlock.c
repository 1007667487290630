/* Spinlocks and interrupt masking; see spinlock.h. */
#include "sync/spinlock.h"

#include "hart/csr.h"
#include "hart/hart.h"
#include "panic/panic.h"

void irq_push_off(void)
{
	bool were_enabled = interrupts_enabled();
	interrupts_disable();
	struct hart *hart = this_hart();
	if (hart->irq_off_depth == 0)
		hart->irq_were_enabled = were_enabled;
	hart->irq_off_depth++;
}

void irq_pop_off(void)
{
	struct hart *hart = this_hart();
	if (interrupts_enabled())
		panic("irq_pop_off with interrupts enabled");
	if (hart->irq_off_depth < 1)
		panic("irq_pop_off without irq_push_off");
	hart->irq_off_depth--;
	if (hart->irq_off_depth == 0 && hart->irq_were_enabled)
		interrupts_enable();
}

/* A few microseconds of spinning on real hardware; see hart_yield_hint. */
#define SPINS_BEFORE_YIELD_HINT 256

void spinlock_init(struct spinlock *lock, const char *name)
{
	lock->locked = 0;
	lock->holder = 0;
	lock->name = name;
}

bool spin_is_held_here(const struct spinlock *lock)
{
	return lock->locked && lock->holder == this_hart()->index + 1;
}

void spin_lock(struct spinlock *lock)
{
	irq_push_off();
	if (spin_is_held_here(lock))
		panic("spin_lock: %s already held by this hart", lock->name);
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE) != 0) {
		uint32_t spins = 0;
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED)) {
			cpu_relax();
			/* Long wait: the holder may be a hart the emulator is not running. */
			if (++spins % SPINS_BEFORE_YIELD_HINT == 0)
				hart_yield_hint();
		}
	}
	lock->holder = this_hart()->index + 1;
}

bool spin_trylock(struct spinlock *lock)
{
	irq_push_off();
	if (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE) != 0) {
		irq_pop_off();
		return false;
	}
	lock->holder = this_hart()->index + 1;
	return true;
}

void spin_unlock(struct spinlock *lock)
{
	if (!spin_is_held_here(lock))
		panic("spin_unlock: %s not held by this hart", lock->name);
	lock->holder = 0;
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
	irq_pop_off();
}
