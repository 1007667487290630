/* Loading a static RISC-V ELF64 executable (ET_EXEC) into a user address space.
 * ELF layout: System V ABI gABI ch. 4-5; RISC-V psABI for e_machine 243 (EM_RISCV). */
#ifndef DUPLEX_PROC_ELF_H
#define DUPLEX_PROC_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/mm/address_space.h"

/* What the auxiliary vector tells a program about its own image (AT_ENTRY, AT_PHDR,
 * AT_PHENT, AT_PHNUM: glibc's static start-up finds its TLS segment and RELRO range in
 * the program headers). */
struct elf_image {
	uint64_t entry;
	uint64_t program_headers; /* their user address, 0 if no segment loads them */
	uint64_t program_header_size;
	uint64_t program_header_count;
};

/* Validate the image and map every PT_LOAD segment with its own permissions (R, W, X
 * from p_flags), copying file bytes and zeroing the rest. On success returns 0 with
 * *loaded filled and space->heap_start/brk just past the highest segment; otherwise
 * -ENOEXEC (not a valid RISC-V executable) or -ENOMEM. Task context. */
int elf_load(struct address_space *space, const uint8_t *image, size_t size,
             struct elf_image *loaded);

/* Only the header and program-header checks (for tests and for spawn's early
 * ENOEXEC): 0 or -ENOEXEC. Pure code. */
int elf_check(const uint8_t *image, size_t size);

#endif
