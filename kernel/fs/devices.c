/* The device files at /dev: /dev/null here, the rest registered from above (the console
 * core sits higher than the file layer, so it hands its ops down rather than being named
 * here). A file system of one directory; nothing in it can be made, moved or removed
 * (EROFS), as Duplex has no mknod. */
#include "kernel/fs/dirent.h"
#include "kernel/fs/file_system.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

/* /dev/null: reads end at once, writes vanish. */
static long null_read(struct file *file, void *buffer, size_t length)
{
	(void)file, (void)buffer, (void)length;
	return 0;
}

static long null_write(struct file *file, const void *data, size_t length)
{
	(void)file, (void)data;
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

/* Written only at boot, before other harts run; read-only afterwards, so lookups take
 * no lock. */
#define DEVICES_MAX 4
static struct {
	const char *name; /* past "/dev/" */
	const struct file_ops *ops;
} devices[DEVICES_MAX] = {{"null", &null_ops}};
static int device_count = 1;

int file_register_device(const char *path, const struct file_ops *ops)
{
	if (device_count == DEVICES_MAX || strncmp(path, "/dev/", 5) != 0)
		return -1;
	devices[device_count].name = path + 5;
	devices[device_count].ops = ops;
	device_count++;
	return 0;
}

/* The device called `name`, or NULL. */
static const struct file_ops *device_ops(const char *name)
{
	for (int i = 0; i < device_count; i++) {
		if (strcmp(name, devices[i].name) == 0)
			return devices[i].ops;
	}
	return 0;
}

static enum path_kind devices_lookup(struct file_system *fs, const char *name, char *target,
                                     size_t target_size)
{
	(void)fs, (void)target, (void)target_size;
	if (name[0] == 0)
		return PATH_DIRECTORY;
	return device_ops(name) ? PATH_FILE : PATH_MISSING;
}

static void directory_status(const struct file *file, struct file_status *status)
{
	(void)file;
	*status = (struct file_status){.mode = FILE_MODE_DIRECTORY | 0755,
	                               .device = FILE_DEVICE_DEVICES,
	                               .inode = 1,
	                               .block_size = 4096};
}

/* The device status op of `name`, through a file made on the stack (the ops describe
 * the device, not the open file). */
static int devices_status(struct file_system *fs, const char *name, struct file_status *status)
{
	(void)fs;
	const struct file_ops *ops = name[0] ? device_ops(name) : 0;
	if (name[0] && !ops)
		return -ENOENT;
	struct file file = {.ops = ops};
	if (ops)
		ops->status(&file, status);
	else
		directory_status(&file, status);
	return 0;
}

/* /dev's listing: the devices in the order they were registered. */
static long devices_list(struct file *file, void *buffer, size_t length)
{
	uint8_t *out = buffer;
	size_t used = 0;
	while (file->offset < (uint64_t)device_count) {
		const struct file_ops *ops = devices[file->offset].ops;
		const char *name = devices[file->offset].name;
		struct file device = {.ops = ops};
		struct file_status status;
		ops->status(&device, &status);
		size_t size = dirent_put(out + used, length - used, name, strlen(name),
		                         DIRENT_CHARACTER, status.inode, file->offset + 1);
		if (size == 0)
			return used ? (long)used : -EINVAL;
		used += size;
		file->offset++;
	}
	return (long)used;
}

static const struct file_ops directory_ops = {
    .list = devices_list, .seek = file_seek_directory, .status = directory_status};

static int devices_open(struct file_system *fs, const char *name, int flags, struct file **file)
{
	(void)fs;
	const struct file_ops *ops = name[0] ? device_ops(name) : &directory_ops;
	if (!ops)
		return -ENOENT;
	*file = file_create(ops, flags); /* O_TRUNC means nothing to a device */
	return *file ? 0 : -ENOMEM;
}

static const struct file_system_ops devices_ops = {
    .lookup = devices_lookup, .status = devices_status, .open = devices_open};

struct file_system devices_file_system = {.name = "devices", .ops = &devices_ops};
