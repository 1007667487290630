/* tmpfs's own records, shared by its two files: the tree (tmpfs.c) and the bytes of a
 * file (tmpfs_data.c). Everything here is guarded by tmpfs.lock. */
#ifndef DUPLEX_FS_TMPFS_NODE_H
#define DUPLEX_FS_TMPFS_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fs/file.h"
#include "kernel/sync/mutex.h"

/* One file, directory or symbolic link. There are no hard links, so a node has at most
 * one name, and it lives in the node. */
struct tmpfs_node {
	uint32_t mode;  /* S_IF* type and permission bits */
	uint32_t links; /* names pointing at it (2 + subdirectories for a directory); 0 once
	                   removed: freed when `opened` drops to 0 too */
	int opened;     /* open files referring to it */
	uint64_t inode;
	int64_t times[3]; /* access, modification, change: ns */
	char *name;
	struct tmpfs_node *parent, *first_child, *next_sibling; /* directories */
	uint64_t size;   /* regular files: bytes; links: target length */
	uint8_t **pages; /* regular files: page_slots entries, NULL for a hole */
	uint64_t page_slots;
	char *target; /* symbolic links */
};

struct tmpfs {
	struct mutex lock;
	struct tmpfs_node *root;
	uint64_t budget; /* bytes it may use */
	uint64_t used;
	uint64_t next_inode;
};

/* Charge `bytes` to the budget: false (and nothing charged) if they do not fit. */
bool tmpfs_charge(struct tmpfs *fs, uint64_t bytes);
void tmpfs_refund(struct tmpfs *fs, uint64_t bytes);
/* The time stamps' clock: the wall clock, ns since the Unix epoch. */
int64_t tmpfs_now(void);

/* tmpfs_data.c, all with fs->lock held. Copy out up to `length` bytes at `offset`. */
uint64_t tmpfs_data_read(const struct tmpfs_node *node, uint64_t offset, void *buffer,
                         uint64_t length);
/* Copy in `length` bytes at `offset`, growing the file: the bytes written (fewer when the
 * budget ran out), or -ENOSPC / -EFBIG / -ENOMEM if none were. */
long tmpfs_data_write(struct tmpfs *fs, struct tmpfs_node *node, uint64_t offset, const void *data,
                      uint64_t length);
/* Set the length; pages past it are freed, the tail of the last one zeroed. 0 or -errno. */
int tmpfs_data_truncate(struct tmpfs *fs, struct tmpfs_node *node, uint64_t size);

/* tmpfs_file.c: the open-file ops; the open file holds node->opened. */
extern const struct file_ops tmpfs_regular_ops, tmpfs_directory_ops;
/* utimensat's change (fs->lock held; times as file_system_ops.set_times takes them). */
void tmpfs_node_set_times(struct tmpfs_node *node, const int64_t times[2]);
/* fstat's answer for `node` (fs->lock held). */
void tmpfs_fill_status(const struct tmpfs_node *node, struct file_status *status);
/* Drop a node whose links and opens are both 0 (fs->lock held). */
void tmpfs_node_free(struct tmpfs *fs, struct tmpfs_node *node);
/* The one tmpfs (the file ops reach it from here). */
extern struct tmpfs tmpfs_instance;

#endif
