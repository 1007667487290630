/* The kernel's page table and switching harts to it; see vm.h. The tables themselves
 * are built by page_table.c. */
#include "kernel/mm/vm.h"

#include "kernel/hart/csr.h"
#include "kernel/mm/memattr.h"
#include "kernel/mm/page.h"
#include "kernel/mm/page_table.h"
#include "kernel/panic/panic.h"

static uint64_t *kernel_root;

extern char _kernel_start[], _text_end[], _rodata_end[], _kernel_end[];

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
	return page_table_walk(root, virtual, allocate);
}

void vm_init(const struct platform *platform, uint64_t kernel_physical_base)
{
	const struct kernel_image image = {(uint64_t)_kernel_start, (uint64_t)_text_end,
	                                   (uint64_t)_rodata_end, (uint64_t)_kernel_end,
	                                   kernel_physical_base};

	memattr_init(platform); /* memattr_pte_bits() must be final before the first map */
	kernel_root = page_alloc_pages(1);
	if (!kernel_root)
		panic("vm: no page for the root table");
	page_table_map_kernel(kernel_root, &image, platform);
	vm_enable_on_this_hart();
}

void *vm_map_device(uint64_t physical, uint64_t size)
{
	page_table_map_device(kernel_root, physical, size);
	__asm__ volatile("sfence.vma" ::: "memory");
	return physical_to_virtual(physical);
}
