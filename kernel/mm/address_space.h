/* User address spaces: one Sv39 page table per program whose upper half (the
 * kernel) is shared with every other table, and the only way the kernel touches user
 * memory: copy_to_user / copy_from_user. On the program's own hart they copy with
 * sstatus.SUM set and let the MMU check the mapping (user_copy.S: a fault there
 * becomes -EFAULT); for any other address space they walk its page table in software
 * and copy through the direct map. Either way a bad user pointer is an error code,
 * never a kernel fault. No locking: a program's address space changes only through its own
 * system calls (one task per program). */
#ifndef DUPLEX_MM_ADDRESS_SPACE_H
#define DUPLEX_MM_ADDRESS_SPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define USER_STACK_TOP  0x3ffffff000ull /* a guard page above and below the stack */
#define USER_STACK_SIZE (64 * 1024)
#define USER_HEAP_LIMIT (64ull << 20) /* brk may grow this far past the program */
/* mmap places memory from the heap's limit up to here, 4 GiB below the stack. */
#define USER_MMAP_TOP (USER_STACK_TOP - USER_STACK_SIZE - (4ull << 30))

/* Access a user mapping must allow (none of them: a PROT_NONE page, which keeps its
 * memory but faults on every access). */
#define USER_READ  1
#define USER_WRITE 2
#define USER_EXEC  4

struct address_space {
	uint64_t *root; /* page table (direct-map address) */
	uint64_t satp;
	uint64_t pages;      /* user pages mapped */
	uint64_t heap_start; /* first byte past the program's segments */
	uint64_t brk;        /* current break */
};

/* A new, empty user address space; false when out of memory. Task context. */
bool address_space_create(struct address_space *space);
/* Free every user page and page-table page. The space must not be active on any hart. */
void address_space_destroy(struct address_space *space);
/* fork: make `destination` a new space with the same pages as `source`, copy-on-write
 * (docs/design.md "Copy-on-write fork"): its own page tables, but every page shared and
 * reference-counted, the writable ones read-only in both spaces until one stores to
 * them (address_space_write_fault), and the same heap bounds. False when out of memory
 * for the page tables, with nothing allocated. Task context; the source is the caller's
 * own space, live on this hart (its TLB is flushed here). */
bool address_space_copy(struct address_space *destination, struct address_space *source);
/* A store to user `address` faulted (scause 15, from the program or from the kernel's
 * user_copy): if its page is copy-on-write, give `space` a private writable page there
 * (a copy, or the page itself when no other space still maps it) and return 0, so that
 * the store can run again. -EFAULT when the page is not copy-on-write (a real fault),
 * -ENOMEM when no page is free for the copy. Task or trap context on the space's own
 * task (or on a space not running anywhere); never sleeps; flushes this hart's TLB. */
int address_space_write_fault(struct address_space *space, uint64_t address);
/* Map fresh zeroed pages over [start, start + size) (page-rounded) with `access`.
 * Returns false when out of memory or the range is outside user space. */
bool address_space_map(struct address_space *space, uint64_t start, uint64_t size, int access);
/* Unmap and free the pages of [start, start + size) (whole pages inside the range).
 * Costs what is mapped there, not the size of the range. */
void address_space_unmap(struct address_space *space, uint64_t start, uint64_t size);
/* True if no page of [start, start + size) (page-aligned) is mapped. */
bool address_space_range_free(struct address_space *space, uint64_t start, uint64_t size);
/* The lowest page-aligned start of `size` unmapped bytes within [low, high), or 0. */
uint64_t address_space_find_free(struct address_space *space, uint64_t size, uint64_t low,
                                 uint64_t high);
/* mprotect: give every page of [start, start + size) (page-aligned) `access`. Returns
 * 0, or -ENOMEM (changing nothing) if any page in the range is not mapped. The space
 * must be the caller's own, live on this hart (its TLB is flushed). */
int address_space_protect(struct address_space *space, uint64_t start, uint64_t size, int access);

/* Copies; each returns 0 or -EFAULT. After -EFAULT the bytes before the bad one may
 * have been copied (as on Linux): callers that must not lose data check the range
 * first with user_range_ok. Any task. */
int copy_to_user(struct address_space *space, uint64_t user_address, const void *source,
                 size_t length);
int copy_from_user(struct address_space *space, void *destination, uint64_t user_address,
                   size_t length);
/* Copy a NUL-terminated string of at most `capacity` bytes including the NUL.
 * Returns its length, -EFAULT, or -ENAMETOOLONG when no NUL fits. */
long copy_string_from_user(struct address_space *space, char *destination, uint64_t user_address,
                           size_t capacity);
/* True if [user_address, +length) lies inside user space without wrapping (no
 * mapping check). */
bool user_range_in_bounds(uint64_t user_address, size_t length);
/* Check a whole user range is mapped with `access` (for syscalls that hand it on). */
bool user_range_ok(struct address_space *space, uint64_t user_address, size_t length, int access);

/* Fill mapped user memory whatever its permissions (the program loader writing
 * read-only text). A shared page is unshared first. Returns 0 or -EFAULT if any page is
 * unmapped (or no page is free to unshare one). */
int address_space_load(struct address_space *space, uint64_t user_address, const void *source,
                       size_t length);

/* brk(2): move the break; returns the new (or, on failure, unchanged) break. */
uint64_t address_space_brk(struct address_space *space, uint64_t new_break);

#endif
