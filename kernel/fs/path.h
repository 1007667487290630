/* Path resolution with Linux's rules, for Duplex's trees (the program archive and /dev),
 * which have no symbolic links:
 *   - an empty path is ENOENT; a relative one starts at the directory given (the
 *     root for AT_FDCWD: there is no working directory);
 *   - repeated slashes count as one; "." stays, ".." goes up (the root's ".." is the
 *     root), each after the component before it was resolved: "missing/.." is ENOENT
 *     and "file/.." ENOTDIR;
 *   - every component before the last must be a directory: missing ENOENT, a file
 *     ENOTDIR;
 *   - a trailing slash, "." or ".." at the end ask for a directory: a file is ENOTDIR.
 * What may be done with the result (create, truncate, write) is file_open's business. */
#ifndef DUPLEX_FS_PATH_H
#define DUPLEX_FS_PATH_H

#include <stdbool.h>
#include <stddef.h>

enum path_kind { PATH_MISSING, PATH_FILE, PATH_DIRECTORY };

/* What `name` is: canonical ("bin/sh", "" for the root; no leading, trailing or double
 * slashes). */
typedef enum path_kind (*path_lookup_fn)(const char *name);

struct path_result {
	enum path_kind kind;  /* PATH_MISSING: only the last component is missing */
	bool wants_directory; /* trailing '/', "." or ".." */
};

/* Resolve `path` from directory `base` (canonical) into `out` (canonical, `size`
 * bytes). Returns 0 with *result filled, or -ENOENT, -ENOTDIR, -ENAMETOOLONG (the
 * result does not fit). Any context; never sleeps. */
int path_resolve(const char *base, const char *path, char *out, size_t size, path_lookup_fn lookup,
                 struct path_result *result);

#endif
