/* Sleeping locks: for long critical sections in task context (a polled console write
 * that takes milliseconds at 115200 baud must not run with interrupts masked).
 * Waiters park on a wait queue. Task context only; may sleep. */
#ifndef DUPLEX_SYNC_MUTEX_H
#define DUPLEX_SYNC_MUTEX_H

#include <stdbool.h>

#include "kernel/waker/wait_queue.h"

struct mutex {
	volatile int locked; /* int, not bool: rv64 has no byte-sized atomic swap */
	struct wait_queue waiters;
};

#define MUTEX_INIT(name)                                                                           \
	{                                                                                          \
		0,                                                                                 \
		{                                                                                  \
			SPINLOCK_INIT(name), 0                                                     \
		}                                                                                  \
	}

void mutex_lock(struct mutex *mutex);
/* A system call's lock, as Linux's tty_write_lock: 0 with the mutex held; -EAGAIN at
 * once if it is taken and `nonblocking` (the file is O_NONBLOCK); else the wait for it
 * ends with -ERESTARTSYS (kernel/lib/errno.h), not held, when the task has signal work
 * first, as Linux's mutex_lock_interruptible. Task context; may sleep unless
 * `nonblocking`. */
int mutex_lock_for_call(struct mutex *mutex, bool nonblocking);
/* Never sleeps: usable where sleeping is not allowed. */
bool mutex_trylock(struct mutex *mutex);
void mutex_unlock(struct mutex *mutex);

#endif
