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

/* Free a user subtree: leaves' pages, then the tables themselves. */
static void free_table(uint64_t *table, int level)
{
	for (int i = 0; i < ENTRIES; i++) {
		uint64_t entry = table[i];
		if (level == 0) {
			if (pte_has_page(entry))
				page_free_pages(table_below(entry), 1);
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

/* Copy the level-0 table `source` into the empty `destination`: each page that has
 * one gets a fresh page with the same bytes and the same entry bits. */
static bool copy_leaf_table(struct address_space *space, uint64_t *destination,
                            const uint64_t *source)
{
	for (int i = 0; i < ENTRIES; i++) {
		uint64_t entry = source[i];
		if (!pte_has_page(entry))
			continue;
		void *memory = page_alloc_pages_unzeroed(1);
		if (!memory)
			return false;
		copy_page(memory, table_below(entry));
		destination[i] = ((virtual_to_physical(memory) >> PAGE_SHIFT) << PTE_PPN_SHIFT) |
		                 (entry & ~PTE_PPN_MASK);
		space->pages++;
	}
	return true;
}

/* Copy a user subtree at `level` (2: the root's user half, 1: a middle table). */
static bool copy_table(struct address_space *space, uint64_t *destination, const uint64_t *source,
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
		bool copied = level == 2 ? copy_table(space, table, table_below(entry), 1, ENTRIES)
		                         : copy_leaf_table(space, table, table_below(entry));
		if (!copied)
			return false;
	}
	return true;
}

bool address_space_copy(struct address_space *destination, const struct address_space *source)
{
	if (!address_space_create(destination))
		return false;
	destination->heap_start = source->heap_start;
	destination->brk = source->brk;
	if (!copy_table(destination, destination->root, source->root, 2, USER_ROOT_END)) {
		address_space_destroy(destination); /* frees what was copied so far */
		return false;
	}
	return true;
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
				*pte = (*pte & PTE_PPN_MASK) | pte_access_bits(access);
			continue;
		}
		void *memory = page_alloc_pages(1);
		if (!memory)
			return false;
		*pte = ((virtual_to_physical(memory) >> PAGE_SHIFT) << PTE_PPN_SHIFT) |
		       pte_access_bits(access);
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
		page_free_pages(table_below(*pte), 1);
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
	uint64_t bits;
};

static bool protect_page(uint64_t *pte, uint64_t address, void *context)
{
	(void)address;
	if (pte_has_page(*pte))
		*pte = (*pte & PTE_PPN_MASK) | ((struct protect_change *)context)->bits;
	return true;
}

int address_space_protect(struct address_space *space, uint64_t start, uint64_t size, int access)
{
	if (!user_range_in_bounds(start, size))
		return -ENOMEM;
	uint64_t end = start + size;
	if (pages_in(space, start, end) != size / PAGE_SIZE)
		return -ENOMEM; /* Linux: part of the range is not mapped */
	struct protect_change change = {pte_access_bits(access)};
	walk_existing(space, start, end, protect_page, &change);
	__asm__ volatile("sfence.vma" ::: "memory");
	if (access & USER_EXEC) /* code written through the data side may now be run */
		__asm__ volatile("fence.i" ::: "memory");
	return 0;
}

/* Direct-map address of user byte `address` if its page allows `access`, else NULL. */
static uint8_t *user_byte(struct address_space *space, uint64_t address, int access)
{
	if (address >= USER_SPACE_END)
		return 0;
	uint64_t *pte = vm_walk(space->root, address, false);
	if (!pte || !(*pte & PTE_V) || !(*pte & PTE_U))
		return 0;
	if ((access & USER_READ) && !(*pte & PTE_R))
		return 0;
	if ((access & USER_WRITE) && !(*pte & PTE_W))
		return 0;
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
		uint8_t *user = user_byte(space, user_address, access);
		size_t chunk = PAGE_SIZE - (user_address & (PAGE_SIZE - 1));
		if (chunk > length)
			chunk = length;
		if (access & USER_WRITE)
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
		uint8_t *user = user_byte(space, user_address, 0);
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
