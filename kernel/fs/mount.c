/* The mount table; see file_system.h. */
#include "kernel/fs/file_system.h"

#include "kernel/lib/string.h"

#define MOUNT_MAX 8

/* Written only at boot, before other harts run; read-only afterwards. */
static struct {
	const char *point;
	size_t length;
	struct file_system *fs;
} mounts[MOUNT_MAX];
static int mount_count;

int mount_add(const char *point, struct file_system *fs)
{
	if (mount_count == MOUNT_MAX)
		return -1;
	mounts[mount_count].point = point;
	mounts[mount_count].length = strlen(point);
	mounts[mount_count].fs = fs;
	mount_count++;
	return 0;
}

/* Does mount point `i` hold `name`: is it the name, or a directory above it? */
static bool holds(int i, const char *name)
{
	size_t length = mounts[i].length;
	if (length == 0)
		return true;
	return memcmp(name, mounts[i].point, length) == 0 &&
	       (name[length] == 0 || name[length] == '/');
}

struct file_system *mount_find(const char *name, const char **relative)
{
	int best = -1;
	for (int i = 0; i < mount_count; i++) {
		if (holds(i, name) && (best < 0 || mounts[i].length > mounts[best].length))
			best = i;
	}
	if (best < 0)
		return 0;
	const char *rest = name + mounts[best].length;
	*relative = *rest == '/' ? rest + 1 : rest;
	return mounts[best].fs;
}

bool mount_is_point(const char *name)
{
	for (int i = 0; i < mount_count; i++) {
		if (strcmp(mounts[i].point, name) == 0)
			return true;
	}
	return false;
}

const char *mount_child(const char *directory, int index)
{
	size_t length = strlen(directory);
	for (int i = 0; i < mount_count; i++) {
		const char *point = mounts[i].point;
		if (mounts[i].length <= length || memcmp(point, directory, length) != 0)
			continue;
		const char *child = point + length + (length ? 1 : 0);
		if (length && point[length] != '/')
			continue;
		if (strchr(child, '/') == 0 && index-- == 0)
			return child;
	}
	return 0;
}
