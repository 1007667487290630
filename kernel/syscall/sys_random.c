/* getrandom(2) from the kernel's generator (kernel/random/random.h: not
 * cryptographically secure). It never blocks, so every flag combination Linux accepts
 * returns at once. */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/random/random.h"
#include "kernel/syscall/syscall.h"

/* include/uapi/linux/random.h */
#define GRND_NONBLOCK 0x1
#define GRND_RANDOM   0x2
#define GRND_INSECURE 0x4

/* Linux returns at most this much per call (drivers/char/random.c, MAX_RW_COUNT-ish
 * cap of 32 MiB - 1). */
#define GETRANDOM_MAX 0x1ffffff
#define CHUNK         256

long sys_getrandom(uint64_t buffer, uint64_t length, uint64_t flags, uint64_t a3, uint64_t a4,
                   uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	if ((flags & ~(uint64_t)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE)) ||
	    (flags & (GRND_RANDOM | GRND_INSECURE)) == (GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if (length > GETRANDOM_MAX)
		length = GETRANDOM_MAX;
	struct address_space *space = &process_current()->space;
	if (!user_range_in_bounds(buffer, length))
		return -EFAULT;
	uint8_t bytes[CHUNK];
	uint64_t done = 0;
	while (done < length) {
		uint64_t chunk = length - done < CHUNK ? length - done : CHUNK;
		random_bytes(bytes, chunk);
		if (copy_to_user(space, buffer + done, bytes, chunk) != 0)
			return done ? (long)done : -EFAULT;
		done += chunk;
	}
	return (long)done;
}
