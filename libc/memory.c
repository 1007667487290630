/* Memory: brk() and sbrk() over the kernel's brk, and mmap(), munmap(), mprotect(). picolibc's
 * malloc() grows the heap with sbrk(); this sbrk replaces picolibc's own, which would hand out a
 * fixed region from its linker script instead of asking the kernel. */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

/* Linux brk semantics: the call returns the new break, or the old one if it refused;
 * brk(0) just reports it. */
static uintptr_t kernel_brk(uintptr_t end)
{
	return (uintptr_t)syscall1(SYS_brk, (long)end);
}

/* Set the break to `end`. */
int brk(void *end)
{
	if (kernel_brk((uintptr_t)end) != (uintptr_t)end)
		return (int)libc_fail(ENOMEM);
	return 0;
}

/* Move the break by `increment` bytes; returns the old break (the start of the new
 * memory when growing), or (void *)-1 with errno = ENOMEM. */
void *sbrk(ptrdiff_t increment)
{
	static uintptr_t current;
	uintptr_t old;

	if (current == 0)
		current = kernel_brk(0);
	old = current;
	if (increment != 0) {
		uintptr_t wanted = old + (uintptr_t)increment;
		if ((increment > 0 && wanted < old) || (increment < 0 && wanted > old) ||
		    kernel_brk(wanted) != wanted) {
			errno = ENOMEM;
			return (void *)-1;
		}
		current = wanted;
	}
	return (void *)old;
}

/* Anonymous mappings (<sys/mman.h>): the flags and protections are Linux's already. */
void *mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset)
{
	long raw = syscall6(SYS_mmap, (long)address, (long)length, prot, flags, fd, (long)offset);
	return (void *)libc_result(raw);
}

int munmap(void *address, size_t length)
{
	return (int)libc_result(syscall2(SYS_munmap, (long)address, (long)length));
}

int mprotect(void *address, size_t length, int prot)
{
	return (int)libc_result(syscall3(SYS_mprotect, (long)address, (long)length, prot));
}
