/* Paths with a directory descriptor, for the *at() system calls; see user_path.h. */
#include "kernel/syscall/user_path.h"

#include "kernel/lib/errno.h"
#include "kernel/mm/address_space.h"

long user_path_open(struct process *process, uint64_t directory_fd, uint64_t path_address,
                    int flags, enum user_path_empty empty, struct file **file)
{
	char path[USER_PATH_MAX];
	long length = copy_string_from_user(&process->space, path, path_address, sizeof path);
	if (length < 0)
		return length;
	if (length == 0 && empty == USER_PATH_EMPTY_ENOENT)
		return -ENOENT; /* before the descriptor is looked at, as Linux's getname */
	if (path[0] == '/')
		return file_open_at("", path, flags, file);
	if ((int)directory_fd == AT_FDCWD) /* the root: there is no working directory */
		return file_open_at("", length == 0 ? "/" : path, flags, file);
	struct file *directory = process_file(process, directory_fd);
	if (!directory)
		return -EBADF;
	if (length == 0) { /* AT_EMPTY_PATH: the descriptor itself, whatever it is */
		file_get(directory);
		*file = directory;
		return 0;
	}
	if (!directory->ops->list)
		return -ENOTDIR;
	return file_open_at(directory->path, path, flags, file);
}
