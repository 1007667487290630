/* The working directory: getcwd, chdir, fchdir (Linux fs/d_path.c, fs/open.c). A
 * process's working directory is a canonical name (struct process cwd), where every
 * relative path of AT_FDCWD starts (kernel/syscall/user_path.c). A name, not a
 * reference: a directory renamed or removed under a process leaves its cwd naming what
 * is (or is not) there now. */
#include "kernel/fs/file_system.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"
#include "kernel/syscall/user_path.h"

/* getcwd(2): "/" and the name, with its NUL; the length with the NUL, -ERANGE if
 * `size` is too small (0 included), -EFAULT for a bad buffer. */
long sys_getcwd(uint64_t buffer, uint64_t size, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	char name[FILE_PATH_MAX + 1];
	size_t length = strlen(process->cwd);
	name[0] = '/';
	memcpy(name + 1, process->cwd, length + 1);
	if (size < length + 2)
		return -ERANGE;
	if (copy_to_user(&process->space, buffer, name, length + 2) != 0)
		return -EFAULT;
	return (long)(length + 2);
}

long sys_chdir(uint64_t path_address, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
               uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct user_path at;
	long error =
	    user_path_get(process, (uint64_t)AT_FDCWD, path_address, USER_PATH_EMPTY_ENOENT, &at);
	if (error)
		return error;
	char directory[FILE_PATH_MAX];
	error = fs_directory(at.base, at.path, directory);
	if (error == 0)
		memcpy(process->cwd, directory, sizeof directory);
	return error;
}

long sys_fchdir(uint64_t fd, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = process_file(process, fd);
	if (!file)
		return -EBADF;
	if (!file->ops->list)
		return -ENOTDIR;
	memcpy(process->cwd, file->path, sizeof process->cwd);
	return 0;
}
