/* getdents64 records; see dirent.h. */
#include "kernel/fs/dirent.h"

#include "kernel/fs/file.h"
#include "kernel/lib/string.h"
#include "uapi/dirent.h"

uint8_t dirent_type(uint32_t mode)
{
	switch (mode & FILE_MODE_TYPE) {
	case FILE_MODE_DIRECTORY:
		return DIRENT_DIRECTORY;
	case FILE_MODE_SYMLINK:
		return DIRENT_SYMLINK;
	case FILE_MODE_CHARACTER:
		return DIRENT_CHARACTER;
	default:
		return DIRENT_REGULAR;
	}
}

size_t dirent_put(uint8_t *buffer, size_t room, const char *name, size_t name_length, uint8_t type,
                  uint64_t inode, uint64_t next)
{
	/* d_name starts at offset 19, not at sizeof (24): the struct is padded. */
	size_t name_at = offsetof(struct linux_dirent64, d_name);
	size_t size = (name_at + name_length + 1 + 7) & ~(size_t)7;
	if (size > room)
		return 0;
	struct linux_dirent64 record = {inode, (int64_t)next, (uint16_t)size, type};
	memset(buffer, 0, size);
	memcpy(buffer, &record, name_at);
	memcpy(buffer + name_at, name, name_length);
	return size;
}
