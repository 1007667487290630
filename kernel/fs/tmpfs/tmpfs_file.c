/* Open tmpfs files and directories: the file ops (see tmpfs_node.h). file->node is the
 * node, whose `opened` count the open file holds; each op takes tmpfs.lock. */
#include "kernel/fs/dirent.h"
#include "kernel/fs/file_system.h"
#include "kernel/fs/tmpfs/tmpfs_node.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

static long regular_read(struct file *file, void *buffer, size_t length)
{
	struct tmpfs *fs = &tmpfs_instance;
	struct tmpfs_node *node = file->node;
	mutex_lock(&fs->lock);
	uint64_t got = tmpfs_data_read(node, file->offset, buffer, length);
	file->offset += got;
	node->times[0] = tmpfs_now();
	mutex_unlock(&fs->lock);
	return (long)got;
}

/* O_APPEND moves to the end under the lock, so appends from two descriptors never
 * overwrite each other. */
static long regular_write(struct file *file, const void *data, size_t length)
{
	struct tmpfs *fs = &tmpfs_instance;
	struct tmpfs_node *node = file->node;
	mutex_lock(&fs->lock);
	if (__atomic_load_n(&file->flags, __ATOMIC_RELAXED) & O_APPEND)
		file->offset = node->size;
	long result = tmpfs_data_write(fs, node, file->offset, data, length);
	if (result > 0) {
		file->offset += (uint64_t)result;
		node->times[1] = node->times[2] = tmpfs_now();
	}
	mutex_unlock(&fs->lock);
	return result;
}

static long regular_seek(struct file *file, int64_t offset, int whence)
{
	struct tmpfs *fs = &tmpfs_instance;
	mutex_lock(&fs->lock);
	file->size = ((struct tmpfs_node *)file->node)->size;
	long result = file_seek_sized(file, offset, whence);
	mutex_unlock(&fs->lock);
	return result;
}

static long regular_truncate(struct file *file, uint64_t size)
{
	struct tmpfs *fs = &tmpfs_instance;
	struct tmpfs_node *node = file->node;
	mutex_lock(&fs->lock);
	int error = tmpfs_data_truncate(fs, node, size);
	if (error == 0)
		node->times[1] = node->times[2] = tmpfs_now();
	mutex_unlock(&fs->lock);
	return error;
}

void tmpfs_fill_status(const struct tmpfs_node *node, struct file_status *status)
{
	uint64_t pages = 0;
	for (uint64_t i = 0; i < node->page_slots; i++)
		pages += node->pages[i] != 0;
	*status = (struct file_status){.mode = node->mode,
	                               .device = FILE_DEVICE_TMPFS,
	                               .inode = node->inode,
	                               .size = node->size,
	                               .block_size = 4096,
	                               .links = node->links,
	                               .counts_links = true,
	                               .blocks = pages * 8,
	                               .times = {node->times[0], node->times[1], node->times[2]}};
}

static void node_status(const struct file *file, struct file_status *status)
{
	struct tmpfs *fs = &tmpfs_instance;
	mutex_lock(&fs->lock);
	tmpfs_fill_status(file->node, status);
	mutex_unlock(&fs->lock);
}

static long node_set_times(struct file *file, const int64_t times[2])
{
	struct tmpfs *fs = &tmpfs_instance;
	mutex_lock(&fs->lock);
	tmpfs_node_set_times(file->node, times);
	mutex_unlock(&fs->lock);
	return 0;
}

static long node_set_mode(struct file *file, uint32_t mode)
{
	struct tmpfs *fs = &tmpfs_instance;
	struct tmpfs_node *node = file->node;
	mutex_lock(&fs->lock);
	node->mode = (node->mode & FILE_MODE_TYPE) | (mode & 07777);
	node->times[2] = tmpfs_now();
	mutex_unlock(&fs->lock);
	return 0;
}

static void node_release(struct file *file)
{
	struct tmpfs *fs = &tmpfs_instance;
	struct tmpfs_node *node = file->node;
	mutex_lock(&fs->lock);
	if (--node->opened == 0 && node->links == 0)
		tmpfs_node_free(fs, node);
	mutex_unlock(&fs->lock);
}

/* A listing: the children in the order they were made (a new name goes last), each
 * once; file->offset counts those already returned. A name removed meanwhile can make
 * one later name be skipped, as the offset then counts one entry fewer. */
static long directory_list(struct file *file, void *buffer, size_t length)
{
	struct tmpfs *fs = &tmpfs_instance;
	struct tmpfs_node *directory = file->node;
	uint8_t *out = buffer;
	size_t used = 0;
	bool too_small = false;
	mutex_lock(&fs->lock);
	uint64_t index = 0;
	for (struct tmpfs_node *child = directory->first_child; child;
	     child = child->next_sibling, index++) {
		if (index < file->offset)
			continue;
		size_t size =
		    dirent_put(out + used, length - used, child->name, strlen(child->name),
		               dirent_type(child->mode), child->inode, index + 1);
		if (size == 0) {
			too_small = used == 0;
			break;
		}
		used += size;
		file->offset++;
	}
	directory->times[0] = tmpfs_now();
	mutex_unlock(&fs->lock);
	if (too_small)
		return -EINVAL; /* too small for even one record */
	return (long)used;
}

const struct file_ops tmpfs_regular_ops = {.read = regular_read,
                                           .write = regular_write,
                                           .seek = regular_seek,
                                           .status = node_status,
                                           .truncate = regular_truncate,
                                           .set_times = node_set_times,
                                           .set_mode = node_set_mode,
                                           .release = node_release};

/* A directory's times and mode change by its name (sys_fs.c), as for every file system. */
const struct file_ops tmpfs_directory_ops = {.list = directory_list,
                                             .seek = file_seek_directory,
                                             .status = node_status,
                                             .release = node_release};
