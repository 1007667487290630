/* Open-file reference counting and path lookup; see file.h. */
#include "kernel/fs/file.h"

#include "kernel/console/console.h"
#include "kernel/fs/initramfs.h"
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

/* /dev/null: reads end at once, writes vanish. */
static long null_read(struct file *file, void *buffer, size_t length)
{
	(void)file;
	(void)buffer;
	(void)length;
	return 0;
}

static long null_write(struct file *file, const void *data, size_t length)
{
	(void)file;
	(void)data;
	return (long)length;
}

static void null_status(const struct file *file, struct file_status *status)
{
	(void)file;
	*status = (struct file_status){.mode = FILE_MODE_CHARACTER | 0666,
	                               .device = FILE_DEVICE_DEVICES,
	                               .inode = 3,
	                               .special_device = 1 << 8 | 3,
	                               .block_size = 4096};
}

static const struct file_ops null_ops = {
    .read = null_read, .write = null_write, .status = null_status};

int file_open(const char *path, int flags, struct file **file)
{
	const struct file_ops *ops = 0;
	if (strcmp(path, "/dev/console") == 0)
		ops = console_file_ops();
	else if (strcmp(path, "/dev/null") == 0)
		ops = &null_ops;
	if (ops) {
		if (flags & O_DIRECTORY)
			return -ENOTDIR;
		*file = file_create(ops, flags);
		return *file ? 0 : -ENOMEM;
	}
	return initramfs_open(path, flags, file);
}
