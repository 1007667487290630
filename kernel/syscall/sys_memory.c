/* Memory system calls: mmap, munmap, mprotect for anonymous memory (Linux semantics and
 * errno values, mm/mmap.c and mm/mprotect.c). Pages are real and allocated at once
 * (zeroed); their permissions are the page table's, so a store to a page made read-only
 * is a store page fault and kills the program with the usual report. File mappings are
 * not supported (-ENODEV): the archive's files are read with read(). brk is in
 * sys_process.c. */
#include "kernel/lib/errno.h"
#include "kernel/mm/address_space.h"
#include "kernel/mm/page.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"
#include "uapi/mman.h"

static uint64_t round_up_to_page(uint64_t value)
{
	return (value + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
}

static int access_of(uint64_t prot)
{
	return ((prot & PROT_READ) ? USER_READ : 0) | ((prot & PROT_WRITE) ? USER_WRITE : 0) |
	       ((prot & PROT_EXEC) ? USER_EXEC : 0);
}

/* Where a new mapping of `length` bytes goes: the hint if it is free and above the brk
 * heap's reserve (which brk may still grow into), else the lowest free range between
 * that reserve and USER_MMAP_TOP. 0 if there is none. */
static uint64_t choose_address(struct address_space *space, uint64_t hint, uint64_t length)
{
	uint64_t low = space->heap_start + USER_HEAP_LIMIT;
	if (hint >= low && !(hint & (PAGE_SIZE - 1)) &&
	    address_space_range_free(space, hint, length))
		return hint;
	return address_space_find_free(space, length, low, USER_MMAP_TOP);
}

long sys_mmap(uint64_t address, uint64_t length, uint64_t prot, uint64_t flags, uint64_t fd,
              uint64_t offset)
{
	struct process *process = process_current();
	struct address_space *space = &process->space;
	uint64_t type = flags & MAP_TYPE;
	if (length == 0 || (offset & (PAGE_SIZE - 1)) ||
	    (type != MAP_SHARED && type != MAP_PRIVATE && type != MAP_SHARED_VALIDATE) ||
	    (prot & ~(uint64_t)(PROT_READ | PROT_WRITE | PROT_EXEC)))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {
		int descriptor = (int)fd;
		if (descriptor < 0 || descriptor >= PROCESS_MAX_FILES ||
		    !process->files[descriptor])
			return -EBADF;
		return -ENODEV; /* no file supports mmap */
	}
	uint64_t size = round_up_to_page(length);
	if (size < length || size / PAGE_SIZE > page_free_count())
		return -ENOMEM; /* every page is allocated now, so it must exist now */
	/* A shared anonymous mapping is private here: one task per process, and fork
	 * shares it copy-on-write, so a child's stores do not reach its parent (Linux would
	 * share them). */
	bool fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);
	if (fixed) {
		if (address & (PAGE_SIZE - 1))
			return -EINVAL;
		if (address < PAGE_SIZE || !user_range_in_bounds(address, size))
			return -ENOMEM;
		if (!address_space_range_free(space, address, size)) {
			if (flags & MAP_FIXED_NOREPLACE) /* wins over MAP_FIXED, as in Linux */
				return -EEXIST;
			address_space_unmap(space, address, size);
		}
	} else {
		address = choose_address(space, address, size);
		if (!address)
			return -ENOMEM;
	}
	if (!address_space_map(space, address, size, access_of(prot))) {
		address_space_unmap(space, address, size);
		return -ENOMEM;
	}
	/* The space is live here: order the new PTEs before the program's first access
	 * (privileged spec 1.12, 4.2.1; Linux's update_mmu_cache flushes too). */
	__asm__ volatile("sfence.vma" ::: "memory");
	return (long)address;
}

long sys_munmap(uint64_t address, uint64_t length, uint64_t a2, uint64_t a3, uint64_t a4,
                uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	uint64_t size = round_up_to_page(length);
	if ((address & (PAGE_SIZE - 1)) || length == 0 || size < length ||
	    !user_range_in_bounds(address, size))
		return -EINVAL;
	address_space_unmap(&process_current()->space, address, size);
	return 0;
}

long sys_mprotect(uint64_t address, uint64_t length, uint64_t prot, uint64_t a3, uint64_t a4,
                  uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	if ((address & (PAGE_SIZE - 1)) || (prot & ~(uint64_t)(PROT_READ | PROT_WRITE | PROT_EXEC)))
		return -EINVAL;
	uint64_t size = round_up_to_page(length);
	if (size < length)
		return -ENOMEM;
	if (size == 0)
		return 0;
	return address_space_protect(&process_current()->space, address, size, access_of(prot));
}
