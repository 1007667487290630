/* syslog(2) (Linux's number 116; glibc calls it klogctl): read and clear the kernel
 * log buffer (kernel/log/log.h), with Linux's semantics for the actions Duplex has:
 *   CLOSE (0), OPEN (1)      no-ops, return 0;
 *   READ_ALL (3)             copy the newest whole records that fit in `length` bytes,
 *                            oldest first, without consuming them; returns the bytes;
 *   READ_CLEAR (4)           the same, then CLEAR;
 *   CLEAR (5)                later reads start after the records held now;
 *   SIZE_BUFFER (10)         the buffer's size in bytes.
 * Records are the console's lines, "[seconds.micros] hN text\n" (no "<level>" prefix:
 * the kernel log has no levels). The destructive READ (2), the console switches (6, 7,
 * 8) and SIZE_UNREAD (9) are not provided: -EINVAL, as Linux answers an unknown action.
 * Bad buffers: NULL or a negative length -EINVAL, an unmapped one -EFAULT. */
#include "kernel/syscall/syscall.h"

#include "kernel/lib/errno.h"
#include "kernel/log/log.h"
#include "kernel/mm/address_space.h"
#include "kernel/proc/process.h"

enum {
	SYSLOG_ACTION_CLOSE = 0,
	SYSLOG_ACTION_OPEN = 1,
	SYSLOG_ACTION_READ_ALL = 3,
	SYSLOG_ACTION_READ_CLEAR = 4,
	SYSLOG_ACTION_CLEAR = 5,
	SYSLOG_ACTION_SIZE_BUFFER = 10,
};

/* READ_ALL: skip the oldest records until the rest fit, then copy them one by one
 * through a line on the stack (the log lock is never held across a user copy). A
 * record overwritten meanwhile is left out, so the total never exceeds `length`.
 * Task context; may fault (-EFAULT, some bytes copied, as on Linux). */
static long read_all(uint64_t address, uint64_t length, uint64_t *upto)
{
	uint64_t first, next, total = 0;
	log_range(&first, &next);
	*upto = next;
	for (uint64_t n = first; n < next; n++)
		total += log_copy_record(n, 0);
	while (first < next && total > length)
		total -= log_copy_record(first++, 0);
	struct address_space *space = &process_current()->space;
	if (!user_range_in_bounds(address, length) ||
	    !user_range_ok(space, address, total, USER_WRITE))
		return -EFAULT;
	char line[LOG_LINE_MAX];
	uint64_t done = 0;
	for (uint64_t n = first; n < next; n++) {
		size_t size = log_copy_record(n, line);
		if (size == 0 || done + size > length)
			continue;
		if (copy_to_user(space, address + done, line, size) != 0)
			return -EFAULT;
		done += size;
	}
	return (long)done;
}

long sys_syslog(uint64_t action, uint64_t address, uint64_t length, uint64_t a3, uint64_t a4,
                uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	int signed_length = (int)length;
	uint64_t upto;
	long result;
	switch ((int)action) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!address || signed_length < 0)
			return -EINVAL;
		if (signed_length == 0)
			return 0;
		result = read_all(address, (uint64_t)signed_length, &upto);
		if (result >= 0 && (int)action == SYSLOG_ACTION_READ_CLEAR)
			log_clear(upto);
		return result;
	case SYSLOG_ACTION_CLEAR:
		log_clear(UINT64_MAX);
		return 0;
	case SYSLOG_ACTION_SIZE_BUFFER:
		return (long)log_buffer_bytes();
	default:
		return -EINVAL;
	}
}
