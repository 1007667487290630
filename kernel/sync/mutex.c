/* Sleeping locks over a wait queue; see mutex.h. */
#include "kernel/sync/mutex.h"

bool mutex_trylock(struct mutex *mutex)
{
	return __atomic_exchange_n(&mutex->locked, 1, __ATOMIC_ACQUIRE) == 0;
}

static bool mutex_free(void *argument)
{
	struct mutex *mutex = argument;
	return !__atomic_load_n(&mutex->locked, __ATOMIC_RELAXED);
}

/* mutex_lock when the mutex was taken: park until it is free, try again. Out of line,
 * so that an uncontended mutex_lock saves no registers for it. Task context; sleeps. */
static void __attribute__((noinline)) lock_contended(struct mutex *mutex)
{
	do
		wait_queue_wait(&mutex->waiters, mutex_free, mutex);
	while (!mutex_trylock(mutex));
}

void mutex_lock(struct mutex *mutex)
{
	if (!mutex_trylock(mutex))
		lock_contended(mutex);
}

void mutex_unlock(struct mutex *mutex)
{
	__atomic_store_n(&mutex->locked, 0, __ATOMIC_RELEASE);
	wait_queue_wake_one(&mutex->waiters);
}
