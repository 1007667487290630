/* The built-in program archive, the file system mounted at / (see initramfs.h): files,
 * directories and symbolic links (cpio entries of type 0120000, whose data is the
 * target). Read-only: the ops table leaves every change NULL (EROFS). */
#include "kernel/fs/initramfs.h"

#include <stddef.h>
#include <stdint.h>

#include "kernel/fs/dirent.h"
#include "kernel/fs/file_system.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"

extern const uint8_t initramfs_start[], initramfs_end[];

static size_t archive_size(void)
{
	return (size_t)(initramfs_end - initramfs_start);
}

/* Every entry of the archive, parsed once. Each lookup walks the entries (a path's
 * every component, then stat, then the program itself: execve of /bin/true made about
 * ten walks), and parsing the hex headers each time cost execve some 180 us of its
 * 290 under QEMU -icount (bench S50); the table makes a walk a few compares per entry.
 * Built by the first lookup (at boot, before other harts run programs); a second hart
 * arriving meanwhile waits for it. If the table cannot be allocated, lookups parse the
 * archive as before. */
static struct cpio_entry *index_entries;
static size_t index_count;
enum { INDEX_NONE, INDEX_BUILDING, INDEX_READY, INDEX_UNAVAILABLE };
static int index_state = INDEX_NONE;

static void build_index(void)
{
	size_t offset = 0, count = 0;
	struct cpio_entry entry;
	while (cpio_next(initramfs_start, archive_size(), &offset, &entry) == 1)
		count++;
	struct cpio_entry *entries = kmalloc((count ? count : 1) * sizeof *entries);
	if (!entries) {
		__atomic_store_n(&index_state, INDEX_UNAVAILABLE, __ATOMIC_RELEASE);
		return;
	}
	offset = 0;
	for (size_t i = 0; i < count; i++)
		cpio_next(initramfs_start, archive_size(), &offset, &entries[i]);
	index_entries = entries;
	index_count = count;
	__atomic_store_n(&index_state, INDEX_READY, __ATOMIC_RELEASE);
}

/* True when the table is there to use. Any task; never sleeps (but may spin while
 * another hart builds the table). */
static bool index_ready(void)
{
	int state = __atomic_load_n(&index_state, __ATOMIC_ACQUIRE);
	if (state == INDEX_NONE) {
		int expected = INDEX_NONE;
		if (__atomic_compare_exchange_n(&index_state, &expected, INDEX_BUILDING, false,
		                                __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
			build_index();
	}
	while ((state = __atomic_load_n(&index_state, __ATOMIC_ACQUIRE)) == INDEX_BUILDING)
		;
	return state == INDEX_READY;
}

/* A walk over the entries in archive order: start with {0}, then next_entry until it
 * returns false. */
struct entry_cursor {
	size_t position; /* index in the table, or byte offset when there is none */
};

static bool next_entry(struct entry_cursor *cursor, struct cpio_entry *entry)
{
	if (index_ready()) {
		if (cursor->position >= index_count)
			return false;
		*entry = index_entries[cursor->position++];
		return true;
	}
	return cpio_next(initramfs_start, archive_size(), &cursor->position, entry) == 1;
}

/* The entry named exactly `path` (no leading '/'), as cpio_find. */
static bool find_by_name(const char *path, struct cpio_entry *entry)
{
	size_t length = strlen(path);
	struct entry_cursor cursor = {0};
	struct cpio_entry candidate;
	while (next_entry(&cursor, &candidate)) {
		if (candidate.name_length == length && memcmp(candidate.name, path, length) == 0) {
			*entry = candidate;
			return true;
		}
	}
	return false;
}

bool initramfs_find(const char *path, struct cpio_entry *entry)
{
	while (*path == '/')
		path++;
	if (!find_by_name(path, entry))
		return false;
	return (entry->mode & CPIO_MODE_TYPE) == CPIO_MODE_REGULAR;
}

void initramfs_describe(int *entries, unsigned long *bytes)
{
	struct entry_cursor cursor = {0};
	struct cpio_entry entry;
	*entries = 0;
	*bytes = archive_size();
	while (next_entry(&cursor, &entry))
		(*entries)++;
}

/* Is `directory` (canonical, "" for the root) a directory: the root, or a proper
 * prefix of some entry's name? */
static bool is_directory(const char *directory)
{
	size_t length = strlen(directory);
	if (length == 0)
		return true;
	struct entry_cursor cursor = {0};
	struct cpio_entry entry;
	while (next_entry(&cursor, &entry)) {
		if (entry.name_length > length && memcmp(entry.name, directory, length) == 0 &&
		    entry.name[length] == '/')
			return true;
		if (entry.name_length == length && memcmp(entry.name, directory, length) == 0 &&
		    (entry.mode & CPIO_MODE_TYPE) == CPIO_MODE_DIRECTORY)
			return true;
	}
	return false;
}

/* The entry called exactly `name` (not a directory made up of longer names), if any. */
static bool find_entry(const char *name, struct cpio_entry *entry)
{
	return name[0] && find_by_name(name, entry);
}

static enum path_kind archive_lookup(struct file_system *fs, const char *name, char *target,
                                     size_t target_size)
{
	(void)fs;
	struct cpio_entry entry;
	if (find_entry(name, &entry)) {
		uint32_t type = entry.mode & CPIO_MODE_TYPE;
		if (type == CPIO_MODE_REGULAR)
			return PATH_FILE;
		if (type == CPIO_MODE_SYMLINK) {
			size_t length = entry.size < target_size ? entry.size : target_size - 1;
			memcpy(target, entry.data, length);
			target[length] = 0;
			return PATH_SYMLINK;
		}
	}
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
	struct entry_cursor cursor = {0};
	struct cpio_entry entry;
	while (next_entry(&cursor, &entry) && entry.name != current->name) {
		const char *other;
		size_t other_length = child_of(directory, &entry, &other);
		if (other_length == child_length && memcmp(other, child, child_length) == 0)
			return true;
	}
	return false;
}

/* Directory listing: the immediate children of file->path, each once, in archive
 * order, then the mount points in it the archive lacks ("dev", "tmp" in the root);
 * file->offset counts the children already returned. */
static long archive_list(struct file *file, void *buffer, size_t length)
{
	const char *directory = file->path;
	uint8_t *out = buffer;
	size_t used = 0;
	uint64_t index = 0;
	struct entry_cursor cursor = {0};
	struct cpio_entry entry;

	while (next_entry(&cursor, &entry)) {
		const char *child;
		size_t child_length = child_of(directory, &entry, &child);
		if (child_length == 0 || listed_before(directory, &entry, child, child_length))
			continue;
		bool deeper = child_length < entry.name_length - (size_t)(child - entry.name);
		uint8_t type = deeper ? DIRENT_DIRECTORY : dirent_type(entry.mode);
		if (index++ < file->offset)
			continue;
		size_t size =
		    dirent_put(out + used, length - used, child, child_length, type, index, index);
		if (size == 0)
			return used ? (long)used : -EINVAL; /* too small for even one record */
		used += size;
		file->offset++;
	}
	const char *point;
	for (int i = 0; (point = mount_child(directory, i)) != 0; i++) {
		char name[FILE_PATH_MAX];
		size_t directory_length = strlen(directory), point_length = strlen(point);
		size_t at = directory_length + (directory_length ? 1 : 0);
		if (at + point_length >= sizeof name)
			continue;
		memcpy(name, directory, directory_length);
		name[directory_length] = '/';
		memcpy(name + at, point, point_length + 1);
		struct cpio_entry ignored;
		if (find_entry(name, &ignored) || is_directory(name))
			continue; /* listed above */
		if (index++ < file->offset)
			continue;
		size_t size = dirent_put(out + used, length - used, point, strlen(point),
		                         DIRENT_DIRECTORY, index, index);
		if (size == 0)
			return used ? (long)used : -EINVAL;
		used += size;
		file->offset++;
	}
	return (long)used;
}

/* A directory's inode number: a hash of its path (FNV-1a) with the top bit set, which
 * no file's (an offset into the archive) has. */
static void name_directory_status(const char *name, struct file_status *status)
{
	uint64_t hash = 0xcbf29ce484222325ull;
	for (const char *c = name; *c; c++)
		hash = (hash ^ (uint8_t)*c) * 0x100000001b3ull;
	*status = (struct file_status){.mode = CPIO_MODE_DIRECTORY | 0755,
	                               .device = FILE_DEVICE_ARCHIVE,
	                               .inode = hash | 1ull << 63,
	                               .block_size = 4096};
}

static void directory_status(const struct file *file, struct file_status *status)
{
	name_directory_status(file->path, status);
}

/* SEEK_SET and SEEK_CUR move among the children (the offset counts them, as
 * archive_list does). */
static const struct file_ops directory_ops = {
    .list = archive_list, .seek = file_seek_directory, .status = directory_status};

/* stat by name: a file or link as its entry says (an inode number from where its bytes
 * are), a directory by its name's hash. */
static int archive_status_by_name(struct file_system *fs, const char *name,
                                  struct file_status *status)
{
	(void)fs;
	struct cpio_entry entry;
	if (find_entry(name, &entry) && (entry.mode & CPIO_MODE_TYPE) != CPIO_MODE_DIRECTORY) {
		struct file file = {.data = entry.data, .size = entry.size, .mode = entry.mode};
		archive_status(&file, status);
		return 0;
	}
	if (!is_directory(name))
		return -ENOENT;
	name_directory_status(name, status);
	return 0;
}

static int open_file(const char *name, int flags, struct file **file)
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

static int open_directory(const char *name, int flags, struct file **file)
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

/* The VFS has checked the flags: a file is opened for reading, without O_TRUNC. */
static int archive_open(struct file_system *fs, const char *name, int flags, struct file **file)
{
	(void)fs;
	struct cpio_entry entry;
	if (find_entry(name, &entry) && (entry.mode & CPIO_MODE_TYPE) == CPIO_MODE_REGULAR)
		return open_file(name, flags, file);
	return open_directory(name, flags, file);
}

static const struct file_system_ops archive_ops = {
    .lookup = archive_lookup, .status = archive_status_by_name, .open = archive_open};

struct file_system initramfs_file_system = {.name = "archive", .ops = &archive_ops};
