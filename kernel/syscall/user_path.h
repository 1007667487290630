/* A path a system call takes from user space with a directory descriptor, resolved
 * under Linux's *at() rules (fs/namei.c, path_init): openat, newfstatat and readlinkat
 * all come through here, so a rule is written once.
 *   - an empty path is ENOENT before the descriptor is looked at, unless the call
 *     names the descriptor itself with it (fstatat's AT_EMPTY_PATH);
 *   - an absolute path ignores the descriptor, even a bad one;
 *   - a relative path starts at the descriptor's directory, or at the root for
 *     AT_FDCWD (Duplex has no working directory): a bad descriptor is EBADF, one that
 *     is not a directory ENOTDIR.
 * What the path then resolves to is kernel/fs/path.h's business. */
#ifndef DUPLEX_SYSCALL_USER_PATH_H
#define DUPLEX_SYSCALL_USER_PATH_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fs/file.h"
#include "kernel/proc/process.h"

#define AT_FDCWD      (-100)
#define USER_PATH_MAX 256 /* bytes of path a call takes, with the NUL */

/* How an empty path is taken. */
enum user_path_empty {
	USER_PATH_EMPTY_ENOENT,   /* Linux's getname: an error */
	USER_PATH_EMPTY_NAMES_FD, /* AT_EMPTY_PATH: the descriptor itself (any kind) */
};

/* Open what (directory_fd, the string at path_address in `process`'s memory) names with
 * the Linux open `flags` (file_open_at's rules). Returns 0 with *file holding a reference
 * of its own, or -errno: -EFAULT, -ENAMETOOLONG, -ENOENT, -EBADF, -ENOTDIR and what
 * file_open_at returns. Called by the system calls, in task context, for the calling
 * process; may sleep (the user copy may fault); no lock held. */
long user_path_open(struct process *process, uint64_t directory_fd, uint64_t path_address,
                    int flags, enum user_path_empty empty, struct file **file);

#endif
