/* Building the kernel page table; see vm.h. */
#include "kernel/mm/vm.h"

#include "kernel/hart/csr.h"
#include "kernel/log/log.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/memattr.h"
#include "kernel/mm/page.h"
#include "kernel/panic/panic.h"

#define LEVELS        3
#define ENTRIES       512
#define GIGAPAGE_SIZE (1ull << 30)
#define MEGAPAGE_SIZE (1ull << 21)

static uint64_t *kernel_root;

extern char _kernel_start[], _text_end[], _rodata_end[], _kernel_end[];

static uint64_t *table_of(uint64_t pte)
{
	return physical_to_virtual(pte_physical(pte));
}

static uint64_t pte_for(uint64_t physical, uint64_t bits)
{
	return ((physical >> PAGE_SHIFT) << PTE_PPN_SHIFT) | bits;
}

/* Map one leaf of 4 KiB, 2 MiB or 1 GiB (`level` 0, 1, 2). */
static void map_leaf(uint64_t *root, uint64_t virtual, uint64_t physical, int level, uint64_t bits)
{
	uint64_t *table = root;
	for (int l = LEVELS - 1; l > level; l--) {
		uint64_t *entry = &table[(virtual >> (PAGE_SHIFT + 9 * l)) & (ENTRIES - 1)];
		if (!(*entry & PTE_V)) {
			uint64_t *next = page_alloc_pages(1);
			if (!next)
				panic("vm: out of memory for page tables");
			*entry = pte_for(virtual_to_physical(next), PTE_V);
		} else if (*entry & (PTE_R | PTE_W | PTE_X)) {
			panic("vm: %p is already inside a large mapping", (void *)virtual);
		}
		table = table_of(*entry);
	}
	table[(virtual >> (PAGE_SHIFT + 9 * level)) & (ENTRIES - 1)] = pte_for(physical, bits);
}

/* Map [virtual, virtual + size) with the largest pages alignment allows. */
static void map_range(uint64_t *root, uint64_t virtual, uint64_t physical, uint64_t size,
                      uint64_t bits)
{
	uint64_t end = virtual + size;
	while (virtual < end) {
		int level = 0;
		uint64_t step = PAGE_SIZE;
		if (((virtual | physical) & (GIGAPAGE_SIZE - 1)) == 0 &&
		    end - virtual >= GIGAPAGE_SIZE) {
			level = 2;
			step = GIGAPAGE_SIZE;
		} else if (((virtual | physical) & (MEGAPAGE_SIZE - 1)) == 0 &&
		           end - virtual >= MEGAPAGE_SIZE) {
			level = 1;
			step = MEGAPAGE_SIZE;
		}
		map_leaf(root, virtual, physical, level, bits);
		virtual += step;
		physical += step;
	}
}

static void map_kernel_part(uint64_t kernel_physical_base, char *start, char *end, uint64_t bits)
{
	uint64_t offset = (uint64_t)start - KERNEL_VIRT_BASE;
	map_range(kernel_root, (uint64_t)start, kernel_physical_base + offset,
	          (uint64_t)(end - start), bits | memattr_pte_bits(MEMORY_NORMAL));
}

uint64_t vm_kernel_satp(void)
{
	return SATP_MODE_SV39 | (virtual_to_physical(kernel_root) >> PAGE_SHIFT);
}

void vm_activate(uint64_t satp)
{
	__asm__ volatile("sfence.vma" ::: "memory");
	csr_write(satp, satp);
	__asm__ volatile("sfence.vma" ::: "memory");
}

void vm_enable_on_this_hart(void)
{
	vm_activate(vm_kernel_satp());
}

const uint64_t *vm_kernel_root(void)
{
	return kernel_root;
}

uint64_t *vm_walk(uint64_t *root, uint64_t virtual, bool allocate)
{
	uint64_t *table = root;
	for (int level = LEVELS - 1; level > 0; level--) {
		uint64_t *entry = &table[(virtual >> (PAGE_SHIFT + 9 * level)) & (ENTRIES - 1)];
		if (!(*entry & PTE_V)) {
			if (!allocate)
				return 0;
			uint64_t *next = page_alloc_pages(1);
			if (!next)
				return 0;
			*entry = pte_for(virtual_to_physical(next), PTE_V);
		} else if (*entry & (PTE_R | PTE_W | PTE_X)) {
			return 0;
		}
		table = table_of(*entry);
	}
	return &table[(virtual >> PAGE_SHIFT) & (ENTRIES - 1)];
}

void vm_init(const struct platform *platform, uint64_t kernel_physical_base)
{
	const uint64_t kernel_bits = PTE_V | PTE_G | PTE_A | PTE_D;

	memattr_init(platform); /* memattr_pte_bits() must be final before the first map */
	kernel_root = page_alloc_pages(1);
	if (!kernel_root)
		panic("vm: no page for the root table");
	map_kernel_part(kernel_physical_base, _kernel_start, _text_end,
	                kernel_bits | PTE_R | PTE_X);
	map_kernel_part(kernel_physical_base, _text_end, _rodata_end, kernel_bits | PTE_R);
	map_kernel_part(kernel_physical_base, _rodata_end, _kernel_end,
	                kernel_bits | PTE_R | PTE_W);
	for (int i = 0; i < platform->memory_count; i++) {
		const struct mem_range *ram = &platform->memory[i];
		map_range(kernel_root, DIRECT_MAP_BASE + ram->base, ram->base, ram->size,
		          kernel_bits | PTE_R | PTE_W | memattr_pte_bits(MEMORY_NORMAL));
	}
	vm_enable_on_this_hart();
}

void *vm_map_device(uint64_t physical, uint64_t size)
{
	uint64_t start = physical & ~(PAGE_SIZE - 1);
	uint64_t end = (physical + size + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	map_range(kernel_root, DIRECT_MAP_BASE + start, start, end - start,
	          PTE_V | PTE_G | PTE_A | PTE_D | PTE_R | PTE_W | memattr_pte_bits(MEMORY_DEVICE));
	__asm__ volatile("sfence.vma" ::: "memory");
	return physical_to_virtual(physical);
}
