/* cpio newc reader; see cpio.h. */
#include "kernel/fs/cpio.h"

#include "kernel/lib/string.h"

#define HEADER_SIZE 110

/* Eight hex digits at `text`; false if any is not hex. */
static bool parse_hex8(const uint8_t *text, uint32_t *value)
{
	uint32_t result = 0;
	for (int i = 0; i < 8; i++) {
		uint8_t c = text[i];
		uint32_t digit;
		if (c >= '0' && c <= '9')
			digit = c - '0';
		else if (c >= 'a' && c <= 'f')
			digit = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			digit = c - 'A' + 10;
		else
			return false;
		result = result << 4 | digit;
	}
	*value = result;
	return true;
}

static size_t align4(size_t value)
{
	return (value + 3) & ~(size_t)3;
}

int cpio_next(const uint8_t *archive, size_t archive_size, size_t *offset, struct cpio_entry *entry)
{
	size_t at = *offset;
	if (at >= archive_size)
		return 0;
	if (archive_size - at < HEADER_SIZE || memcmp(archive + at, "070701", 6) != 0)
		return -1;
	uint32_t mode, file_size, name_size;
	/* Field order after the magic: ino mode uid gid nlink mtime filesize devmajor
	 * devminor rdevmajor rdevminor namesize check. */
	if (!parse_hex8(archive + at + 6 + 8 * 1, &mode) ||
	    !parse_hex8(archive + at + 6 + 8 * 6, &file_size) ||
	    !parse_hex8(archive + at + 6 + 8 * 11, &name_size) || name_size == 0)
		return -1;
	size_t name_at = at + HEADER_SIZE;
	if (name_size > archive_size - name_at)
		return -1;
	size_t data_at = align4(name_at + name_size);
	if (data_at > archive_size || file_size > archive_size - data_at)
		return -1;
	const char *name = (const char *)archive + name_at;
	size_t name_length = strnlen(name, name_size);
	if (name_length == 10 && memcmp(name, "TRAILER!!!", 10) == 0)
		return 0;
	while (name_length > 0 &&
	       (name[0] == '/' || (name[0] == '.' && name_length > 1 && name[1] == '/'))) {
		size_t skip = name[0] == '/' ? 1 : 2;
		name += skip;
		name_length -= skip;
	}
	entry->name = name;
	entry->name_length = name_length;
	entry->data = archive + data_at;
	entry->size = file_size;
	entry->mode = mode;
	*offset = align4(data_at + file_size);
	return 1;
}

bool cpio_find(const uint8_t *archive, size_t archive_size, const char *path,
               struct cpio_entry *entry)
{
	while (*path == '/')
		path++;
	size_t length = strlen(path);
	size_t offset = 0;
	struct cpio_entry candidate;
	while (cpio_next(archive, archive_size, &offset, &candidate) == 1) {
		if (candidate.name_length == length && memcmp(candidate.name, path, length) == 0) {
			*entry = candidate;
			return true;
		}
	}
	return false;
}
