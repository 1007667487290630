/* Spinlocks and interrupt masking; see spinlock.h.
 *
 * Every console system call takes one or two of these, so the uncontended paths are
 * kept short: the misuse checks stay, but their reports, and the spinning, live in
 * out-of-line functions, so that the common path keeps few registers to save. */
#include "kernel/sync/spinlock.h"

#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/panic/panic.h"

/* The misuse reports: out of line and cold, away from the callers' common paths. Any
 * context; never return. */
static void __attribute__((noinline, cold, noreturn)) held_twice(const struct spinlock *lock)
{
	panic("spin_lock: %s already held by this hart", lock->name);
}

static void __attribute__((noinline, cold, noreturn)) not_held(const struct spinlock *lock)
{
	panic("spin_unlock: %s not held by this hart", lock->name);
}

static void __attribute__((noinline, cold, noreturn)) bad_pop(const char *why)
{
	panic("%s", why);
}

/* irq_push_off's body, for spin_lock too. csrrc reads the old state and masks in one
 * instruction, so no interrupt can come between the two. */
static inline struct hart *push_off(void)
{
	uint64_t sstatus;
	__asm__ volatile("csrrc %0, sstatus, %1" : "=r"(sstatus) : "i"(SSTATUS_SIE) : "memory");
	struct hart *hart = this_hart();
	if (hart->irq_off_depth++ == 0)
		hart->irq_were_enabled = (sstatus & SSTATUS_SIE) != 0;
	return hart;
}

/* irq_pop_off's body, for spin_unlock too. Interrupts are masked, so `hart` is ours. */
static inline void pop_off(struct hart *hart)
{
	if (interrupts_enabled())
		bad_pop("irq_pop_off with interrupts enabled");
	if (hart->irq_off_depth < 1)
		bad_pop("irq_pop_off without irq_push_off");
	if (--hart->irq_off_depth == 0 && hart->irq_were_enabled)
		interrupts_enable();
}

void irq_push_off(void)
{
	push_off();
}

void irq_pop_off(void)
{
	pop_off(this_hart());
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

/* spin_lock's contended path: spin on plain loads until the lock looks free, then try
 * again. Called with interrupts masked; returns holding the lock. */
static void __attribute__((noinline)) spin_wait(struct spinlock *lock)
{
	do {
		uint32_t spins = 0;
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED)) {
			cpu_relax();
			/* Long wait: the holder may be a hart the emulator is not running. */
			if (++spins % SPINS_BEFORE_YIELD_HINT == 0)
				hart_yield_hint();
		}
	} while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE) != 0);
}

void spin_lock(struct spinlock *lock)
{
	int me = push_off()->index + 1;
	if (lock->locked && lock->holder == me)
		held_twice(lock);
	if (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE) != 0)
		spin_wait(lock);
	lock->holder = me;
}

bool spin_trylock(struct spinlock *lock)
{
	struct hart *hart = push_off();
	if (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE) != 0) {
		pop_off(hart);
		return false;
	}
	lock->holder = hart->index + 1;
	return true;
}

void spin_unlock(struct spinlock *lock)
{
	struct hart *hart = this_hart();
	if (!lock->locked || lock->holder != hart->index + 1)
		not_held(lock);
	lock->holder = 0;
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
	pop_off(hart);
}
