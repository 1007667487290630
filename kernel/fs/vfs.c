/* The calls on names: resolve a path over the mount table, then hand the last step to
 * the file system the name falls in (file_system.h). The rules every file system shares
 * (what exists already, what is a directory, which names can be removed or renamed at
 * all, EROFS where a file system cannot change, EXDEV between two) are checked here
 * once; the file systems check what only they can see (ENOTEMPTY, ENOSPC). */
#include "kernel/fs/dirent.h"
#include "kernel/fs/file_system.h"
#include "kernel/fs/initramfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/page.h"

/* path_resolve's view of the name space: every name asks the file system it falls in. */
static enum path_kind lookup(const char *name, char *target, size_t target_size)
{
	const char *relative;
	struct file_system *fs = mount_find(name, &relative);
	return fs ? fs->ops->lookup(fs, relative, target, target_size) : PATH_MISSING;
}

/* A resolved name and where it lives. */
struct resolved {
	char name[FILE_PATH_MAX];
	struct path_result found;
	struct file_system *fs;
	const char *relative; /* within name */
};

static int resolve(const char *base, const char *path, bool follow, struct resolved *out)
{
	int error =
	    path_resolve(base, path, follow, out->name, sizeof out->name, lookup, &out->found);
	if (error)
		return error;
	out->fs = mount_find(out->name, &out->relative);
	return out->fs ? 0 : -ENOENT;
}

/* Is the resolved file a character device (which a read-only file system still lets
 * one write)? */
static bool is_device(const struct resolved *at)
{
	struct file_status status;
	return at->fs->ops->status(at->fs, at->relative, &status) == 0 &&
	       (status.mode & FILE_MODE_TYPE) == FILE_MODE_CHARACTER;
}

int file_open_at(const char *base, const char *path, int flags, uint32_t mode, struct file **file)
{
	bool exclusive = (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
	struct resolved at;
	/* O_CREAT|O_EXCL never follows a final link: the link itself exists (Linux). */
	int error = resolve(base, path, !(flags & O_NOFOLLOW) && !exclusive, &at);
	if (error)
		return error;
	if (flags & O_PATH)
		return -EINVAL;
	/* O_WRONLY, O_RDWR and 3 (Linux: "check both", then neither read nor write). */
	bool writes = (flags & O_ACCMODE) != O_RDONLY;
	const struct file_system_ops *ops = at.fs->ops;
	enum path_kind kind = at.found.kind;
	if ((flags & O_TMPFILE) == O_TMPFILE) { /* an unnamed file in a directory */
		if (kind != PATH_DIRECTORY)
			return kind == PATH_MISSING ? -ENOENT : -ENOTDIR;
		if (ops->create)
			return -EOPNOTSUPP;
		return writes ? -EROFS : -EINVAL;
	}
	if ((flags & (O_CREAT | O_DIRECTORY)) == (O_CREAT | O_DIRECTORY))
		return -EINVAL;
	if (kind == PATH_SYMLINK) /* not followed: O_NOFOLLOW, or O_CREAT|O_EXCL */
		return exclusive ? -EEXIST : -ELOOP;
	if (kind == PATH_MISSING) {
		if (!(flags & O_CREAT))
			return -ENOENT;
		if (at.found.wants_directory)
			return -EISDIR;
		if (!ops->create)
			return -EROFS;
		error = ops->create(at.fs, at.relative, mode & 07777,
		                    flags & (O_ACCMODE | O_STATUS_FLAGS), file);
		return error;
	}
	if (exclusive)
		return -EEXIST;
	int kept = flags & (O_ACCMODE | O_STATUS_FLAGS);
	if (kind == PATH_DIRECTORY) {
		if (writes || (flags & (O_CREAT | O_TRUNC)))
			return -EISDIR;
		error = ops->open(at.fs, at.relative, kept, file);
		if (error == 0) /* a directory descriptor is a base for the *at() calls */
			memcpy((*file)->path, at.name, strlen(at.name) + 1);
		return error;
	}
	if (flags & O_DIRECTORY)
		return -ENOTDIR;
	bool device = is_device(&at);
	if (!ops->create && !device && (writes || (flags & O_TRUNC)))
		return -EROFS;
	if (device) /* O_TRUNC means nothing to a device */
		flags &= ~O_TRUNC;
	error = ops->open(at.fs, at.relative, kept | (flags & O_TRUNC), file);
	if (error == 0)
		(*file)->flags = kept;
	return error;
}

int file_open(const char *path, int flags, struct file **file)
{
	return file_open_at("", path, flags & ~O_CREAT, 0, file);
}

int fs_make_directory(const char *base, const char *path, uint32_t mode)
{
	struct resolved at;
	int error = resolve(base, path, false, &at);
	if (error)
		return error;
	if (at.found.kind != PATH_MISSING)
		return -EEXIST;
	if (!at.fs->ops->make_directory)
		return -EROFS;
	return at.fs->ops->make_directory(at.fs, at.relative, mode & 07777);
}

int fs_remove(const char *base, const char *path, bool directory)
{
	struct resolved at;
	int error = resolve(base, path, false, &at);
	if (error)
		return error;
	enum path_kind kind = at.found.kind;
	if (kind == PATH_MISSING)
		return -ENOENT;
	if (directory) { /* Linux's do_rmdir */
		if (at.found.last == PATH_LAST_DOT)
			return -EINVAL;
		if (at.found.last == PATH_LAST_DOTDOT)
			return -ENOTEMPTY;
		if (kind != PATH_DIRECTORY)
			return -ENOTDIR;
		if (at.found.last == PATH_LAST_ROOT || mount_is_point(at.name))
			return -EBUSY;
	} else if (kind == PATH_DIRECTORY) {
		return -EISDIR;
	}
	if (!at.fs->ops->remove)
		return -EROFS;
	return at.fs->ops->remove(at.fs, at.relative, directory);
}

int fs_rename(const char *from_base, const char *from, const char *to_base, const char *to,
              unsigned flags)
{
	if ((flags & ~(unsigned)(RENAME_NOREPLACE | RENAME_EXCHANGE)) ||
	    (flags & RENAME_NOREPLACE && flags & RENAME_EXCHANGE))
		return -EINVAL;
	struct resolved old, new;
	int error = resolve(from_base, from, false, &old);
	if (error)
		return error;
	error = resolve(to_base, to, false, &new);
	if (error)
		return error;
	if (old.found.kind == PATH_MISSING)
		return -ENOENT;
	if (old.found.last != PATH_LAST_NAME || new.found.last != PATH_LAST_NAME ||
	    mount_is_point(old.name) || mount_is_point(new.name))
		return -EBUSY;
	if (old.fs != new.fs)
		return -EXDEV;
	if (new.found.kind == PATH_MISSING && (flags & RENAME_EXCHANGE))
		return -ENOENT;
	if (new.found.kind != PATH_MISSING && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	if (old.found.kind != PATH_DIRECTORY &&
	    (old.found.wants_directory || new.found.wants_directory))
		return -ENOTDIR;
	if (!old.fs->ops->rename)
		return -EROFS;
	return old.fs->ops->rename(old.fs, old.relative, new.relative, flags);
}

int fs_symlink(const char *target, const char *base, const char *path)
{
	size_t length = strlen(target);
	if (length == 0)
		return -ENOENT;
	if (length >= PATH_LINK_MAX)
		return -ENAMETOOLONG;
	struct resolved at;
	int error = resolve(base, path, false, &at);
	if (error)
		return error;
	if (at.found.kind != PATH_MISSING)
		return -EEXIST;
	if (at.found.wants_directory)
		return -ENOENT;
	if (!at.fs->ops->symlink)
		return -EROFS;
	return at.fs->ops->symlink(at.fs, target, at.relative);
}

long fs_read_link(const char *base, const char *path, char *buffer, size_t size)
{
	struct resolved at;
	int error = resolve(base, path, false, &at);
	if (error)
		return error;
	if (at.found.kind == PATH_MISSING)
		return -ENOENT;
	char target[PATH_LINK_MAX];
	if (at.found.kind != PATH_SYMLINK ||
	    at.fs->ops->lookup(at.fs, at.relative, target, sizeof target) != PATH_SYMLINK)
		return -EINVAL;
	size_t length = strnlen(target, sizeof target);
	if (length > size)
		length = size;
	memcpy(buffer, target, length);
	return (long)length;
}

int fs_status(const char *base, const char *path, bool follow, struct file_status *status)
{
	struct resolved at;
	int error = resolve(base, path, follow, &at);
	if (error)
		return error;
	if (at.found.kind == PATH_MISSING)
		return -ENOENT;
	return at.fs->ops->status(at.fs, at.relative, status);
}

int fs_access(const char *base, const char *path, int mode, bool follow)
{
	struct resolved at;
	int error = resolve(base, path, follow, &at);
	if (error)
		return error;
	if (at.found.kind == PATH_MISSING)
		return -ENOENT;
	struct file_status status;
	error = at.fs->ops->status(at.fs, at.relative, &status);
	if (error)
		return error;
	uint32_t type = status.mode & FILE_MODE_TYPE;
	/* Linux's inode_permission: a read-only file system refuses writes to its files,
	 * directories and links, not to its devices. */
	if ((mode & FS_ACCESS_WRITE) && !at.fs->ops->create && type != FILE_MODE_CHARACTER)
		return -EROFS;
	/* Root may execute what has an x bit, and search every directory. */
	if ((mode & FS_ACCESS_EXECUTE) && type != FILE_MODE_DIRECTORY && !(status.mode & 0111))
		return -EACCES;
	return 0;
}

int fs_set_mode(const char *base, const char *path, uint32_t mode, bool follow)
{
	struct resolved at;
	int error = resolve(base, path, follow, &at);
	if (error)
		return error;
	if (at.found.kind == PATH_MISSING)
		return -ENOENT;
	if (!at.fs->ops->set_mode)
		return -EROFS;
	return at.fs->ops->set_mode(at.fs, at.relative, mode & 07777);
}

int fs_set_times(const char *base, const char *path, const int64_t times[2], bool follow)
{
	struct resolved at;
	int error = resolve(base, path, follow, &at);
	if (error)
		return error;
	if (at.found.kind == PATH_MISSING)
		return -ENOENT;
	if (!at.fs->ops->set_times)
		return -EROFS;
	return at.fs->ops->set_times(at.fs, at.relative, times);
}

int fs_directory(const char *base, const char *path, char *out)
{
	struct resolved at;
	int error = resolve(base, path, true, &at);
	if (error)
		return error;
	if (at.found.kind == PATH_MISSING)
		return -ENOENT;
	if (at.found.kind != PATH_DIRECTORY)
		return -ENOTDIR;
	memcpy(out, at.name, strlen(at.name) + 1);
	return 0;
}

/* A copy of open regular file `file` of `size` bytes into fresh pages. */
static int copy_program(struct file *file, uint64_t size, struct fs_program *program)
{
	if (size > FS_PROGRAM_COPY_MAX)
		return -ENOMEM;
	uint64_t count = size ? (size + PAGE_SIZE - 1) / PAGE_SIZE : 1;
	uint8_t *pages = page_alloc_pages(count);
	if (!pages)
		return -ENOMEM;
	uint64_t done = 0;
	while (done < size) {
		uint64_t want = size - done < FILE_CHUNK ? size - done : FILE_CHUNK;
		long got = file->ops->read(file, pages + done, want);
		if (got <= 0)
			break; /* shorter than its status said (a concurrent truncate) */
		done += (uint64_t)got;
	}
	*program = (struct fs_program){pages, done, pages, count};
	return 0;
}

int fs_program(const char *base, const char *path, struct fs_program *program)
{
	*program = (struct fs_program){0};
	struct resolved at;
	int error = resolve(base, path, true, &at);
	if (error)
		return error;
	if (at.found.kind == PATH_MISSING)
		return -ENOENT;
	struct cpio_entry entry;
	if (at.fs == &initramfs_file_system) {
		if (at.found.kind != PATH_FILE || !initramfs_find(at.name, &entry))
			return -EACCES;
		program->data = entry.data;
		program->size = entry.size;
		return 0;
	}
	struct file_status status;
	error = at.fs->ops->status(at.fs, at.relative, &status);
	if (error)
		return error;
	if (at.found.kind != PATH_FILE || (status.mode & FILE_MODE_TYPE) != FILE_MODE_REGULAR)
		return -EACCES;
	struct file *file;
	error = at.fs->ops->open(at.fs, at.relative, O_RDONLY, &file);
	if (error)
		return error;
	error = copy_program(file, status.size, program);
	file_put(file);
	return error;
}

void fs_program_release(struct fs_program *program)
{
	if (program->pages)
		page_free_pages(program->pages, program->page_count);
	program->pages = 0;
}

/* "." and "..", which every directory lists first (Linux's dir_emit_dots): a directory's
 * offset counts them, then what the file system's list op counts. */
#define DOTS 2

/* Add `shift` to the d_off of each record in buffer[0..length). */
static void shift_offsets(uint8_t *buffer, size_t length, int64_t shift)
{
	for (size_t at = 0; at + 19 <= length;) {
		int64_t next;
		uint16_t record_length;
		memcpy(&next, buffer + at + 8, sizeof next);
		memcpy(&record_length, buffer + at + 16, sizeof record_length);
		next += shift;
		memcpy(buffer + at + 8, &next, sizeof next);
		if (record_length == 0)
			break;
		at += record_length;
	}
}

long fs_list(struct file *directory, void *buffer, size_t length)
{
	uint8_t *out = buffer;
	size_t used = 0;
	while (directory->offset < DOTS) {
		struct file_status status;
		bool parent = directory->offset == 1;
		/* ".." of a directory removed meanwhile (tmpfs) is itself. */
		if (!parent || fs_status(directory->path, "..", true, &status) != 0)
			directory->ops->status(directory, &status);
		size_t size = dirent_put(out + used, length - used, "..", parent ? 2 : 1,
		                         DIRENT_DIRECTORY, status.inode, directory->offset + 1);
		if (size == 0)
			return used ? (long)used : -EINVAL; /* too small for even one record */
		used += size;
		directory->offset++;
	}
	directory->offset -= DOTS;
	long result = directory->ops->list(directory, out + used, length - used);
	directory->offset += DOTS;
	if (result < 0)
		return used ? (long)used : result;
	shift_offsets(out + used, (size_t)result, DOTS);
	return (long)(used + (size_t)result);
}
