/* A process's descriptor table as the system calls change it: installing an open file
 * at the lowest free descriptor, replacing one (dup3), closing one, each keeping the
 * descriptor's close-on-exec bit (struct process close_on_exec) in step. Linux's
 * fs/file.c (alloc_fd, do_dup2, close_fd) in miniature. Task context, on the process's
 * own task (only it changes its table): no lock. */
#ifndef DUPLEX_SYSCALL_DESCRIPTOR_H
#define DUPLEX_SYSCALL_DESCRIPTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fs/file.h"
#include "kernel/proc/process.h"

/* Put `file` (the caller's reference moves into the table) at the lowest free
 * descriptor at or above `minimum`, with its close-on-exec bit as given. Returns the
 * descriptor, or -EMFILE (the reference stays the caller's). */
int descriptor_install(struct process *process, struct file *file, uint64_t minimum,
                       bool close_on_exec);
/* Put `file` at `fd` (< PROCESS_MAX_FILES), closing what was there; takes a reference. */
void descriptor_replace(struct process *process, uint64_t fd, struct file *file,
                        bool close_on_exec);
/* Close `fd`: 0, or -EBADF if it is not open. */
int descriptor_close(struct process *process, uint64_t fd);
/* The close-on-exec bit of open descriptor `fd`. */
bool descriptor_close_on_exec(const struct process *process, uint64_t fd);
void descriptor_set_close_on_exec(struct process *process, uint64_t fd, bool close_on_exec);

#endif
