/* User address spaces and user-memory copies; see address_space.h. */
#include "kernel/mm/address_space.h"

#include "kernel/lib/string.h"
#include "kernel/hart/csr.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/memattr.h"
#include "kernel/mm/page.h"
#include "kernel/mm/user_copy.h"
#include "kernel/mm/vm.h"
#include "kernel/lib/errno.h"

#define ENTRIES       512
#define USER_ROOT_END 256 /* root entries 0..255 are user space, 256..511 the kernel's */

/* A PROT_NONE page (mmap/mprotect): RISC-V has no valid leaf without R, W or X (that
 * encodes a pointer to the next table), so such a page's entry has V clear, which makes
 * the hardware ignore the rest of it (privileged spec 1.12, 4.3.1), and keeps the
 * page's address with this software bit (RSW, bit 8) set. */
#define PTE_SOFT_NONE (1ull << 8)
/* A copy-on-write page (fork, address_space_copy): the program may write it, but the
 * page is, or was, shared with another address space, so W is clear and the first store
 * faults (scause 15) into address_space_write_fault, which gives this space its own copy
 * (or, when nobody shares the page any more, just sets W). The other software bit (RSW,
 * bit 9: both are "reserved for use by supervisor software", privileged spec 1.12,
 * 4.4.1). Set only together with V and R, and only while W is clear: it means "logically
 * writable". */
#define PTE_COPY_ON_WRITE (1ull << 9)

/* Does this level-0 entry own a page (accessible or PROT_NONE)? */
static bool pte_has_page(uint64_t pte)
{
	return (pte & PTE_V) || (pte & PTE_SOFT_NONE);
}

bool address_space_create(struct address_space *space)
{
	memset(space, 0, sizeof *space);
	space->root = page_alloc_pages(1);
	if (!space->root)
		return false;
	/* Share the kernel half: its root entries point at the same lower tables, which
	 * never change after boot, so copying the entries once is enough. */
	memcpy(&space->root[USER_ROOT_END], &vm_kernel_root()[USER_ROOT_END],
	       (ENTRIES - USER_ROOT_END) * sizeof(uint64_t));
	space->satp = SATP_MODE_SV39 | (virtual_to_physical(space->root) >> PAGE_SHIFT);
	return true;
}

static uint64_t *table_below(uint64_t entry)
{
	return physical_to_virtual(pte_physical(entry)); /* leaves may carry attribute bits */
}

static uint64_t pte_for_page(const void *page)
{
	return (virtual_to_physical(page) >> PAGE_SHIFT) << PTE_PPN_SHIFT;
}

/* Drop this hart's translation of user page `address` (the space is live here). */
static void flush_user_page(uint64_t address)
{
	__asm__ volatile("sfence.vma %0, zero" ::"r"(address) : "memory");
}

/* Free a user subtree: leaves' pages, then the tables themselves. */
static void free_table(uint64_t *table, int level)
{
	for (int i = 0; i < ENTRIES; i++) {
		uint64_t entry = table[i];
		if (level == 0) {
			if (pte_has_page(entry))
				page_reference_put(table_below(entry));
		} else if (entry & PTE_V) {
			free_table(table_below(entry), level - 1);
		}
	}
	page_free_pages(table, 1);
}

void address_space_destroy(struct address_space *space)
{
	if (!space->root)
		return;
	for (int i = 0; i < USER_ROOT_END; i++) {
		if (space->root[i] & PTE_V)
			free_table(table_below(space->root[i]), 1);
	}
	page_free_pages(space->root, 1);
	space->root = 0;
}

/* Copy one page, 64 bytes per round: fork copies every page of a program, and this
 * loop retires about half the instructions of memcpy's word loop (19 per 64 bytes
 * instead of 40; bench S50 fork + wait). Both pages are page-aligned. */
static void copy_page(uint64_t *destination, const uint64_t *source)
{
	for (size_t i = 0; i < PAGE_SIZE / sizeof(uint64_t); i += 8) {
		uint64_t a = source[i], b = source[i + 1], c = source[i + 2], d = source[i + 3];
		uint64_t e = source[i + 4], f = source[i + 5], g = source[i + 6], h = source[i + 7];
		destination[i] = a;
		destination[i + 1] = b;
		destination[i + 2] = c;
		destination[i + 3] = d;
		destination[i + 4] = e;
		destination[i + 5] = f;
		destination[i + 6] = g;
		destination[i + 7] = h;
	}
}

/* fork: share the level-0 table `source`'s pages with the empty `destination`. Each
 * page gains a reference; a writable one becomes copy-on-write in both tables (W clear,
 * PTE_COPY_ON_WRITE set), so that whichever side stores to it first gets a copy. Pages
 * that are not writable (text, rodata, PROT_NONE) are simply shared: mprotect making one
 * writable later sees it shared and makes it copy-on-write (pte_with_access). */
static void share_leaf_table(struct address_space *space, uint64_t *destination, uint64_t *source)
{
	for (int i = 0; i < ENTRIES; i++) {
		uint64_t entry = source[i];
		if (!pte_has_page(entry))
			continue;
		if (entry & PTE_W) {
			entry = (entry & ~PTE_W) | PTE_COPY_ON_WRITE;
			source[i] = entry;
		}
		page_reference_get(table_below(entry));
		destination[i] = entry;
		space->pages++;
	}
}

/* Copy a user subtree at `level` (2: the root's user half, 1: a middle table): new
 * tables, shared pages. False when out of memory for a table. */
static bool copy_table(struct address_space *space, uint64_t *destination, uint64_t *source,
                       int level, int entries)
{
	for (int i = 0; i < entries; i++) {
		uint64_t entry = source[i];
		if (!(entry & PTE_V))
			continue;
		uint64_t *table =
		    page_alloc_pages(1); /* zeroed, as every page the pool hands out */
		if (!table)
			return false;
		destination[i] =
		    ((virtual_to_physical(table) >> PAGE_SHIFT) << PTE_PPN_SHIFT) | PTE_V;
		if (level == 1)
			share_leaf_table(space, table, table_below(entry));
		else if (!copy_table(space, table, table_below(entry), 1, ENTRIES))
			return false;
	}
	return true;
}

bool address_space_copy(struct address_space *destination, struct address_space *source)
{
	if (!address_space_create(destination))
		return false;
	destination->heap_start = source->heap_start;
	destination->brk = source->brk;
	bool copied = copy_table(destination, destination->root, source->root, 2, USER_ROOT_END);
	/* The source's writable pages lost W: drop the translations that still allow the
	 * store. Only this hart can hold them: the source is the caller's own space, and a
	 * hart keeps a program's table loaded only while that program is its current task
	 * (kernel/sched/sched.c, the idle task's satp; one task per address space, a vfork
	 * parent sleeping while its child borrows it), so no other hart needs a shootdown. */
	__asm__ volatile("sfence.vma" ::: "memory");
	if (!copied) {
		/* Drops the references taken so far; the source's pages stay copy-on-write,
		 * and their first store finds them unshared and just sets W again. */
		address_space_destroy(destination);
		return false;
	}
	return true;
}

/* Make the page `pte` maps this space's own: a page someone else still maps is copied
 * into a fresh one (same entry bits), the space's reference to the old one dropped.
 * -ENOMEM, changing nothing, when no page is free. `address` names the page for the
 * flush (the space may be live on this hart). Called with the space's owner the only
 * one changing it (its own task, or fork/exec on a space not yet running). */
static int make_page_private(uint64_t *pte, uint64_t address)
{
	void *page = table_below(*pte);
	if (page_reference_count(page) == 1)
		return 0; /* nobody else holds it, and nobody can start to: fork takes a
		           * reference only for a space that maps the page */
	uint64_t *copy = page_alloc_pages_unzeroed(1);
	if (!copy)
		return -ENOMEM;
	copy_page(copy, page);
	*pte = pte_for_page(copy) | (*pte & ~PTE_PPN_MASK);
	/* No translation of the old page may outlive our reference to it. */
	flush_user_page(address);
	page_reference_put(page);
	return 0;
}

int address_space_write_fault(struct address_space *space, uint64_t address)
{
	if (address >= USER_SPACE_END)
		return -EFAULT;
	uint64_t *pte = vm_walk(space->root, address, false);
	if (!pte || !(*pte & PTE_V) || !(*pte & PTE_COPY_ON_WRITE))
		return -EFAULT;
	int error = make_page_private(pte, address);
	if (error)
		return error;
	*pte = (*pte & ~PTE_COPY_ON_WRITE) | PTE_W;
	flush_user_page(address);
	return 0;
}

static uint64_t pte_access_bits(int access)
{
	if (!(access & (USER_READ | USER_WRITE | USER_EXEC)))
		return PTE_SOFT_NONE;
	uint64_t bits = PTE_V | PTE_U | PTE_A | PTE_D | memattr_pte_bits(MEMORY_NORMAL);
	if (access & USER_READ)
		bits |= PTE_R;
	if (access & USER_WRITE)
		bits |= PTE_W | PTE_R;
	if (access & USER_EXEC)
		bits |= PTE_X;
	return bits;
}

/* The entry for the page `entry` maps with `access`: a writable one that is still
 * shared with another space becomes copy-on-write instead (mprotect or an overlapping
 * mapping after fork must not let this space write the other's memory). */
static uint64_t pte_with_access(uint64_t entry, int access)
{
	uint64_t bits = pte_access_bits(access);
	if ((bits & PTE_W) && page_reference_count(table_below(entry)) > 1)
		bits = (bits & ~PTE_W) | PTE_COPY_ON_WRITE;
	return (entry & PTE_PPN_MASK) | bits;
}

bool user_range_in_bounds(uint64_t start, uint64_t size)
{
	return start < USER_SPACE_END && size <= USER_SPACE_END - start;
}

bool address_space_map(struct address_space *space, uint64_t start, uint64_t size, int access)
{
	uint64_t first = start & ~(PAGE_SIZE - 1);
	uint64_t end = (start + size + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (!user_range_in_bounds(first, end - first))
		return false;
	for (uint64_t page = first; page < end; page += PAGE_SIZE) {
		uint64_t *pte = vm_walk(space->root, page, true);
		if (!pte)
			return false;
		if (pte_has_page(*pte)) { /* segments sharing a page: widen access */
			if (access)
				*pte = pte_with_access(*pte, access);
			continue;
		}
		void *memory = page_alloc_pages(1);
		if (!memory)
			return false;
		*pte = pte_for_page(memory) | pte_access_bits(access);
		space->pages++;
	}
	return true;
}

/* Call visit(pte, address, context) for every level-0 slot of the existing page tables
 * over [start, end) (page-aligned, in user space), in address order; a range whose
 * tables do not exist holds no page and is skipped whole, so a huge range costs only
 * what is mapped in it. Stops early when visit returns false. */
static void walk_existing(struct address_space *space, uint64_t start, uint64_t end,
                          bool (*visit)(uint64_t *pte, uint64_t address, void *context),
                          void *context)
{
	const uint64_t gigapage = 1ull << 30, megapages = 1ull << 21;
	for (uint64_t address = start; address < end;) {
		uint64_t top = space->root[(address >> 30) & (ENTRIES - 1)];
		if (!(top & PTE_V)) {
			address = (address | (gigapage - 1)) + 1;
			continue;
		}
		uint64_t middle = table_below(top)[(address >> 21) & (ENTRIES - 1)];
		if (!(middle & PTE_V)) {
			address = (address | (megapages - 1)) + 1;
			continue;
		}
		uint64_t *pte = &table_below(middle)[(address >> 12) & (ENTRIES - 1)];
		if (!visit(pte, address, context))
			return;
		address += PAGE_SIZE;
	}
}

static bool unmap_page(uint64_t *pte, uint64_t address, void *context)
{
	(void)address;
	struct address_space *space = context;
	if (pte_has_page(*pte)) {
		page_reference_put(table_below(*pte));
		*pte = 0;
		space->pages--;
	}
	return true;
}

void address_space_unmap(struct address_space *space, uint64_t start, uint64_t size)
{
	uint64_t first = (start + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	uint64_t end = (start + size) & ~(PAGE_SIZE - 1);
	if (end > USER_SPACE_END)
		end = USER_SPACE_END;
	if (first < end)
		walk_existing(space, first, end, unmap_page, space);
	/* The space may be live on this hart: drop stale translations. */
	__asm__ volatile("sfence.vma" ::: "memory");
}

struct page_count {
	uint64_t pages;
};

static bool count_page(uint64_t *pte, uint64_t address, void *context)
{
	(void)address;
	((struct page_count *)context)->pages += pte_has_page(*pte);
	return true;
}

/* Pages that [start, end) (page-aligned, in user space) has, accessible or not. */
static uint64_t pages_in(struct address_space *space, uint64_t start, uint64_t end)
{
	struct page_count count = {0};
	walk_existing(space, start, end, count_page, &count);
	return count.pages;
}

bool address_space_range_free(struct address_space *space, uint64_t start, uint64_t size)
{
	return user_range_in_bounds(start, size) && pages_in(space, start, start + size) == 0;
}

struct free_search {
	uint64_t size;
	uint64_t run_start; /* where the current run of free pages began */
	bool found;
};

static bool find_run(uint64_t *pte, uint64_t address, void *context)
{
	struct free_search *search = context;
	if (!pte_has_page(*pte))
		return true;
	if (address - search->run_start >= search->size) {
		search->found = true;
		return false;
	}
	search->run_start = address + PAGE_SIZE;
	return true;
}

uint64_t address_space_find_free(struct address_space *space, uint64_t size, uint64_t low,
                                 uint64_t high)
{
	if (size == 0 || low >= high || high > USER_SPACE_END || size > high - low)
		return 0;
	struct free_search search = {size, low, false};
	walk_existing(space, low, high, find_run, &search);
	if (search.found || (search.run_start <= high && high - search.run_start >= size))
		return search.run_start;
	return 0;
}

struct protect_change {
	int access;
};

static bool protect_page(uint64_t *pte, uint64_t address, void *context)
{
	(void)address;
	if (pte_has_page(*pte))
		*pte = pte_with_access(*pte, ((struct protect_change *)context)->access);
	return true;
}

int address_space_protect(struct address_space *space, uint64_t start, uint64_t size, int access)
{
	if (!user_range_in_bounds(start, size))
		return -ENOMEM;
	uint64_t end = start + size;
	if (pages_in(space, start, end) != size / PAGE_SIZE)
		return -ENOMEM; /* Linux: part of the range is not mapped */
	struct protect_change change = {access};
	walk_existing(space, start, end, protect_page, &change);
	__asm__ volatile("sfence.vma" ::: "memory");
	if (access & USER_EXEC) /* code written through the data side may now be run */
		__asm__ volatile("fence.i" ::: "memory");
	return 0;
}

/* The level-0 entry of user byte `address` if its page allows `access` (a
 * copy-on-write page allows USER_WRITE: the program may write it, the first store
 * copies it), else NULL. */
static uint64_t *user_pte(struct address_space *space, uint64_t address, int access)
{
	if (address >= USER_SPACE_END)
		return 0;
	uint64_t *pte = vm_walk(space->root, address, false);
	if (!pte || !(*pte & PTE_V) || !(*pte & PTE_U))
		return 0;
	if ((access & USER_READ) && !(*pte & PTE_R))
		return 0;
	if ((access & USER_WRITE) && !(*pte & (PTE_W | PTE_COPY_ON_WRITE)))
		return 0;
	return pte;
}

/* Direct-map address of user byte `address` if its page allows `access`, else NULL. */
static uint8_t *user_byte(struct address_space *space, uint64_t address, int access)
{
	uint64_t *pte = user_pte(space, address, access);
	return pte ? (uint8_t *)table_below(*pte) + (address & (PAGE_SIZE - 1)) : 0;
}

/* Direct-map address of user byte `address` for the kernel to store to: a
 * copy-on-write page is made this space's own and writable first, as the program's own
 * store would (the software-walk twin of the user_copy fault, trap_handle_kernel). With
 * `any_access` (the loader filling read-only text) the page keeps its permissions but
 * is unshared all the same. NULL if the page does not allow the store or no page is
 * free for the copy (the caller's -EFAULT, as Linux's copy_to_user on a failed fault). */
static uint8_t *user_byte_to_store(struct address_space *space, uint64_t address, bool any_access)
{
	uint64_t *pte = user_pte(space, address, any_access ? 0 : USER_WRITE);
	if (!pte)
		return 0;
	if (*pte & PTE_COPY_ON_WRITE) {
		if (address_space_write_fault(space, address) != 0)
			return 0;
	} else if (make_page_private(pte, address) != 0) {
		return 0;
	}
	return (uint8_t *)table_below(*pte) + (address & (PAGE_SIZE - 1));
}

bool user_range_ok(struct address_space *space, uint64_t user_address, size_t length, int access)
{
	if (!user_range_in_bounds(user_address, length))
		return false;
	uint64_t end = user_address + length;
	for (uint64_t address = user_address; address < end;
	     address = (address & ~(PAGE_SIZE - 1)) + PAGE_SIZE) {
		if (!user_byte(space, address, access))
			return false;
	}
	return true;
}

/* copy_user for an address space not loaded on this hart (a range already checked to
 * lie below USER_SPACE_END): walk its page table, page by page. Out of line, so that the
 * common case, a system call's own space, saves no registers for it. Any task. */
static int __attribute__((noinline))
copy_user_walk(struct address_space *space, uint64_t user_address, uint8_t *kernel, size_t length,
               int access)
{
	if (!user_range_ok(space, user_address, length, access))
		return -EFAULT;
	while (length > 0) {
		bool store = access & USER_WRITE;
		uint8_t *user = store ? user_byte_to_store(space, user_address, false)
		                      : user_byte(space, user_address, access);
		if (!user)
			return -EFAULT; /* out of memory for a copy-on-write copy */
		size_t chunk = PAGE_SIZE - (user_address & (PAGE_SIZE - 1));
		if (chunk > length)
			chunk = length;
		if (store)
			memcpy(user, kernel, chunk);
		else
			memcpy(kernel, user, chunk);
		user_address += chunk;
		kernel += chunk;
		length -= chunk;
	}
	return 0;
}

/* Copy between a kernel buffer and user memory. When `space` is the one loaded on this
 * hart (every system call's own; the satp CSR says which, so mm needs no per-hart
 * state), the MMU checks the access inside user_copy; else walk the page table, page by
 * page. */
static inline int copy_user(struct address_space *space, uint64_t user_address, uint8_t *kernel,
                            size_t length, int access)
{
	if (!user_range_in_bounds(user_address, length))
		return -EFAULT;
	if (length == 0)
		return 0;
	if (space->satp == csr_read(satp)) {
		void *user = (void *)user_address;
		long result = access & USER_WRITE ? user_copy(user, kernel, length)
		                                  : user_copy(kernel, user, length);
		return (int)result;
	}
	return copy_user_walk(space, user_address, kernel, length, access);
}

int copy_to_user(struct address_space *space, uint64_t user_address, const void *source,
                 size_t length)
{
	return copy_user(space, user_address, (uint8_t *)source, length, USER_WRITE);
}

int copy_from_user(struct address_space *space, void *destination, uint64_t user_address,
                   size_t length)
{
	return copy_user(space, user_address, destination, length, USER_READ);
}

long copy_string_from_user(struct address_space *space, char *destination, uint64_t user_address,
                           size_t capacity)
{
	for (size_t i = 0; i < capacity; i++) {
		uint8_t *byte = user_byte(space, user_address + i, USER_READ);
		if (!byte || user_address + i < user_address)
			return -EFAULT;
		destination[i] = (char)*byte;
		if (*byte == 0)
			return (long)i;
	}
	return -ENAMETOOLONG;
}

int address_space_load(struct address_space *space, uint64_t user_address, const void *source,
                       size_t length)
{
	const uint8_t *from = source;
	if (!user_range_ok(space, user_address, length, 0))
		return -EFAULT;
	while (length > 0) {
		uint8_t *user = user_byte_to_store(space, user_address, true);
		if (!user)
			return -EFAULT; /* out of memory unsharing a page */
		size_t chunk = PAGE_SIZE - (user_address & (PAGE_SIZE - 1));
		if (chunk > length)
			chunk = length;
		memcpy(user, from, chunk);
		user_address += chunk;
		from += chunk;
		length -= chunk;
	}
	return 0;
}

uint64_t address_space_brk(struct address_space *space, uint64_t new_break)
{
	uint64_t limit = space->heap_start + USER_HEAP_LIMIT;
	if (new_break < space->heap_start || new_break > limit)
		return space->brk;
	uint64_t old_end = (space->brk + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	uint64_t new_end = (new_break + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	if (new_end > old_end) {
		if (!address_space_map(space, old_end, new_end - old_end, USER_READ | USER_WRITE)) {
			address_space_unmap(space, old_end, new_end - old_end);
			return space->brk;
		}
	} else if (new_end < old_end) {
		address_space_unmap(space, new_end, old_end - new_end);
	}
	space->brk = new_break;
	return space->brk;
}
