/* ELF64 loader; see elf.h. */
#include "kernel/proc/elf.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/page_pool.h"

struct elf64_header {
	uint8_t ident[16];
	uint16_t type;
	uint16_t machine;
	uint32_t version;
	uint64_t entry;
	uint64_t program_headers;
	uint64_t section_headers;
	uint32_t flags;
	uint16_t header_size;
	uint16_t program_header_size;
	uint16_t program_header_count;
	uint16_t section_header_size;
	uint16_t section_header_count;
	uint16_t section_names_index;
};

struct elf64_program_header {
	uint32_t type;
	uint32_t flags;
	uint64_t offset;
	uint64_t virtual_address;
	uint64_t physical_address;
	uint64_t file_size;
	uint64_t memory_size;
	uint64_t align;
};

#define ET_EXEC     2
#define EM_RISCV    243
#define PT_LOAD     1
#define PF_X        1
#define PF_W        2
#define PF_R        4
#define ELFCLASS64  2
#define ELFDATA2LSB 1

/* Headers are copied out: cpio keeps file data only 4-byte aligned. */
static struct elf64_header read_header(const uint8_t *image)
{
	struct elf64_header header;
	memcpy(&header, image, sizeof header);
	return header;
}

static struct elf64_program_header program_header(const uint8_t *image,
                                                  const struct elf64_header *header, int index)
{
	struct elf64_program_header segment;
	memcpy(&segment, image + header->program_headers + (uint64_t)index * sizeof segment,
	       sizeof segment);
	return segment;
}

int elf_check(const uint8_t *image, size_t size)
{
	if (size < sizeof(struct elf64_header))
		return -ENOEXEC;
	struct elf64_header copy = read_header(image), *header = &copy;
	if (memcmp(header->ident, "\177ELF", 4) != 0 || header->ident[4] != ELFCLASS64 ||
	    header->ident[5] != ELFDATA2LSB || header->type != ET_EXEC ||
	    header->machine != EM_RISCV ||
	    header->program_header_size != sizeof(struct elf64_program_header) ||
	    header->program_header_count == 0 || header->program_header_count > 64)
		return -ENOEXEC;
	uint64_t table_size =
	    (uint64_t)header->program_header_count * sizeof(struct elf64_program_header);
	if (header->program_headers > size || table_size > size - header->program_headers)
		return -ENOEXEC;
	int loads = 0;
	for (int i = 0; i < header->program_header_count; i++) {
		struct elf64_program_header copy_segment = program_header(image, header, i);
		const struct elf64_program_header *segment = &copy_segment;
		if (segment->type != PT_LOAD)
			continue;
		loads++;
		if (segment->file_size > segment->memory_size || segment->offset > size ||
		    segment->file_size > size - segment->offset ||
		    segment->virtual_address >= USER_SPACE_END ||
		    segment->memory_size > USER_SPACE_END - segment->virtual_address ||
		    segment->virtual_address < PAGE_SIZE) /* page 0 stays unmapped: NULL faults */
			return -ENOEXEC;
	}
	if (loads == 0 || header->entry >= USER_SPACE_END)
		return -ENOEXEC;
	return 0;
}

int elf_load(struct address_space *space, const uint8_t *image, size_t size,
             struct elf_image *loaded)
{
	int error = elf_check(image, size);
	if (error)
		return error;
	struct elf64_header copy = read_header(image), *header = &copy;
	uint64_t highest = 0;
	loaded->program_headers = 0;
	for (int i = 0; i < header->program_header_count; i++) {
		struct elf64_program_header copy_segment = program_header(image, header, i);
		const struct elf64_program_header *segment = &copy_segment;
		if (segment->type != PT_LOAD || segment->memory_size == 0)
			continue;
		int access = ((segment->flags & PF_R) ? USER_READ : 0) |
		             ((segment->flags & PF_W) ? USER_WRITE : 0) |
		             ((segment->flags & PF_X) ? USER_EXEC : 0);
		if (!address_space_map(space, segment->virtual_address, segment->memory_size,
		                       access))
			return -ENOMEM;
		if (address_space_load(space, segment->virtual_address, image + segment->offset,
		                       segment->file_size) != 0)
			return -ENOEXEC;
		uint64_t end = segment->virtual_address + segment->memory_size;
		if (end > highest)
			highest = end;
		/* The segment that loads the program-header table tells where it is in
		 * memory (what a PT_PHDR entry would say; static binaries have none). */
		if (header->program_headers >= segment->offset &&
		    header->program_headers - segment->offset < segment->file_size)
			loaded->program_headers =
			    segment->virtual_address + (header->program_headers - segment->offset);
	}
	space->heap_start = (highest + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	space->brk = space->heap_start;
	loaded->entry = header->entry;
	loaded->program_header_size = header->program_header_size;
	loaded->program_header_count = header->program_header_count;
	return 0;
}
