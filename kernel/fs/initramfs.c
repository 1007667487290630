/* The built-in program archive; see initramfs.h. */
#include "kernel/fs/initramfs.h"

#include <stddef.h>
#include <stdint.h>

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

extern const uint8_t initramfs_start[], initramfs_end[];

static size_t archive_size(void)
{
	return (size_t)(initramfs_end - initramfs_start);
}

bool initramfs_find(const char *path, struct cpio_entry *entry)
{
	if (!cpio_find(initramfs_start, archive_size(), path, entry))
		return false;
	return (entry->mode & CPIO_MODE_TYPE) == CPIO_MODE_REGULAR;
}

void initramfs_describe(int *entries, unsigned long *bytes)
{
	size_t offset = 0;
	struct cpio_entry entry;
	*entries = 0;
	*bytes = archive_size();
	while (cpio_next(initramfs_start, archive_size(), &offset, &entry) == 1)
		(*entries)++;
}

/* Is `directory` (canonical, "" for the root) a directory: the root, or a proper
 * prefix of some entry's name? */
static bool is_directory(const char *directory)
{
	size_t length = strlen(directory);
	if (length == 0)
		return true;
	size_t offset = 0;
	struct cpio_entry entry;
	while (cpio_next(initramfs_start, archive_size(), &offset, &entry) == 1) {
		if (entry.name_length > length && memcmp(entry.name, directory, length) == 0 &&
		    entry.name[length] == '/')
			return true;
		if (entry.name_length == length && memcmp(entry.name, directory, length) == 0 &&
		    (entry.mode & CPIO_MODE_TYPE) == CPIO_MODE_DIRECTORY)
			return true;
	}
	return false;
}

enum path_kind initramfs_kind(const char *name)
{
	struct cpio_entry entry;
	if (name[0] && initramfs_find(name, &entry))
		return PATH_FILE;
	return is_directory(name) ? PATH_DIRECTORY : PATH_MISSING;
}

static long archive_read(struct file *file, void *buffer, size_t length)
{
	if (file->offset >= file->size)
		return 0;
	uint64_t left = file->size - file->offset;
	if (length > left)
		length = left;
	memcpy(buffer, file->data + file->offset, length);
	file->offset += length;
	return (long)length;
}

/* An archive file's inode number: where its bytes are in the archive, which no other
 * file shares. */
static void archive_status(const struct file *file, struct file_status *status)
{
	*status = (struct file_status){.mode = file->mode,
	                               .device = FILE_DEVICE_ARCHIVE,
	                               .inode = (uint64_t)(file->data - initramfs_start) + 1,
	                               .size = file->size,
	                               .block_size = 4096};
}

static const struct file_ops archive_file_ops = {
    .read = archive_read, .seek = file_seek_sized, .status = archive_status};

struct linux_dirent64 {
	uint64_t inode;
	int64_t offset;
	uint16_t record_length;
	uint8_t type;
	char name[];
};

#define DT_DIR 4
#define DT_REG 8

/* Emit one record if it fits; returns its size, 0 if it does not fit. */
static size_t put_record(uint8_t *buffer, size_t room, const char *name, size_t name_length,
                         uint8_t type, uint64_t index)
{
	/* d_name starts at offset 19, not at sizeof (24): the struct is padded. */
	size_t name_at = offsetof(struct linux_dirent64, name);
	size_t size = (name_at + name_length + 1 + 7) & ~(size_t)7;
	if (size > room)
		return 0;
	struct linux_dirent64 record = {index + 1, (int64_t)index + 1, (uint16_t)size, type};
	memset(buffer, 0, size);
	memcpy(buffer, &record, name_at);
	memcpy(buffer + name_at, name, name_length);
	return size;
}

/* The name of `name`'s first path component's length (up to '/' or the end). */
static size_t component_length(const char *name, size_t length)
{
	size_t i = 0;
	while (i < length && name[i] != '/')
		i++;
	return i;
}

/* If entry `entry` lies inside `directory`, set *child to its immediate child name
 * within it and return the child's length; else return 0. */
static size_t child_of(const char *directory, const struct cpio_entry *entry, const char **child)
{
	size_t directory_length = strlen(directory);
	const char *name = entry->name;
	size_t name_length = entry->name_length;
	if (directory_length) {
		if (name_length <= directory_length + 1 ||
		    memcmp(name, directory, directory_length) != 0 || name[directory_length] != '/')
			return 0;
		name += directory_length + 1;
		name_length -= directory_length + 1;
	}
	*child = name;
	return component_length(name, name_length);
}

/* Did an entry before `current` already produce the child `child`? */
static bool listed_before(const char *directory, const struct cpio_entry *current,
                          const char *child, size_t child_length)
{
	size_t offset = 0;
	struct cpio_entry entry;
	while (cpio_next(initramfs_start, archive_size(), &offset, &entry) == 1 &&
	       entry.name != current->name) {
		const char *other;
		size_t other_length = child_of(directory, &entry, &other);
		if (other_length == child_length && memcmp(other, child, child_length) == 0)
			return true;
	}
	return false;
}

/* Directory listing: the immediate children of file->path, each once, in archive
 * order; file->offset counts the children already returned. */
static long archive_list(struct file *file, void *buffer, size_t length)
{
	const char *directory = file->path;
	uint8_t *out = buffer;
	size_t used = 0;
	uint64_t index = 0;
	size_t offset = 0;
	struct cpio_entry entry;

	while (cpio_next(initramfs_start, archive_size(), &offset, &entry) == 1) {
		const char *child;
		size_t child_length = child_of(directory, &entry, &child);
		if (child_length == 0 || listed_before(directory, &entry, child, child_length))
			continue;
		bool deeper = child_length < entry.name_length - (size_t)(child - entry.name);
		uint8_t type = deeper || (entry.mode & CPIO_MODE_TYPE) == CPIO_MODE_DIRECTORY
		                   ? DT_DIR
		                   : DT_REG;
		if (index++ < file->offset)
			continue;
		size_t size =
		    put_record(out + used, length - used, child, child_length, type, index);
		if (size == 0) {
			if (used == 0)
				return -EINVAL; /* buffer too small for even one record */
			break;
		}
		used += size;
		file->offset++;
	}
	return (long)used;
}

/* A directory's inode number: a hash of its path (FNV-1a) with the top bit set, which
 * no file's (an offset into the archive) has. */
static void directory_status(const struct file *file, struct file_status *status)
{
	uint64_t hash = 0xcbf29ce484222325ull;
	for (const char *c = file->path; *c; c++)
		hash = (hash ^ (uint8_t)*c) * 0x100000001b3ull;
	*status = (struct file_status){.mode = CPIO_MODE_DIRECTORY | 0755,
	                               .device = FILE_DEVICE_ARCHIVE,
	                               .inode = hash | 1ull << 63,
	                               .block_size = 4096};
}

/* lseek on a directory: SEEK_SET and SEEK_CUR move among the children (the offset
 * counts them, as archive_list does); SEEK_END is EINVAL, as for Linux's ramfs. */
static long directory_seek(struct file *file, int64_t offset, int whence)
{
	int64_t position = whence == SEEK_SET   ? offset
	                   : whence == SEEK_CUR ? (int64_t)file->offset + offset
	                                        : -1;
	if (position < 0)
		return -EINVAL;
	file->offset = (uint64_t)position;
	return position;
}

static const struct file_ops directory_ops = {
    .list = archive_list, .seek = directory_seek, .status = directory_status};

int initramfs_open_file(const char *name, int flags, struct file **file)
{
	struct cpio_entry entry;
	if (!initramfs_find(name, &entry))
		return -ENOENT;
	*file = file_create(&archive_file_ops, flags);
	if (!*file)
		return -ENOMEM;
	(*file)->data = entry.data;
	(*file)->size = entry.size;
	(*file)->mode = entry.mode;
	return 0;
}

int initramfs_open_directory(const char *name, int flags, struct file **file)
{
	size_t length = strlen(name);
	if (length >= sizeof((struct file *)0)->path)
		return -ENAMETOOLONG;
	*file = file_create(&directory_ops, flags);
	if (!*file)
		return -ENOMEM;
	memcpy((*file)->path, name, length + 1);
	return 0;
}
