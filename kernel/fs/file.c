/* Open-file reference counting and path lookup; see file.h. */
#include "kernel/fs/file.h"

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

static const struct file_ops null_ops = {.read = null_read, .write = null_write};

/* Device files registered from above (the console core sits higher than the file
 * layer, so it hands its ops down rather than being named here). Written only at boot,
 * before other harts run; read-only afterwards, so lookups take no lock. */
#define FILE_DEVICES_MAX 4
static struct {
	const char *path;
	const struct file_ops *ops;
} devices[FILE_DEVICES_MAX] = {{"/dev/null", &null_ops}};
static int device_count = 1;

int file_register_device(const char *path, const struct file_ops *ops)
{
	if (device_count == FILE_DEVICES_MAX)
		return -1;
	devices[device_count].path = path;
	devices[device_count].ops = ops;
	device_count++;
	return 0;
}

int file_open(const char *path, int flags, struct file **file)
{
	const struct file_ops *ops = 0;
	for (int i = 0; i < device_count && !ops; i++) {
		if (strcmp(path, devices[i].path) == 0)
			ops = devices[i].ops;
	}
	if (ops) {
		if (flags & O_DIRECTORY)
			return -ENOTDIR;
		*file = file_create(ops, flags);
		return *file ? 0 : -ENOMEM;
	}
	return initramfs_open(path, flags, file);
}
