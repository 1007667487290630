/* Building Sv39 page tables; see page_table.h. */
#include "kernel/mm/page_table.h"

#include "kernel/mm/layout.h"
#include "kernel/mm/memattr.h"
#include "kernel/mm/page.h"
#include "kernel/panic/panic.h"

#define LEVELS        3
#define ENTRIES       512
#define GIGAPAGE_SIZE (1ull << 30)
#define MEGAPAGE_SIZE (1ull << 21)

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

void page_table_map_range(uint64_t *root, uint64_t virtual, uint64_t physical, uint64_t size,
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

static void map_kernel_part(uint64_t *root, const struct kernel_image *image, uint64_t start,
                            uint64_t end, uint64_t bits)
{
	page_table_map_range(root, start, image->physical_base + (start - KERNEL_VIRT_BASE),
	                     end - start, bits | memattr_pte_bits(MEMORY_NORMAL));
}

void page_table_map_kernel(uint64_t *root, const struct kernel_image *image,
                           const struct platform *platform)
{
	const uint64_t kernel_bits = PTE_V | PTE_G | PTE_A | PTE_D;

	map_kernel_part(root, image, image->start, image->text_end, kernel_bits | PTE_R | PTE_X);
	map_kernel_part(root, image, image->text_end, image->rodata_end, kernel_bits | PTE_R);
	map_kernel_part(root, image, image->rodata_end, image->end, kernel_bits | PTE_R | PTE_W);
	for (int i = 0; i < platform->memory_count; i++) {
		const struct mem_range *ram = &platform->memory[i];
		page_table_map_range(root, DIRECT_MAP_BASE + ram->base, ram->base, ram->size,
		                     kernel_bits | PTE_R | PTE_W | memattr_pte_bits(MEMORY_NORMAL));
	}
}

void page_table_map_device(uint64_t *root, uint64_t physical, uint64_t size)
{
	uint64_t start = physical & ~(PAGE_SIZE - 1);
	uint64_t end = (physical + size + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	page_table_map_range(root, DIRECT_MAP_BASE + start, start, end - start,
	                     PTE_V | PTE_G | PTE_A | PTE_D | PTE_R | PTE_W |
	                         memattr_pte_bits(MEMORY_DEVICE));
}

uint64_t *page_table_walk(uint64_t *root, uint64_t virtual, bool allocate)
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
