/* Open-file reference counting and path lookup; see file.h. */
#include "kernel/fs/file.h"

#include "kernel/fs/initramfs.h"
#include "kernel/fs/path.h"
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

/* Linux's null_lseek: every seek succeeds and lands at 0. */
static long null_seek(struct file *file, int64_t offset, int whence)
{
	(void)offset, (void)whence;
	file->offset = 0;
	return 0;
}

static const struct file_ops null_ops = {
    .read = null_read, .write = null_write, .seek = null_seek, .status = null_status};

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

/* The registered device with canonical name `name` ("dev/console"), or NULL. */
static const struct file_ops *device_ops(const char *name)
{
	for (int i = 0; i < device_count; i++) {
		if (strcmp(name, devices[i].path + 1) == 0) /* past the leading '/' */
			return devices[i].ops;
	}
	return 0;
}

/* path_resolve's view of the trees: /dev (its devices) over the program archive. */
static enum path_kind lookup(const char *name)
{
	if (strcmp(name, "dev") == 0)
		return PATH_DIRECTORY;
	if (device_ops(name))
		return PATH_FILE;
	return initramfs_kind(name);
}

int file_open_at(const char *base, const char *path, int flags, struct file **file)
{
	char name[FILE_PATH_MAX];
	struct path_result found;
	int error = path_resolve(base, path, name, sizeof name, lookup, &found);
	if (error)
		return error;
	if (flags & O_PATH)
		return -EINVAL;
	/* O_WRONLY, O_RDWR and 3 (Linux: "check both", then neither read nor write). */
	bool writes = (flags & O_ACCMODE) != O_RDONLY;
	if ((flags & O_TMPFILE) == O_TMPFILE) { /* an unnamed file in a directory */
		if (found.kind != PATH_DIRECTORY)
			return found.kind == PATH_MISSING ? -ENOENT : -ENOTDIR;
		return writes ? -EROFS : -EINVAL;
	}
	if ((flags & (O_CREAT | O_DIRECTORY)) == (O_CREAT | O_DIRECTORY))
		return -EINVAL;
	if (found.kind == PATH_MISSING) {
		if (!(flags & O_CREAT))
			return -ENOENT;
		return found.wants_directory ? -EISDIR : -EROFS;
	}
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	int kept = flags & (O_ACCMODE | O_STATUS_FLAGS);
	if (found.kind == PATH_DIRECTORY) {
		if (writes || (flags & (O_CREAT | O_TRUNC)))
			return -EISDIR;
		return initramfs_open_directory(name, kept, file);
	}
	if (flags & O_DIRECTORY)
		return -ENOTDIR;
	const struct file_ops *ops = device_ops(name);
	if (ops) { /* O_TRUNC means nothing to a device */
		*file = file_create(ops, kept);
		return *file ? 0 : -ENOMEM;
	}
	if (writes || (flags & O_TRUNC))
		return -EROFS;
	return initramfs_open_file(name, kept, file);
}

int file_open(const char *path, int flags, struct file **file)
{
	return file_open_at("", path, flags, file);
}
