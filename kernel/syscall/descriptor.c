/* Descriptor table changes; see descriptor.h. */
#include "kernel/syscall/descriptor.h"

#include "kernel/lib/errno.h"

void descriptor_set_close_on_exec(struct process *process, uint64_t fd, bool close_on_exec)
{
	if (close_on_exec)
		process->close_on_exec |= 1u << fd;
	else
		process->close_on_exec &= ~(1u << fd);
}

bool descriptor_close_on_exec(const struct process *process, uint64_t fd)
{
	return fd < PROCESS_MAX_FILES && (process->close_on_exec >> fd & 1);
}

int descriptor_install(struct process *process, struct file *file, uint64_t minimum,
                       bool close_on_exec)
{
	for (uint64_t fd = minimum; fd < PROCESS_MAX_FILES; fd++) {
		if (!process->files[fd]) {
			process->files[fd] = file;
			descriptor_set_close_on_exec(process, fd, close_on_exec);
			return (int)fd;
		}
	}
	return -EMFILE;
}

void descriptor_replace(struct process *process, uint64_t fd, struct file *file, bool close_on_exec)
{
	struct file *old = process->files[fd];
	file_get(file);
	process->files[fd] = file;
	descriptor_set_close_on_exec(process, fd, close_on_exec);
	if (old) /* after the new one is in: the release may sleep, the table is consistent */
		file_put(old);
}

int descriptor_close(struct process *process, uint64_t fd)
{
	struct file *file = process_file(process, fd);
	if (!file)
		return -EBADF;
	process->files[fd] = 0;
	descriptor_set_close_on_exec(process, fd, false);
	file_put(file);
	return 0;
}
