/* ppoll and pselect6: wait until one of several descriptors is ready or a timeout (in
 * guest time) passes, as Linux's fs/select.c does. Each file's poll op says what it is
 * ready for and names the wait queues a change is announced on (kernel/waker/
 * poll_table.h); the caller is linked into all of them and parks under the park
 * protocol, so a wake from any file (or the timeout's timer) ends the wait and none is
 * lost. Files without a poll op (archive files, /dev/null) are always ready.
 *
 * Signals: the wait is interruptible, as Linux's: a signal that is not blocked ends it
 * with -ERESTARTNOHAND (EINTR when a handler runs, else the call runs again with the time
 * that was left, written back to the caller's timespec). The sigmask argument replaces
 * the blocked set for the wait, atomically with respect to signals (Linux
 * set_user_sigmask): a signal it unblocks that is already pending interrupts at once.
 * The old mask comes back on return, except when a signal interrupted: then it stays
 * saved (signal_state.restore_saved_mask, as sigsuspend) so that the handler runs with
 * the call's mask and its frame carries the old one, which sigreturn restores (Linux
 * restore_saved_sigmask_unless). */
#include <stdbool.h>

#include "kernel/fs/file.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/proc/process.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/deliver.h"
#include "kernel/syscall/syscall.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"
#include "kernel/waker/poll_table.h"
#include "uapi/poll.h"
#include "uapi/signal_action.h"
#include "uapi/time.h"

#define NS_PER_SECOND 1000000000ull
#define NEVER         UINT64_MAX
/* Linux: POLLIN_SET, POLLOUT_SET and POLLEX_SET of fs/select.c. */
#define SELECT_READ   (POLLIN | POLLRDNORM | POLLHUP | POLLERR)
#define SELECT_WRITE  (POLLOUT | POLLWRNORM | POLLERR)
#define SELECT_EXCEPT POLLPRI
/* select's descriptor sets: Linux reads bits only below its table size (max_fds, 64 on
 * a small 64-bit process), so one word per set. */
#define SELECT_BITS 64

/* struct pollfd (include/uapi/asm-generic/poll.h). */
struct linux_pollfd {
	int32_t fd;
	int16_t events;
	int16_t revents;
};

/* One descriptor being waited for: which events count, and what it had. */
struct poll_request {
	int fd;
	unsigned interest; /* events that make it ready */
	unsigned found;    /* what it had, within `interest` (POLLNVAL: not open) */
};

/* One look at every request; returns how many are ready. `table` non-NULL on the first
 * look, which links the caller into each file's queues. Never sleeps. */
static int look(struct process *process, struct poll_request *requests, int count,
                struct poll_table *table)
{
	int ready = 0;
	for (int i = 0; i < count; i++) {
		struct poll_request *request = &requests[i];
		request->found = 0;
		if (request->fd < 0)
			continue;
		struct file *file = process_file(process, (uint64_t)request->fd);
		if (!file)
			request->found = POLLNVAL;
		else
			request->found =
			    (file->ops->poll ? file->ops->poll(file, table) : FILE_POLL_DEFAULT) &
			    request->interest;
		if (request->found)
			ready++;
	}
	return ready;
}

/* The poll timeout's timer callback (interrupt context, any hart): wake the poller. */
static void wake_poller(struct timer *timer)
{
	sched_wake(timer->context);
}

/* Look until something is ready or `deadline` (clock_now_ns time; NEVER: no timeout;
 * 0: look once) passes, or a signal is due. Returns how many requests are ready, or
 * -ERESTARTNOHAND when a signal ended the wait with nothing ready (Linux do_poll: ready
 * descriptors win over a signal, and a zero timeout looks once without checking).
 * Task context; sleeps. */
static int wait_until_ready(struct process *process, struct poll_request *requests, int count,
                            uint64_t deadline)
{
	struct poll_table table;
	poll_table_init(&table);
	int ready = look(process, requests, count, &table);
	if (ready || deadline == 0) {
		poll_table_release(&table);
		return ready;
	}
	struct timer timer;
	timer_init(&timer, wake_poller, sched_current());
	sched_note_wait("poll", &table, deadline == NEVER ? 0 : deadline);
	for (;;) {
		/* A source with no queue to wake us (the polled console) is looked at again
		 * every recheck_ns. */
		uint64_t wake_at = deadline;
		if (table.recheck_ns) {
			uint64_t recheck = clock_now_ns() + table.recheck_ns;
			if (recheck < wake_at)
				wake_at = recheck;
		}
		/* Prepared before the timer is armed: a timer that fires at once (the hart
		 * held up past wake_at, by interrupts or by a host that did not run it) then
		 * leaves wake_pending set and sched_park returns. Prepared after it, that
		 * wake-up was cleared, and a poller of the polled console, which nothing
		 * else wakes, slept for ever (tests/test_tty_flood.py's polling reader). */
		sched_prepare_park();
		if (wake_at != NEVER)
			timer_start(&timer, wake_at);
		ready = look(process, requests, count, 0);
		if (ready || clock_now_ns() >= deadline)
			break;
		if (sched_signal_pending()) { /* sched_signal_wake ends sched_park too */
			ready = -ERESTARTNOHAND;
			break;
		}
		sched_park();
		timer_cancel(&timer);
	}
	sched_note_wait_done();
	timer_cancel(&timer);
	poll_table_release(&table);
	return ready;
}

/* A relative timeout at `address` (0: none) as a deadline: NEVER, or clock_now_ns time
 * (0 when the timeout is zero: look once). -EFAULT / -EINVAL as Linux. */
static int read_deadline(struct process *process, uint64_t address, uint64_t *deadline)
{
	*deadline = NEVER;
	if (!address)
		return 0;
	struct linux_timespec time;
	if (copy_from_user(&process->space, &time, address, sizeof time) != 0)
		return -EFAULT;
	if (time.seconds < 0 || time.nanoseconds < 0 || (uint64_t)time.nanoseconds >= NS_PER_SECOND)
		return -EINVAL;
	if (time.seconds == 0 && time.nanoseconds == 0) {
		*deadline = 0;
		return 0;
	}
	uint64_t now = clock_now_ns(), seconds = (uint64_t)time.seconds;
	if (seconds >= (NEVER - now) / NS_PER_SECOND - 1)
		return 0; /* beyond the clock's range: no timeout */
	*deadline = now + seconds * NS_PER_SECOND + (uint64_t)time.nanoseconds;
	return 0;
}

/* Linux writes the time left back into the caller's timespec (poll_select_finish); a
 * failure to do so is ignored, as there. */
static void write_time_left(struct process *process, uint64_t address, uint64_t deadline)
{
	if (!address || deadline == 0 || deadline == NEVER)
		return;
	uint64_t now = clock_now_ns(), left = deadline > now ? deadline - now : 0;
	struct linux_timespec time = {(int64_t)(left / NS_PER_SECOND),
	                              (int64_t)(left % NS_PER_SECOND)};
	copy_to_user(&process->space, address, &time, sizeof time);
}

/* A signal mask argument (0: none): read it (-EINVAL unless sigset_t-sized, -EFAULT)
 * and make it the blocked set for the wait, the old one saved. *applied says whether it
 * was. Called last among the argument checks, as Linux's set_user_sigmask is, so a
 * failing call leaves the mask alone. */
static int apply_sigmask(struct process *process, uint64_t address, uint64_t size, bool *applied)
{
	*applied = false;
	if (!address)
		return 0;
	if (size != SIGSET_SIZE)
		return -EINVAL;
	uint64_t mask;
	if (copy_from_user(&process->space, &mask, address, sizeof mask) != 0)
		return -EFAULT;
	process->signals.saved_mask = process->signal_mask;
	process->signals.restore_saved_mask = true;
	signal_set_blocked(process, mask);
	*applied = true;
	return 0;
}

/* The call is ending with `result`: put the old mask back now, unless a signal
 * interrupted, when signal delivery does it after setting up the handler's frame (or
 * before the call runs again). */
static void finish_sigmask(struct process *process, bool applied, long result)
{
	if (!applied || result == -ERESTARTNOHAND)
		return;
	process->signals.restore_saved_mask = false;
	signal_set_blocked(process, process->signals.saved_mask);
}

/* ppoll(fds, nfds, timeout, sigmask, sigsetsize): fills each entry's revents (its
 * events, plus POLLERR and POLLHUP always, POLLNVAL for a descriptor not open; a
 * negative fd is skipped) and returns how many have any, 0 on timeout. -EINVAL for more
 * entries than RLIMIT_NOFILE (the table's size) or a bad timeout, -EFAULT for memory
 * that cannot be read or written. */
long sys_ppoll(uint64_t fds_address, uint64_t count, uint64_t timeout, uint64_t sigmask,
               uint64_t sigset_size, uint64_t a5)
{
	(void)a5;
	struct process *process = process_current();
	if (count > PROCESS_MAX_FILES)
		return -EINVAL;
	struct linux_pollfd fds[PROCESS_MAX_FILES];
	struct poll_request requests[PROCESS_MAX_FILES];
	size_t size = count * sizeof fds[0];
	if (count && copy_from_user(&process->space, fds, fds_address, size) != 0)
		return -EFAULT;
	uint64_t deadline;
	bool masked;
	int error = read_deadline(process, timeout, &deadline);
	if (!error)
		error = apply_sigmask(process, sigmask, sigset_size, &masked);
	if (error)
		return error;
	for (uint64_t i = 0; i < count; i++)
		requests[i] = (struct poll_request){
		    fds[i].fd, (unsigned)(uint16_t)fds[i].events | POLLERR | POLLHUP, 0};
	long result = wait_until_ready(process, requests, (int)count, deadline);
	for (uint64_t i = 0; i < count; i++)
		fds[i].revents = result < 0 ? 0 : (int16_t)requests[i].found;
	if (count && copy_to_user(&process->space, fds_address, fds, size) != 0)
		result = -EFAULT;
	write_time_left(process, timeout, deadline);
	finish_sigmask(process, masked, result);
	return result;
}

/* One of select's descriptor sets: the first word at `address` (0: none), bits at and
 * above `count` cleared. */
static int read_set(struct process *process, uint64_t address, int count, uint64_t *set)
{
	*set = 0;
	if (!address)
		return 0;
	if (copy_from_user(&process->space, set, address, sizeof *set) != 0)
		return -EFAULT;
	if (count < SELECT_BITS)
		*set &= (1ull << count) - 1;
	return 0;
}

/* pselect6(nfds, readfds, writefds, exceptfds, timeout, {sigmask, size}): the sets
 * keep the descriptors ready for reading / writing / an exception, and the return
 * value counts the bits left, 0 on timeout. -EBADF for a set bit naming a descriptor
 * that is not open, -EINVAL for nfds < 0 or a bad timeout or mask size. */
long sys_pselect6(uint64_t nfds, uint64_t read_address, uint64_t write_address,
                  uint64_t except_address, uint64_t timeout, uint64_t sigmask_address)
{
	struct process *process = process_current();
	if ((int64_t)(int32_t)nfds < 0)
		return -EINVAL;
	int count = (int)nfds < SELECT_BITS ? (int)nfds : SELECT_BITS;
	uint64_t sets[3];
	const uint64_t addresses[3] = {read_address, write_address, except_address};
	for (int s = 0; s < 3; s++) {
		int error = read_set(process, addresses[s], count, &sets[s]);
		if (error)
			return error;
	}
	uint64_t deadline;
	int error = read_deadline(process, timeout, &deadline);
	if (error)
		return error;
	uint64_t sigmask[2] = {0, 0}; /* struct { const sigset_t *ss; size_t ss_len; } */
	if (sigmask_address &&
	    copy_from_user(&process->space, sigmask, sigmask_address, sizeof sigmask) != 0)
		return -EFAULT;
	struct poll_request requests[SELECT_BITS];
	int used = 0;
	const unsigned interests[3] = {SELECT_READ, SELECT_WRITE, SELECT_EXCEPT};
	for (int fd = 0; fd < count; fd++) {
		unsigned interest = 0;
		for (int s = 0; s < 3; s++)
			if (sets[s] >> fd & 1)
				interest |= interests[s];
		if (!interest)
			continue;
		if (!process_file(process, (uint64_t)fd))
			return -EBADF;
		requests[used++] = (struct poll_request){fd, interest, 0};
	}
	bool masked;
	error = apply_sigmask(process, sigmask[0], sigmask[1], &masked);
	if (error)
		return error;
	long result = wait_until_ready(process, requests, used, deadline);
	if (result < 0) { /* Linux core_sys_select: the sets are left as they were */
		write_time_left(process, timeout, deadline);
		finish_sigmask(process, masked, result);
		return result;
	}
	uint64_t results[3] = {0, 0, 0};
	long bits = 0;
	for (int i = 0; i < used; i++) {
		for (int s = 0; s < 3; s++) {
			if ((sets[s] >> requests[i].fd & 1) && (requests[i].found & interests[s])) {
				results[s] |= 1ull << requests[i].fd;
				bits++;
			}
		}
	}
	for (int s = 0; s < 3; s++) {
		if (addresses[s] && copy_to_user(&process->space, addresses[s], &results[s],
		                                 sizeof results[s]) != 0)
			bits = -EFAULT;
	}
	write_time_left(process, timeout, deadline);
	finish_sigmask(process, masked, bits);
	return bits;
}
