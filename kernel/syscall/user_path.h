/* A path a system call takes from user space with a directory descriptor, resolved
 * under Linux's *at() rules (fs/namei.c, path_init): every path call comes through here
 * (openat, newfstatat, readlinkat, mkdirat, unlinkat, renameat2, symlinkat, faccessat,
 * fchmodat, utimensat, chdir), so a rule is written once.
 *   - an empty path is ENOENT before the descriptor is looked at, unless the call
 *     names the descriptor itself with it (AT_EMPTY_PATH);
 *   - an absolute path ignores the descriptor, even a bad one;
 *   - a relative path starts at the descriptor's directory, or at the process's working
 *     directory for AT_FDCWD: a bad descriptor is EBADF, one that is not a directory
 *     ENOTDIR.
 * What the path then resolves to is kernel/fs/path.h's business. */
#ifndef DUPLEX_SYSCALL_USER_PATH_H
#define DUPLEX_SYSCALL_USER_PATH_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fs/file.h"
#include "kernel/proc/process.h"

#define USER_PATH_MAX 1024 /* bytes of path a call takes, with the NUL */

/* How an empty path is taken. */
enum user_path_empty {
	USER_PATH_EMPTY_ENOENT,   /* Linux's getname: an error */
	USER_PATH_EMPTY_NAMES_FD, /* AT_EMPTY_PATH: the descriptor itself (any kind) */
};

/* A path taken from user space: the string, and where a relative one starts. */
struct user_path {
	char path[USER_PATH_MAX];
	const char *base;    /* canonical directory (in the process or an open file) */
	struct file *itself; /* AT_EMPTY_PATH with an empty path: the descriptor's file
	                        (no reference of its own; NULL for AT_FDCWD, the cwd) */
};

/* Copy the path at `path_address` in `process`'s memory and find its base from
 * `directory_fd`. Returns 0, or -EFAULT, -ENAMETOOLONG, -ENOENT, -EBADF, -ENOTDIR. With
 * USER_PATH_EMPTY_NAMES_FD and an empty path, out->path is "." from out->base when
 * out->itself is NULL (AT_FDCWD or a directory), and out->itself is the descriptor's
 * file otherwise. Task context, for the calling process; may sleep (the user copy may
 * fault); no lock held. `out` is valid while the descriptor stays open. */
long user_path_get(struct process *process, uint64_t directory_fd, uint64_t path_address,
                   enum user_path_empty empty, struct user_path *out);

/* user_path_get, then open what it names with the Linux open `flags` and `mode`
 * (file_open_at's rules). Returns 0 with *file holding a reference of its own, or
 * -errno. The same context. */
long user_path_open(struct process *process, uint64_t directory_fd, uint64_t path_address,
                    int flags, uint32_t mode, enum user_path_empty empty, struct file **file);

#endif
