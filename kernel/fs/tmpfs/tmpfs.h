/* tmpfs: a writable file system in RAM (Linux mm/shmem.c's role, much smaller), mounted
 * at /tmp. Files keep their bytes in whole pages from the page allocator, allocated as
 * they are written (a hole reads as zeros and costs nothing); everything it allocates
 * (data pages, its page index, nodes and names, link targets) is charged to a budget of
 * pages fixed at mount time, so a full tmpfs answers ENOSPC and never takes the memory
 * the rest of the kernel needs. Removing a file returns its pages at once, or when its
 * last open descriptor closes. One mutex guards the whole tree. */
#ifndef DUPLEX_FS_TMPFS_TMPFS_H
#define DUPLEX_FS_TMPFS_TMPFS_H

#include <stdint.h>

/* Mount a new, empty tmpfs at canonical `point` ("tmp") with room for `pages` pages (0:
 * every write and new name is ENOSPC; its root directory is not charged). Called once by
 * kernel_main at boot (the budget from `tmpfs.pages=`). Returns 0, or -1 when the mount
 * table is full or memory is short. */
int tmpfs_mount(const char *point, uint64_t pages);

/* The pages the default budget is: a quarter of `free_pages`, Linux's tmpfs taking half
 * but Duplex's programs living in RAM too. */
uint64_t tmpfs_default_pages(uint64_t free_pages);
/* The largest budget `tmpfs.pages=` may ask for: three quarters of `free_pages`, so a
 * full tmpfs still leaves the kernel and its programs a quarter. */
uint64_t tmpfs_largest_pages(uint64_t free_pages);

#endif
