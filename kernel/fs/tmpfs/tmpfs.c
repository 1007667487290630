/* tmpfs: the tree of names and the file system ops (see tmpfs.h, tmpfs_node.h). Every
 * op takes tmpfs.lock for its whole length: path resolution checked the directories
 * on the way a moment before, so each op looks again and answers ENOENT if the tree
 * changed in between. */
#include "kernel/fs/tmpfs/tmpfs.h"

#include "kernel/fs/file_system.h"
#include "kernel/fs/tmpfs/tmpfs_node.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page.h"
#include "kernel/timer/clock.h"

struct tmpfs tmpfs_instance = {.lock = MUTEX_INIT("tmpfs")};

bool tmpfs_charge(struct tmpfs *fs, uint64_t bytes)
{
	if (bytes > fs->budget - fs->used)
		return false;
	fs->used += bytes;
	return true;
}

void tmpfs_refund(struct tmpfs *fs, uint64_t bytes)
{
	fs->used -= bytes;
}

/* A file's times come from the wall clock (CLOCK_REALTIME, which the RTC sets at boot),
 * as Linux's current_time() does, so that a file made now is dated now and not 1970 plus
 * the time since boot. Any context. */
int64_t tmpfs_now(void)
{
	return (int64_t)clock_realtime_ns();
}

static uint64_t node_cost(size_t name_length)
{
	return sizeof(struct tmpfs_node) + name_length + 1;
}

static bool is_directory(const struct tmpfs_node *node)
{
	return (node->mode & FILE_MODE_TYPE) == FILE_MODE_DIRECTORY;
}

/* The child of `directory` called name[0..length), or NULL. */
static struct tmpfs_node *child_named(const struct tmpfs_node *directory, const char *name,
                                      size_t length)
{
	for (struct tmpfs_node *child = directory->first_child; child;
	     child = child->next_sibling) {
		if (strlen(child->name) == length && memcmp(child->name, name, length) == 0)
			return child;
	}
	return 0;
}

/* The node canonical relative `name` names ("" the root), or NULL. */
static struct tmpfs_node *walk(struct tmpfs *fs, const char *name, size_t length)
{
	struct tmpfs_node *node = fs->root;
	size_t at = 0;
	while (node && at < length) {
		size_t end = at;
		while (end < length && name[end] != '/')
			end++;
		node = is_directory(node) ? child_named(node, name + at, end - at) : 0;
		at = end + (end < length);
	}
	return node;
}

/* Split `name` into its directory (which must exist: ENOENT, ENOTDIR) and last
 * component (*leaf). */
static int walk_parent(struct tmpfs *fs, const char *name, struct tmpfs_node **parent,
                       const char **leaf)
{
	const char *slash = 0;
	for (const char *c = name; *c; c++)
		if (*c == '/')
			slash = c;
	*leaf = slash ? slash + 1 : name;
	*parent = walk(fs, name, slash ? (size_t)(slash - name) : 0);
	if (!*parent)
		return -ENOENT;
	return is_directory(*parent) ? 0 : -ENOTDIR;
}

static void append_child(struct tmpfs_node *parent, struct tmpfs_node *node)
{
	struct tmpfs_node **link = &parent->first_child;
	while (*link)
		link = &(*link)->next_sibling;
	node->next_sibling = 0;
	*link = node;
	node->parent = parent;
	if (is_directory(node))
		parent->links++;
	parent->times[1] = parent->times[2] = tmpfs_now();
}

static void detach_child(struct tmpfs_node *node)
{
	struct tmpfs_node *parent = node->parent;
	struct tmpfs_node **link = &parent->first_child;
	while (*link != node)
		link = &(*link)->next_sibling;
	*link = node->next_sibling;
	node->next_sibling = 0;
	node->parent = 0;
	if (is_directory(node))
		parent->links--;
	parent->times[1] = parent->times[2] = tmpfs_now();
}

/* A new node `leaf` of `mode` in `parent` (which has no such child). */
static int new_node(struct tmpfs *fs, struct tmpfs_node *parent, const char *leaf, uint32_t mode,
                    struct tmpfs_node **out)
{
	size_t length = strlen(leaf);
	if (!tmpfs_charge(fs, node_cost(length)))
		return -ENOSPC;
	struct tmpfs_node *node = kzalloc(sizeof *node);
	char *name = kmalloc(length + 1);
	if (!node || !name) {
		kfree(node);
		kfree(name);
		tmpfs_refund(fs, node_cost(length));
		return -ENOMEM;
	}
	memcpy(name, leaf, length + 1);
	node->name = name;
	node->mode = mode;
	node->links = (mode & FILE_MODE_TYPE) == FILE_MODE_DIRECTORY ? 2 : 1;
	node->inode = fs->next_inode++;
	node->times[0] = node->times[1] = node->times[2] = tmpfs_now();
	append_child(parent, node);
	*out = node;
	return 0;
}

void tmpfs_node_free(struct tmpfs *fs, struct tmpfs_node *node)
{
	if (node->target) {
		tmpfs_refund(fs, node->size + 1);
		kfree(node->target);
	} else {
		tmpfs_data_truncate(fs, node, 0);
	}
	tmpfs_refund(fs, node_cost(strlen(node->name)));
	kfree(node->name);
	kfree(node);
}

/* Take `node` out of the tree (it has a parent); freed now unless it is open. */
static void drop_name(struct tmpfs *fs, struct tmpfs_node *node)
{
	detach_child(node);
	node->links = 0;
	node->times[2] = tmpfs_now();
	if (node->opened == 0)
		tmpfs_node_free(fs, node);
}

static enum path_kind tmpfs_lookup(struct file_system *file_system, const char *name, char *target,
                                   size_t target_size)
{
	struct tmpfs *fs = file_system->data;
	mutex_lock(&fs->lock);
	struct tmpfs_node *node = walk(fs, name, strlen(name));
	enum path_kind kind = PATH_MISSING;
	if (node) {
		switch (node->mode & FILE_MODE_TYPE) {
		case FILE_MODE_DIRECTORY:
			kind = PATH_DIRECTORY;
			break;
		case FILE_MODE_SYMLINK: {
			size_t length = node->size < target_size ? node->size : target_size - 1;
			memcpy(target, node->target, length);
			target[length] = 0;
			kind = PATH_SYMLINK;
			break;
		}
		default:
			kind = PATH_FILE;
		}
	}
	mutex_unlock(&fs->lock);
	return kind;
}

static int tmpfs_status(struct file_system *file_system, const char *name,
                        struct file_status *status)
{
	struct tmpfs *fs = file_system->data;
	mutex_lock(&fs->lock);
	struct tmpfs_node *node = walk(fs, name, strlen(name));
	if (node)
		tmpfs_fill_status(node, status);
	mutex_unlock(&fs->lock);
	return node ? 0 : -ENOENT;
}

/* An open file of `node` (fs->lock held). */
static int open_node(struct tmpfs_node *node, int flags, struct file **file)
{
	*file = file_create(is_directory(node) ? &tmpfs_directory_ops : &tmpfs_regular_ops,
	                    flags & ~O_TRUNC);
	if (!*file)
		return -ENOMEM;
	(*file)->node = node;
	node->opened++;
	return 0;
}

static int tmpfs_open(struct file_system *file_system, const char *name, int flags,
                      struct file **file)
{
	struct tmpfs *fs = file_system->data;
	mutex_lock(&fs->lock);
	struct tmpfs_node *node = walk(fs, name, strlen(name));
	int error = -ENOENT;
	if (node && (node->mode & FILE_MODE_TYPE) == FILE_MODE_SYMLINK)
		error = -ELOOP; /* resolution follows links: only a race gets here */
	else if (node)
		error = open_node(node, flags, file);
	if (error == 0 && (flags & O_TRUNC) && !is_directory(node) && node->size) {
		tmpfs_data_truncate(fs, node, 0);
		node->times[1] = node->times[2] = tmpfs_now();
	}
	mutex_unlock(&fs->lock);
	return error;
}

static int tmpfs_create(struct file_system *file_system, const char *name, uint32_t mode, int flags,
                        struct file **file)
{
	struct tmpfs *fs = file_system->data;
	struct tmpfs_node *parent, *node;
	const char *leaf;
	mutex_lock(&fs->lock);
	int error = walk_parent(fs, name, &parent, &leaf);
	if (error == 0 && child_named(parent, leaf, strlen(leaf)))
		error = -EEXIST;
	if (error == 0)
		error = new_node(fs, parent, leaf, FILE_MODE_REGULAR | mode, &node);
	if (error == 0) {
		error = open_node(node, flags, file);
		if (error)
			drop_name(fs, node);
	}
	mutex_unlock(&fs->lock);
	return error;
}

static int tmpfs_make_directory(struct file_system *file_system, const char *name, uint32_t mode)
{
	struct tmpfs *fs = file_system->data;
	struct tmpfs_node *parent, *node;
	const char *leaf;
	mutex_lock(&fs->lock);
	int error = walk_parent(fs, name, &parent, &leaf);
	if (error == 0 && child_named(parent, leaf, strlen(leaf)))
		error = -EEXIST;
	if (error == 0)
		error = new_node(fs, parent, leaf, FILE_MODE_DIRECTORY | mode, &node);
	mutex_unlock(&fs->lock);
	return error;
}

static int tmpfs_symlink(struct file_system *file_system, const char *target, const char *name)
{
	struct tmpfs *fs = file_system->data;
	struct tmpfs_node *parent, *node;
	const char *leaf;
	size_t length = strlen(target);
	mutex_lock(&fs->lock);
	int error = walk_parent(fs, name, &parent, &leaf);
	if (error == 0 && child_named(parent, leaf, strlen(leaf)))
		error = -EEXIST;
	char *copy = 0;
	if (error == 0 && !tmpfs_charge(fs, length + 1))
		error = -ENOSPC;
	else if (error == 0 && !(copy = kmalloc(length + 1))) {
		tmpfs_refund(fs, length + 1);
		error = -ENOMEM;
	}
	if (error == 0) {
		error = new_node(fs, parent, leaf, FILE_MODE_SYMLINK | 0777, &node);
		if (error) {
			kfree(copy);
			tmpfs_refund(fs, length + 1);
		} else {
			memcpy(copy, target, length + 1);
			node->target = copy;
			node->size = length;
		}
	}
	mutex_unlock(&fs->lock);
	return error;
}

static int tmpfs_remove(struct file_system *file_system, const char *name, bool directory)
{
	struct tmpfs *fs = file_system->data;
	mutex_lock(&fs->lock);
	struct tmpfs_node *node = walk(fs, name, strlen(name));
	int error = 0;
	if (!node || node == fs->root)
		error = node ? -EBUSY : -ENOENT;
	else if (directory && !is_directory(node))
		error = -ENOTDIR;
	else if (directory && node->first_child)
		error = -ENOTEMPTY;
	else if (!directory && is_directory(node))
		error = -EISDIR;
	else
		drop_name(fs, node);
	mutex_unlock(&fs->lock);
	return error;
}

/* Is `node` `ancestor` or inside it? */
static bool within(const struct tmpfs_node *node, const struct tmpfs_node *ancestor)
{
	for (; node; node = node->parent) {
		if (node == ancestor)
			return true;
	}
	return false;
}

/* RENAME_EXCHANGE: `old` and `other` swap names (and directories); the types may
 * differ. Neither directory may go inside itself (EINVAL). The names' costs swap too, so
 * the budget's total stays. */
static int exchange(struct tmpfs_node *old, struct tmpfs_node *other)
{
	struct tmpfs_node *old_parent = old->parent, *other_parent = other->parent;
	if ((is_directory(old) && within(other_parent, old)) ||
	    (is_directory(other) && within(old_parent, other)))
		return -EINVAL;
	detach_child(old);
	detach_child(other);
	char *name = old->name;
	old->name = other->name;
	other->name = name;
	append_child(other_parent, old);
	append_child(old_parent, other);
	old->times[2] = other->times[2] = tmpfs_now();
	return 0;
}

/* Linux's rename rules (fs/namei.c vfs_rename, mm/shmem.c shmem_rename2), the names
 * known to lie in this tmpfs. */
static int rename_locked(struct tmpfs *fs, const char *from, const char *to, unsigned flags)
{
	struct tmpfs_node *old = walk(fs, from, strlen(from)), *parent;
	const char *leaf;
	if (!old)
		return -ENOENT;
	if (old == fs->root)
		return -EBUSY;
	int error = walk_parent(fs, to, &parent, &leaf);
	if (error)
		return error;
	size_t length = strlen(leaf);
	struct tmpfs_node *existing = child_named(parent, leaf, length);
	if (existing == old)
		return 0; /* the same file: nothing happens (POSIX) */
	if (flags & RENAME_EXCHANGE)
		return existing ? exchange(old, existing) : -ENOENT;
	if (is_directory(old) && within(parent, old))
		return -EINVAL; /* into itself */
	if (existing) {
		if (flags & RENAME_NOREPLACE)
			return -EEXIST;
		if (is_directory(old) && !is_directory(existing))
			return -ENOTDIR;
		if (!is_directory(old) && is_directory(existing))
			return -EISDIR;
		if (existing->first_child)
			return -ENOTEMPTY;
	}
	size_t old_length = strlen(old->name);
	if (length > old_length && !tmpfs_charge(fs, length - old_length))
		return -ENOSPC;
	char *name = kmalloc(length + 1);
	if (!name) {
		if (length > old_length)
			tmpfs_refund(fs, length - old_length);
		return -ENOMEM;
	}
	if (length < old_length)
		tmpfs_refund(fs, old_length - length);
	memcpy(name, leaf, length + 1);
	if (existing)
		drop_name(fs, existing);
	detach_child(old);
	kfree(old->name);
	old->name = name;
	old->times[2] = tmpfs_now();
	append_child(parent, old);
	return 0;
}

static int tmpfs_rename(struct file_system *file_system, const char *from, const char *to,
                        unsigned flags)
{
	struct tmpfs *fs = file_system->data;
	mutex_lock(&fs->lock);
	int error = rename_locked(fs, from, to, flags);
	mutex_unlock(&fs->lock);
	return error;
}

static int tmpfs_set_mode(struct file_system *file_system, const char *name, uint32_t mode)
{
	struct tmpfs *fs = file_system->data;
	mutex_lock(&fs->lock);
	struct tmpfs_node *node = walk(fs, name, strlen(name));
	if (node) {
		node->mode = (node->mode & FILE_MODE_TYPE) | (mode & 07777);
		node->times[2] = tmpfs_now();
	}
	mutex_unlock(&fs->lock);
	return node ? 0 : -ENOENT;
}

void tmpfs_node_set_times(struct tmpfs_node *node, const int64_t times[2])
{
	int64_t now = tmpfs_now();
	for (int i = 0; i < 2; i++) {
		if (times[i] != FILE_TIME_OMIT)
			node->times[i] = times[i] == FILE_TIME_NOW ? now : times[i];
	}
	if (times[0] != FILE_TIME_OMIT || times[1] != FILE_TIME_OMIT)
		node->times[2] = now;
}

static int tmpfs_set_times(struct file_system *file_system, const char *name,
                           const int64_t times[2])
{
	struct tmpfs *fs = file_system->data;
	mutex_lock(&fs->lock);
	struct tmpfs_node *node = walk(fs, name, strlen(name));
	if (node)
		tmpfs_node_set_times(node, times);
	mutex_unlock(&fs->lock);
	return node ? 0 : -ENOENT;
}

static const struct file_system_ops tmpfs_ops = {
    .lookup = tmpfs_lookup,
    .status = tmpfs_status,
    .open = tmpfs_open,
    .create = tmpfs_create,
    .make_directory = tmpfs_make_directory,
    .remove = tmpfs_remove,
    .rename = tmpfs_rename,
    .symlink = tmpfs_symlink,
    .set_mode = tmpfs_set_mode,
    .set_times = tmpfs_set_times,
};

static struct file_system tmpfs_file_system = {
    .name = "tmpfs", .ops = &tmpfs_ops, .data = &tmpfs_instance};

uint64_t tmpfs_default_pages(uint64_t free_pages)
{
	return free_pages / 4;
}

uint64_t tmpfs_largest_pages(uint64_t free_pages)
{
	return free_pages / 4 * 3;
}

int tmpfs_mount(const char *point, uint64_t pages)
{
	struct tmpfs *fs = &tmpfs_instance;
	fs->budget = pages * PAGE_SIZE;
	struct tmpfs_node *root = kzalloc(sizeof *root);
	if (!root)
		return -1;
	root->name = "";
	root->mode = FILE_MODE_DIRECTORY | 01777; /* /tmp: everyone's, sticky (Linux, FHS) */
	root->links = 2;
	root->inode = 1;
	fs->next_inode = 2;
	root->times[0] = root->times[1] = root->times[2] = tmpfs_now();
	fs->root = root;
	return mount_add(point, &tmpfs_file_system);
}
