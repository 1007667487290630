/* Loading a program from a file system into a new address space: the one loader behind
 * spawn and execve. It finds the file (Linux's path rules and errno values), runs a
 * `#!` script by its interpreter (Linux fs/binfmt_script.c), loads the ELF image
 * (elf.h) and lays out argc, argv, envp and the auxiliary vector on a new stack. */
#ifndef DUPLEX_PROC_PROGRAM_H
#define DUPLEX_PROC_PROGRAM_H

#include <stdint.h>

#include "kernel/mm/address_space.h"

#define PROGRAM_NAME_MAX 16

struct program {
	struct address_space space; /* the new address space, complete */
	uint64_t entry;
	uint64_t stack_pointer;
	char name[PROGRAM_NAME_MAX]; /* the file's base name (the script's, for a script) */
};

/* Build `program` for `path` (relative paths from `base`, the caller's working
 * directory; any file system) with the kernel strings `argv` and `envp` (NULL-ended).
 * Returns 0, or -ENOENT, -ENOTDIR, -ENAMETOOLONG (the path), -EACCES (a directory, or
 * no execute permission), -ENOEXEC (neither a RISC-V ELF executable nor a script),
 * -ELOOP (scripts nested too deep), -E2BIG, -ENOMEM; on failure nothing is left
 * allocated. Task context; may sleep (allocation). Touches no process. */
int program_load(const char *base, const char *path, char *const argv[], char *const envp[],
                 struct program *program);

#endif
