/* Paths with a directory descriptor, for the *at() system calls; see user_path.h. */
#include "kernel/syscall/user_path.h"

#include "kernel/lib/errno.h"
#include "kernel/mm/address_space.h"

long user_path_get(struct process *process, uint64_t directory_fd, uint64_t path_address,
                   enum user_path_empty empty, struct user_path *out)
{
	long length =
	    copy_string_from_user(&process->space, out->path, path_address, sizeof out->path);
	if (length < 0)
		return length;
	out->itself = 0;
	out->base = "";
	if (length == 0 && empty == USER_PATH_EMPTY_ENOENT)
		return -ENOENT; /* before the descriptor is looked at, as Linux's getname */
	if (out->path[0] == '/')
		return 0;
	if (length == 0) /* AT_EMPTY_PATH: the directory itself */
		out->path[0] = '.', out->path[1] = 0;
	if ((int)directory_fd == AT_FDCWD) {
		out->base = process->cwd;
		return 0;
	}
	struct file *directory = process_file(process, directory_fd);
	if (!directory)
		return -EBADF;
	if (length == 0 && !directory->ops->list) { /* any kind of file, itself */
		out->itself = directory;
		return 0;
	}
	if (!directory->ops->list)
		return -ENOTDIR;
	out->base = directory->path;
	return 0;
}

long user_path_open(struct process *process, uint64_t directory_fd, uint64_t path_address,
                    int flags, uint32_t mode, enum user_path_empty empty, struct file **file)
{
	struct user_path at;
	long error = user_path_get(process, directory_fd, path_address, empty, &at);
	if (error)
		return error;
	if (at.itself) {
		file_get(at.itself);
		*file = at.itself;
		return 0;
	}
	return file_open_at(at.base, at.path, flags, mode, file);
}
