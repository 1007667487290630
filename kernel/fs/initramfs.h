/* The program archive built into the kernel image (a cpio newc archive of bin/ and
 * etc/, built by user/user.mk and included by kernel/fs/initramfs_data.S): the
 * read-only file system mounted at / (initramfs_file_system, kernel/fs/file_system.h). */
#ifndef DUPLEX_FS_INITRAMFS_H
#define DUPLEX_FS_INITRAMFS_H

#include <stdbool.h>

#include "kernel/fs/cpio.h"

/* Find a regular file by absolute path. */
bool initramfs_find(const char *path, struct cpio_entry *entry);
/* Entries and bytes, for the boot log. */
void initramfs_describe(int *entries, unsigned long *bytes);

#endif
