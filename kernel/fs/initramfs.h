/* The program archive built into the kernel image (a cpio newc archive of bin/ and
 * etc/, built by user/user.mk and included by kernel/fs/initramfs_data.S). Read-only. */
#ifndef DUPLEX_FS_INITRAMFS_H
#define DUPLEX_FS_INITRAMFS_H

#include <stdbool.h>

#include "kernel/fs/cpio.h"
#include "kernel/fs/file.h"

/* Find a regular file by absolute path. */
bool initramfs_find(const char *path, struct cpio_entry *entry);
/* Open an archive file (read-only) or directory ("/", "/bin", any prefix of a name).
 * Returns 0 or -ENOENT, -EACCES, -ENOTDIR, -EISDIR, -ENOMEM. */
int initramfs_open(const char *path, int flags, struct file **file);
/* Entries and bytes, for the boot log. */
void initramfs_describe(int *entries, unsigned long *bytes);

#endif
