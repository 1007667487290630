/* ls [-l] [PATH...]: for a directory, the names in it (but those starting with "."),
 * sorted, one a line; for a file, its name. With -l each line is the type and
 * permissions, the size in bytes, the time of the last change (UTC) and the name:
 * "-rw-r--r--      4 2026-12-07 19:16 f". Without PATH, the current directory. With
 * several PATHs each directory is headed "PATH:", after a blank line but the first. Exits 1 if a
 * PATH could not be read. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_ENTRIES 256
#define POOL_SIZE   8192
#define PATH_SIZE   512

static bool long_format;

/* qsort comparison for an array of C strings. */
static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One line of the listing for `name`, whose status is at `path`. 0, or -1 after saying
 * why its status could not be read. */
static int show(const char *path, const char *name)
{
	if (!long_format) {
		puts(name);
		return 0;
	}
	struct stat status;
	if (lstat(path, &status) != 0) {
		fprintf(stderr, "ls: %s: %s\n", path, strerror(errno));
		return -1;
	}
	static const char permissions[] = "rwxrwxrwx";
	char mode[11];
	mode[0] = S_ISDIR(status.st_mode)    ? 'd'
	          : S_ISLNK(status.st_mode)  ? 'l'
	          : S_ISCHR(status.st_mode)  ? 'c'
	          : S_ISFIFO(status.st_mode) ? 'p'
	                                     : '-';
	for (int bit = 0; bit < 9; bit++)
		mode[1 + bit] = status.st_mode & (0400 >> bit) ? permissions[bit] : '-';
	mode[10] = '\0';
	char when[20];
	struct tm tm;
	time_t seconds = status.st_mtim.tv_sec;
	strftime(when, sizeof when, "%Y-%m-%d %H:%M", gmtime_r(&seconds, &tm));
	printf("%s %8ld %s %s\n", mode, (long)status.st_size, when, name);
	return 0;
}

/* List directory `path`: its names sorted. 0, or -1 after saying what went wrong. */
static int list_directory(const char *path)
{
	static char pool[POOL_SIZE];
	static char *names[MAX_ENTRIES];
	char buffer[1024];
	size_t used = 0;
	int count = 0, result = 0;
	ssize_t filled;

	int fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		fprintf(stderr, "ls: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((filled = getdents64(fd, buffer, sizeof buffer)) > 0) {
		for (ssize_t at = 0; at < filled;) {
			struct linux_dirent64 *entry = (struct linux_dirent64 *)(buffer + at);
			size_t size = strlen(entry->d_name) + 1;
			at += entry->d_reclen;
			if (entry->d_name[0] == '.')
				continue;
			if (count == MAX_ENTRIES || used + size > sizeof pool) {
				fprintf(stderr,
				        "ls: %s: more than %d entries; the rest not listed\n", path,
				        count);
				result = -1;
				goto full;
			}
			names[count++] = memcpy(pool + used, entry->d_name, size);
			used += size;
		}
	}
	if (filled < 0) {
		fprintf(stderr, "ls: %s: %s\n", path, strerror(errno));
		result = -1;
	}
full:
	close(fd);
	qsort(names, count, sizeof names[0], compare_names);
	for (int i = 0; i < count; i++) {
		char entry_path[PATH_SIZE];
		snprintf(entry_path, sizeof entry_path, "%s/%s", path, names[i]);
		if (show(entry_path, names[i]) < 0)
			result = -1;
	}
	return result;
}

/* List one operand: a directory's entries, or a file's own line. */
static int list(const char *path, bool heading)
{
	struct stat status;
	if (stat(path, &status) != 0) {
		fprintf(stderr, "ls: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(status.st_mode))
		return show(path, path);
	static bool listed_one;
	if (heading)
		printf("%s%s:\n", listed_one ? "\n" : "", path);
	listed_one = true;
	return list_directory(path);
}

int main(int argc, char **argv)
{
	int first = 1;
	if (first < argc && strcmp(argv[first], "-l") == 0) {
		long_format = true;
		first++;
	}
	if (first < argc && argv[first][0] == '-') {
		fprintf(stderr, "usage: ls [-l] [PATH...]\n");
		return 2;
	}
	if (first == argc)
		return list(".", false) < 0;
	int status = 0;
	for (int i = first; i < argc; i++)
		if (list(argv[i], argc - first > 1) < 0)
			status = 1;
	return status;
}
