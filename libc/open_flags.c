/* picolibc O_ flags <-> Linux O_ flags.
 *
 * picolibc's <fcntl.h> numbers the open flags its own way (O_NONBLOCK is 0x4000 there,
 * 0x800 in Linux), and picolibc code such as fopen() passes them to open(), so libc keeps
 * picolibc's values and translates here. The access mode (O_RDONLY 0, O_WRONLY 1,
 * O_RDWR 2) is the same in both. */
#include <fcntl.h>

#include "internal.h"

/* Linux values (include/uapi/asm-generic/fcntl.h, as uapi/fcntl.h has them under the
 * names picolibc's <fcntl.h> takes for its own, so that header is not included here). */
#define LINUX_O_ACCMODE   00000003
#define LINUX_O_CREAT     00000100
#define LINUX_O_EXCL      00000200
#define LINUX_O_NOCTTY    00000400
#define LINUX_O_TRUNC     00001000
#define LINUX_O_APPEND    00002000
#define LINUX_O_NONBLOCK  00004000
#define LINUX_O_DSYNC     00010000
#define LINUX_O_DIRECT    00040000
#define LINUX_O_DIRECTORY 00200000
#define LINUX_O_NOFOLLOW  00400000
#define LINUX_O_CLOEXEC   02000000
#define LINUX_O_SYNC      04010000 /* includes O_DSYNC */

static const struct {
	int picolibc;
	long linux_flag;
} open_flag_map[] = {
    {O_CREAT, LINUX_O_CREAT},     {O_EXCL, LINUX_O_EXCL},           {O_NOCTTY, LINUX_O_NOCTTY},
    {O_TRUNC, LINUX_O_TRUNC},     {O_APPEND, LINUX_O_APPEND},       {O_NONBLOCK, LINUX_O_NONBLOCK},
    {O_DIRECT, LINUX_O_DIRECT},   {O_DIRECTORY, LINUX_O_DIRECTORY}, {O_NOFOLLOW, LINUX_O_NOFOLLOW},
    {O_CLOEXEC, LINUX_O_CLOEXEC}, {O_SYNC, LINUX_O_SYNC},
};

#define OPEN_FLAG_COUNT (sizeof(open_flag_map) / sizeof(open_flag_map[0]))

/* Called by openat() and fcntl(F_SETFL). */
long libc_open_flags_to_linux(int flags)
{
	long linux_flags = flags & O_ACCMODE;
	int unknown = flags & ~O_ACCMODE;

	for (unsigned i = 0; i < OPEN_FLAG_COUNT; i++) {
		if (flags & open_flag_map[i].picolibc) {
			linux_flags |= open_flag_map[i].linux_flag;
			unknown &= ~open_flag_map[i].picolibc;
		}
	}
	return unknown ? -1 : linux_flags;
}

/* Called by fcntl(F_GETFL). O_SYNC is tested as a whole so that O_DSYNC alone (which
 * picolibc cannot name) does not read back as O_SYNC. */
int libc_open_flags_from_linux(long linux_flags)
{
	int flags = (int)(linux_flags & LINUX_O_ACCMODE);

	for (unsigned i = 0; i < OPEN_FLAG_COUNT; i++) {
		long bits = open_flag_map[i].linux_flag;
		if ((linux_flags & bits) == bits)
			flags |= open_flag_map[i].picolibc;
	}
	return flags;
}
