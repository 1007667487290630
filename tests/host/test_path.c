/* Host unit tests of path resolution (kernel/fs/path.c) over a made-up tree: Linux's
 * rules for ".", "..", trailing slashes and missing or non-directory components, and the
 * symbolic links (followed in the middle, at the end when asked or before a trailing
 * slash, ".." physical after one, ELOOP, an empty target ENOENT). */
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "kernel/fs/path.h"
#include "kernel/lib/errno.h"

static const struct {
	const char *name;
	enum path_kind kind;
	const char *target;
} tree[] = {
    {"bin", PATH_DIRECTORY, 0},
    {"bin/sh", PATH_FILE, 0},
    {"bin/busybox", PATH_FILE, 0},
    {"bin/ls", PATH_SYMLINK, "busybox"},
    {"etc", PATH_DIRECTORY, 0},
    {"etc/motd", PATH_FILE, 0},
    {"etc/abs", PATH_SYMLINK, "/etc/motd"},
    {"etc/up", PATH_SYMLINK, "../bin"},
    {"etc/loop", PATH_SYMLINK, "loop"},
    {"etc/empty", PATH_SYMLINK, ""},
    {"etc/dir", PATH_SYMLINK, "/etc/"},
};

static enum path_kind lookup(const char *name, char *target, size_t target_size)
{
	for (size_t i = 0; i < sizeof tree / sizeof tree[0]; i++) {
		if (strcmp(tree[i].name, name) != 0)
			continue;
		if (tree[i].target) {
			strncpy(target, tree[i].target, target_size - 1);
			target[target_size - 1] = 0;
		}
		return tree[i].kind;
	}
	return PATH_MISSING;
}

static char out[256];
static struct path_result result;

static int resolve(const char *base, const char *path, bool follow)
{
	return path_resolve(base, path, follow, out, sizeof out, lookup, &result);
}

static void test_plain_paths(void)
{
	CHECK(resolve("", "/etc/motd", true) == 0);
	CHECK_STR(out, "etc/motd");
	CHECK(result.kind == PATH_FILE && result.last == PATH_LAST_NAME);
	CHECK(resolve("etc", "motd", true) == 0);
	CHECK_STR(out, "etc/motd");
	CHECK(resolve("etc", "//..//bin/./sh", true) == 0);
	CHECK_STR(out, "bin/sh");
	CHECK(resolve("", "/", true) == 0 && result.last == PATH_LAST_ROOT && out[0] == 0);
	CHECK(resolve("", "/etc/.", true) == 0 && result.last == PATH_LAST_DOT);
	CHECK(resolve("", "/etc/..", true) == 0 && result.last == PATH_LAST_DOTDOT && out[0] == 0);
	CHECK(resolve("", "/etc/new", true) == 0 && result.kind == PATH_MISSING);
	CHECK_STR(out, "etc/new");
	CHECK(resolve("", "/etc/none/x", true) == -ENOENT);
	CHECK(resolve("", "/etc/motd/x", true) == -ENOTDIR);
	CHECK(resolve("", "/etc/motd/", true) == -ENOTDIR);
	CHECK(resolve("", "", true) == -ENOENT);
	char long_name[300] = "/";
	memset(long_name + 1, 'n', 256);
	CHECK(resolve("", long_name, true) == -ENAMETOOLONG);
}

static void test_links(void)
{
	CHECK(resolve("", "/bin/ls", true) == 0 && result.kind == PATH_FILE);
	CHECK_STR(out, "bin/busybox");
	CHECK(resolve("", "/bin/ls", false) == 0 && result.kind == PATH_SYMLINK);
	CHECK_STR(out, "bin/ls");
	CHECK(resolve("", "/bin/ls/", false) == -ENOTDIR); /* a trailing slash follows */
	CHECK(resolve("", "/etc/abs", true) == 0);
	CHECK_STR(out, "etc/motd");
	CHECK(resolve("", "/etc/up/sh", false) == 0 && result.kind == PATH_FILE);
	CHECK_STR(out, "bin/sh");
	CHECK(resolve("", "/etc/up/../etc/motd", true) == 0); /* ".." from where it led */
	CHECK_STR(out, "etc/motd");
	CHECK(resolve("etc", "dir/motd", true) == 0);
	CHECK_STR(out, "etc/motd");
	CHECK(resolve("", "/etc/dir", true) == 0 && result.kind == PATH_DIRECTORY);
	CHECK_STR(out, "etc");
	CHECK(resolve("", "/etc/loop", true) == -ELOOP);
	CHECK(resolve("", "/etc/loop", false) == 0 && result.kind == PATH_SYMLINK);
	CHECK(resolve("", "/etc/loop/x", false) == -ELOOP);
	CHECK(resolve("", "/etc/empty", true) == -ENOENT);
}

int main(void)
{
	RUN(test_plain_paths);
	RUN(test_links);
	return check_summary();
}
