/* Path resolution; see path.h. */
#include "kernel/fs/path.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

/* The rest of a path still to walk: the caller's path, with link targets spliced in. */
#define PENDING_SIZE 1024

/* Drop the last component of canonical `out` (length *length). */
static void go_up(char *out, size_t *length)
{
	while (*length > 0 && out[*length - 1] != '/')
		(*length)--;
	if (*length > 0)
		(*length)--; /* the slash before it */
	out[*length] = 0;
}

int path_resolve(const char *base, const char *path, bool follow_last, char *out, size_t size,
                 path_lookup_fn lookup, struct path_result *result)
{
	if (path[0] == 0)
		return -ENOENT;
	char pending[PENDING_SIZE];
	size_t path_length = strlen(path);
	if (path_length >= sizeof pending)
		return -ENAMETOOLONG;
	memcpy(pending, path, path_length + 1);
	size_t length = 0;
	if (path[0] != '/') {
		length = strlen(base);
		if (length >= size)
			return -ENAMETOOLONG;
		memcpy(out, base, length);
	}
	out[length] = 0;
	result->kind = PATH_DIRECTORY; /* the starting point is a directory */
	result->wants_directory = path[0] == '/';
	result->last = path[0] == '/' ? PATH_LAST_ROOT : PATH_LAST_DOT;
	int links = 0;
	char *cursor = pending;
	for (;;) {
		while (*cursor == '/')
			cursor++;
		if (*cursor == 0)
			break;
		char *component = cursor;
		while (*cursor && *cursor != '/')
			cursor++;
		size_t component_length = (size_t)(cursor - component);
		const char *rest = cursor;
		while (*rest == '/')
			rest++;
		bool last = *rest == 0;
		/* Only a directory can be gone through (the component before this one). */
		if (result->kind == PATH_MISSING)
			return -ENOENT;
		if (result->kind == PATH_FILE)
			return -ENOTDIR;
		if (component_length == 1 && component[0] == '.') {
			result->wants_directory = last;
			result->last = PATH_LAST_DOT;
			continue;
		}
		if (component_length == 2 && component[0] == '.' && component[1] == '.') {
			go_up(out, &length);
			result->wants_directory = last;
			result->last = PATH_LAST_DOTDOT;
			continue;
		}
		if (component_length > PATH_NAME_MAX)
			return -ENAMETOOLONG;
		size_t needed = length + (length ? 1 : 0) + component_length;
		if (needed >= size)
			return -ENAMETOOLONG;
		if (length)
			out[length++] = '/';
		memcpy(out + length, component, component_length);
		length += component_length;
		out[length] = 0;
		char target[PATH_LINK_MAX];
		result->kind = lookup(out, target, sizeof target);
		bool trailing_slash = last && *cursor == '/';
		result->wants_directory = trailing_slash;
		result->last = PATH_LAST_NAME;
		if (result->kind != PATH_SYMLINK || (last && !follow_last && !trailing_slash))
			continue;
		/* Follow the link: its target takes its place in what is left to walk. */
		if (++links > PATH_MAX_LINKS)
			return -ELOOP;
		size_t target_length = strnlen(target, sizeof target);
		if (target_length == 0)
			return -ENOENT;
		size_t rest_length = strlen(cursor);
		if (target_length + rest_length >= sizeof pending)
			return -ENAMETOOLONG;
		memmove(pending + target_length, cursor, rest_length + 1);
		memcpy(pending, target, target_length);
		cursor = pending;
		if (target[0] == '/')
			length = 0, out[0] = 0;
		else
			go_up(out, &length);
		result->kind = PATH_DIRECTORY; /* back in the link's directory (or the root) */
	}
	if (result->wants_directory && result->kind == PATH_FILE)
		return -ENOTDIR;
	return 0;
}
