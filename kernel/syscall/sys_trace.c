/* The event tracer's system call and its system call hooks.
 *
 * trace_control(op, argument, buffer, size) (Duplex's own number 502, ops in
 * uapi/trace_record.h): switch classes on and off, reset, read the status and copy
 * records out. /bin/trace is its user. Any program may call it: Duplex is for a class
 * looking at its own machine.
 *
 * syscall_trace_enter / syscall_trace_exit: called by syscall_entry when the syscall
 * class is on, here rather than there so that the dispatcher stays short. */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/sync/spinlock.h"
#include "kernel/syscall/syscall.h"
#include "kernel/timer/clock.h"
#include "kernel/trace/trace.h"

#define READ_BATCH 32 /* records copied out per copy_to_user */

/* Two records: the number and arguments 0..2, then the pid and arguments 3..5, with
 * interrupts masked between them so that both land on one hart, one after the other.
 * Task context; never sleeps. */
void syscall_trace_enter(uint64_t number, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                         uint64_t a4, uint64_t a5)
{
	irq_push_off();
	trace_emit(TRACE_SYSCALL_ENTER, (uint32_t)number, a0, a1, a2);
	trace_emit(TRACE_SYSCALL_ARGS, (uint32_t)process_current()->pid, a3, a4, a5);
	irq_pop_off();
}

/* Task context; never sleeps. */
void syscall_trace_exit(uint64_t number, long result)
{
	trace_emit(TRACE_SYSCALL_EXIT, (uint32_t)number, (uint64_t)result,
	           (uint64_t)process_current()->pid, 0);
}

/* TRACE_OP_READ: records of one hart, copied out a batch at a time through a kernel
 * buffer (user memory is only touched by copy_to_user). */
static long read_records(uint64_t argument, uint64_t buffer, uint64_t size)
{
	uint32_t hart = (uint32_t)(argument >> 32);
	uint32_t first = (uint32_t)argument;
	uint64_t wanted = size / sizeof(struct trace_record);
	struct trace_record batch[READ_BATCH];
	uint64_t done = 0;
	while (done < wanted) {
		uint32_t max = wanted - done < READ_BATCH ? (uint32_t)(wanted - done) : READ_BATCH;
		uint32_t got = trace_copy(hart, first + (uint32_t)done, batch, max);
		if (got == 0)
			break;
		if (copy_to_user(&process_current()->space, buffer + done * sizeof batch[0], batch,
		                 got * sizeof batch[0]) != 0)
			return -EFAULT;
		done += got;
	}
	return (long)done;
}

long sys_trace_control(uint64_t op, uint64_t argument, uint64_t buffer, uint64_t size, uint64_t a4,
                       uint64_t a5)
{
	(void)a4, (void)a5;
	switch (op) {
	case TRACE_OP_SET_MASK: {
		if (argument & ~(uint64_t)TRACE_ALL)
			return -EINVAL;
		long old = trace_set_mask((uint32_t)argument);
		return old < 0 ? -ENOMEM : old;
	}
	case TRACE_OP_RESET:
		trace_reset();
		return 0;
	case TRACE_OP_STATUS: {
		struct trace_status status;
		if (size < sizeof status)
			return -EINVAL;
		trace_get_status(&status);
		status.timebase_hz = clock_timebase_hz();
		if (copy_to_user(&process_current()->space, buffer, &status, sizeof status) != 0)
			return -EFAULT;
		return 0;
	}
	case TRACE_OP_READ:
		return read_records(argument, buffer, size);
	default:
		return -EINVAL;
	}
}
