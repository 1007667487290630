/* Path resolution with Linux's rules (fs/namei.c) over one name space of canonical
 * names, whatever file systems the names fall in (the caller's lookup knows):
 *   - an empty path is ENOENT; a relative one starts at the directory given (the
 *     process's working directory, or a directory descriptor's);
 *   - repeated slashes count as one; "." stays, ".." goes up (the root's ".." is the
 *     root), each after the component before it was resolved: "missing/.." is ENOENT
 *     and "file/.." ENOTDIR;
 *   - every component before the last must be a directory: missing ENOENT, a file
 *     ENOTDIR; a component longer than NAME_MAX (255) is ENAMETOOLONG;
 *   - a symbolic link is followed where it is not the last component, and as the last
 *     one when the caller asks or a trailing slash follows it: its target replaces it
 *     (an absolute target starts again at the root, a relative one in the link's
 *     directory; ".." after it goes up from where it led); more than PATH_MAX_LINKS
 *     links in one resolution is ELOOP, an empty target ENOENT;
 *   - a trailing slash, "." or ".." at the end ask for a directory: a file is ENOTDIR.
 * What may be done with the result (create, truncate, write) is the caller's business. */
#ifndef DUPLEX_FS_PATH_H
#define DUPLEX_FS_PATH_H

#include <stdbool.h>
#include <stddef.h>

enum path_kind { PATH_MISSING, PATH_FILE, PATH_DIRECTORY, PATH_SYMLINK };

/* What the last component was (Linux's LAST_NORM, LAST_DOT, LAST_DOTDOT, LAST_ROOT):
 * rmdir, unlink and rename refuse the last three. */
enum path_last { PATH_LAST_NAME, PATH_LAST_DOT, PATH_LAST_DOTDOT, PATH_LAST_ROOT };

#define PATH_NAME_MAX  255 /* one component (Linux NAME_MAX) */
#define PATH_LINK_MAX  256 /* a symbolic link's target, with its NUL */
#define PATH_MAX_LINKS 40  /* Linux MAXSYMLINKS */

/* What `name` is: canonical ("bin/sh", "" for the root; no leading, trailing or double
 * slashes). For PATH_SYMLINK the target is copied into target[target_size]. */
typedef enum path_kind (*path_lookup_fn)(const char *name, char *target, size_t target_size);

struct path_result {
	enum path_kind kind;  /* PATH_MISSING: only the last component is missing;
	                         PATH_SYMLINK: the last one is a link, not followed */
	bool wants_directory; /* trailing '/', "." or ".." */
	enum path_last last;
};

/* Resolve `path` from directory `base` (canonical) into `out` (canonical, `size`
 * bytes), following a final symbolic link if `follow_last`. Returns 0 with *result
 * filled, or -ENOENT, -ENOTDIR, -ENAMETOOLONG (a component, or a result that does not
 * fit), -ELOOP. Any context the lookup allows; uses about 1.3 KiB of stack. */
int path_resolve(const char *base, const char *path, bool follow_last, char *out, size_t size,
                 path_lookup_fn lookup, struct path_result *result);

#endif
