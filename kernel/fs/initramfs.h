/* The program archive built into the kernel image (a cpio newc archive of bin/ and
 * etc/, built by user/user.mk and included by kernel/fs/initramfs_data.S). Read-only. */
#ifndef DUPLEX_FS_INITRAMFS_H
#define DUPLEX_FS_INITRAMFS_H

#include <stdbool.h>

#include "kernel/fs/cpio.h"
#include "kernel/fs/file.h"
#include "kernel/fs/path.h"

/* Find a regular file by absolute path. */
bool initramfs_find(const char *path, struct cpio_entry *entry);
/* What canonical `name` ("bin/sh", "" for the root) is in the archive: a file, a
 * directory (the root, or any proper prefix of an entry's name), or missing. */
enum path_kind initramfs_kind(const char *name);
/* Open the archive file or directory canonical `name` (file_open_at has checked the
 * flags and that it is one). Returns 0, -ENOENT, -ENAMETOOLONG or -ENOMEM. */
int initramfs_open_file(const char *name, int flags, struct file **file);
int initramfs_open_directory(const char *name, int flags, struct file **file);
/* Entries and bytes, for the boot log. */
void initramfs_describe(int *entries, unsigned long *bytes);

#endif
