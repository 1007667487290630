/* sendfile (71): copy between two open files inside the kernel, through the process's
 * own bounce buffer (struct process io_buffer), FILE_CHUNK bytes at a time. busybox's
 * cat, cp and tee use it before they fall back to read/write.
 *
 * Linux's semantics (fs/read_write.c do_sendfile, fs/splice.c): in_fd must be open for
 * reading and out_fd for writing (EBADF), out_fd without O_APPEND (EINVAL); with an
 * offset pointer the input is read from *offset, which is advanced, and in_fd's own
 * position stays where it was (so in_fd must be seekable: ESPIPE), a negative *offset is
 * EINVAL; without one the input's position advances. It returns the bytes written, which
 * is fewer than `count` at the end of the input or when the output takes less; an error
 * after some bytes moved returns the bytes. Input read but not written is given back
 * (the position or *offset counts only what was written). */
#include <stdbool.h>

#include "kernel/fs/file.h"
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"

#define MAX_RW_COUNT 0x7ffff000ull /* Linux's cap on one transfer (INT_MAX & PAGE_MASK) */

static bool readable(const struct file *file)
{
	int mode = file->flags & O_ACCMODE;
	return (mode == O_RDONLY || mode == O_RDWR) && file->ops->read;
}

static bool writable(const struct file *file)
{
	int mode = file->flags & O_ACCMODE;
	return (mode == O_WRONLY || mode == O_RDWR) && file->ops->write;
}

/* Move up to `count` bytes from `in` (at its position) to `out`. Returns the bytes
 * written, or -errno if none was; *given_back is what was read and not written. May
 * sleep in either file's op. */
static long copy_through(struct process *process, struct file *in, struct file *out, uint64_t count,
                         uint64_t *given_back)
{
	long total = 0;
	*given_back = 0;
	while ((uint64_t)total < count) {
		uint64_t want = count - (uint64_t)total;
		if (want > FILE_CHUNK)
			want = FILE_CHUNK;
		long got = in->ops->read(in, process->io_buffer, want);
		if (got <= 0)
			return total ? total : got;
		long put = 0;
		while (put < got) {
			long written =
			    out->ops->write(out, process->io_buffer + put, (size_t)(got - put));
			if (written <= 0) {
				*given_back = (uint64_t)(got - put);
				total += put;
				return total ? total : (written ? written : -EIO);
			}
			put += written;
		}
		total += got;
		if ((uint64_t)got < want)
			break; /* the input had no more just now: return what moved */
	}
	return total;
}

long sys_sendfile(uint64_t out_fd, uint64_t in_fd, uint64_t offset_address, uint64_t count,
                  uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	struct file *in = process_file(process, in_fd);
	struct file *out = process_file(process, out_fd);
	if (!in || !out || !readable(in) || !writable(out))
		return -EBADF;
	if (out->flags & O_APPEND)
		return -EINVAL;
	if ((int64_t)count < 0)
		return -EINVAL;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	uint64_t given_back;
	if (!offset_address) {
		long moved = copy_through(process, in, out, count, &given_back);
		if (given_back && in->ops->seek)
			in->ops->seek(in, -(int64_t)given_back, SEEK_CUR);
		return moved;
	}
	if (!in->ops->seek)
		return -ESPIPE;
	int64_t offset;
	if (copy_from_user(&process->space, &offset, offset_address, sizeof offset) != 0)
		return -EFAULT;
	if (offset < 0)
		return -EINVAL;
	long saved = in->ops->seek(in, 0, SEEK_CUR);
	long placed = in->ops->seek(in, offset, SEEK_SET);
	if (saved < 0 || placed < 0)
		return saved < 0 ? saved : placed;
	long moved = copy_through(process, in, out, count, &given_back);
	in->ops->seek(in, saved, SEEK_SET);
	if (moved > 0) {
		offset += moved;
		if (copy_to_user(&process->space, offset_address, &offset, sizeof offset) != 0)
			return -EFAULT;
	}
	return moved;
}
