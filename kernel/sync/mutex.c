/* Sleeping locks over a wait queue; see mutex.h. */
#include "kernel/sync/mutex.h"

#include "kernel/lib/errno.h"

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

/* mutex_lock_for_call's wait when the mutex was taken. A waiter that leaves for a signal
 * may have been the one mutex_unlock woke: if the mutex is free, it passes that wake to
 * the next waiter, which would otherwise sleep on a free mutex. The fence orders our
 * unlinking before the look at `locked`, against mutex_unlock's store before its look
 * at the queue (wait_queue.c, wake): one of us sees the other. */
static int __attribute__((noinline)) lock_contended_interruptible(struct mutex *mutex)
{
	do {
		if (wait_queue_wait_interruptible(&mutex->waiters, mutex_free, mutex)) {
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			if (mutex_free(mutex))
				wait_queue_wake_one(&mutex->waiters);
			return -ERESTARTSYS;
		}
	} while (!mutex_trylock(mutex));
	return 0;
}

int mutex_lock_for_call(struct mutex *mutex, bool nonblocking)
{
	if (mutex_trylock(mutex))
		return 0;
	return nonblocking ? -EAGAIN : lock_contended_interruptible(mutex);
}

void mutex_unlock(struct mutex *mutex)
{
	__atomic_store_n(&mutex->locked, 0, __ATOMIC_RELEASE);
	wait_queue_wake_one(&mutex->waiters);
}
