/* Loading a static RISC-V ELF64 executable (ET_EXEC) into a user address space.
 * ELF layout: System V ABI gABI ch. 4-5; RISC-V psABI for e_machine 243 (EM_RISCV). */
#ifndef DUPLEX_PROC_ELF_H
#define DUPLEX_PROC_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/mm/address_space.h"

/* Validate the image and map every PT_LOAD segment with its own permissions (R, W, X
 * from p_flags), copying file bytes and zeroing the rest. On success returns 0 with
 * *entry set and space->heap_start/brk just past the highest segment; otherwise
 * -ENOEXEC (not a valid RISC-V executable) or -ENOMEM. Task context. */
int elf_load(struct address_space *space, const uint8_t *image, size_t size, uint64_t *entry);

/* Only the header and program-header checks (for tests and for spawn's early
 * ENOEXEC): 0 or -ENOEXEC. Pure code. */
int elf_check(const uint8_t *image, size_t size);

#endif
