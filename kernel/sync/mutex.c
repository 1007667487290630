/* Sleeping locks over a wait queue; see mutex.h. */
#include "sync/mutex.h"

bool mutex_trylock(struct mutex *mutex)
{
	return __atomic_exchange_n(&mutex->locked, 1, __ATOMIC_ACQUIRE) == 0;
}

static bool mutex_free(void *argument)
{
	struct mutex *mutex = argument;
	return !__atomic_load_n(&mutex->locked, __ATOMIC_RELAXED);
}

void mutex_lock(struct mutex *mutex)
{
	while (!mutex_trylock(mutex))
		wait_queue_wait(&mutex->waiters, mutex_free, mutex);
}

void mutex_unlock(struct mutex *mutex)
{
	__atomic_store_n(&mutex->locked, 0, __ATOMIC_RELEASE);
	wait_queue_wake_one(&mutex->waiters);
}
