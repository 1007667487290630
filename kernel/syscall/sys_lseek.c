/* lseek(2) (riscv64 Linux number 62): move an open file's offset. Archive files seek
 * as Linux's generic_file_llseek (SEEK_SET/CUR/END, SEEK_DATA/SEEK_HOLE with the only
 * hole at the end, beyond the end allowed, a negative result EINVAL); directories take
 * SEEK_SET/SEEK_CUR among their entries; /dev/null always lands at 0; the console, a
 * terminal, is ESPIPE. The file's seek op does the work. */
#include "kernel/fs/file.h"
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"

long sys_lseek(uint64_t fd, uint64_t offset, uint64_t whence, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = process_file(process, fd);
	if (!file)
		return -EBADF;
	if (!file->ops->seek)
		return -ESPIPE;
	if (whence > SEEK_HOLE)
		return -EINVAL;
	return file->ops->seek(file, (int64_t)offset, (int)whence);
}
