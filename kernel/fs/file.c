/* Open-file reference counting and the generic seeks; see file.h. No file system is
 * named here: they are reached through the mount table (kernel/fs/vfs.c). */
#include "kernel/fs/file.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"

struct file *file_create(const struct file_ops *ops, int flags)
{
	struct file *file = kzalloc(sizeof *file);
	if (!file)
		return 0;
	file->ops = ops;
	file->references = 1;
	file->flags = flags;
	return file;
}

void file_get(struct file *file)
{
	__atomic_fetch_add(&file->references, 1, __ATOMIC_RELAXED);
}

void file_put(struct file *file)
{
	if (__atomic_sub_fetch(&file->references, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (file->ops->release)
		file->ops->release(file);
	kfree(file);
}

long file_seek_sized(struct file *file, int64_t offset, int whence)
{
	int64_t size = (int64_t)file->size, position;
	switch (whence) {
	case SEEK_SET:
		position = offset;
		break;
	case SEEK_CUR:
		position = (int64_t)file->offset + offset;
		break;
	case SEEK_END:
		position = size + offset;
		break;
	case SEEK_DATA: /* no holes but the one at the end: data from anywhere before it */
	case SEEK_HOLE:
		if (offset < 0)
			return -EINVAL;
		if (offset >= size)
			return -ENXIO;
		position = whence == SEEK_DATA ? offset : size;
		break;
	default:
		return -EINVAL;
	}
	if (position < 0)
		return -EINVAL;
	file->offset = (uint64_t)position;
	return position;
}

long file_seek_directory(struct file *file, int64_t offset, int whence)
{
	int64_t position = whence == SEEK_SET   ? offset
	                   : whence == SEEK_CUR ? (int64_t)file->offset + offset
	                                        : -1;
	if (position < 0)
		return -EINVAL;
	file->offset = (uint64_t)position;
	return position;
}
