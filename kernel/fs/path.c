/* Path resolution; see path.h. */
#include "kernel/fs/path.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"

/* Drop the last component of canonical `out` (length *length). */
static void go_up(char *out, size_t *length)
{
	while (*length > 0 && out[*length - 1] != '/')
		(*length)--;
	if (*length > 0)
		(*length)--; /* the slash before it */
	out[*length] = 0;
}

int path_resolve(const char *base, const char *path, char *out, size_t size, path_lookup_fn lookup,
                 struct path_result *result)
{
	if (path[0] == 0)
		return -ENOENT;
	size_t length = 0;
	if (path[0] != '/') {
		length = strlen(base);
		if (length >= size)
			return -ENAMETOOLONG;
		memcpy(out, base, length);
	}
	out[length] = 0;
	result->kind = PATH_DIRECTORY; /* the starting point is a directory */
	result->wants_directory = false;
	const char *cursor = path;
	for (;;) {
		while (*cursor == '/')
			cursor++;
		if (*cursor == 0)
			break;
		const char *component = cursor;
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
			continue;
		}
		if (component_length == 2 && component[0] == '.' && component[1] == '.') {
			go_up(out, &length);
			result->wants_directory = last;
			continue;
		}
		size_t needed = length + (length ? 1 : 0) + component_length;
		if (needed >= size)
			return -ENAMETOOLONG;
		if (length)
			out[length++] = '/';
		memcpy(out + length, component, component_length);
		length += component_length;
		out[length] = 0;
		result->kind = lookup(out);
		result->wants_directory = last && *cursor == '/';
	}
	if (result->wants_directory && result->kind == PATH_FILE)
		return -ENOTDIR;
	return 0;
}
