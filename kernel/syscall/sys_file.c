/* File system calls: read, write, readv, writev, openat, close, dup, ioctl, fcntl,
 * getdents64. A bad user buffer loses nothing: user memory is checked whole before
 * anything happens (a write of up to SMALL_WRITE bytes is instead copied whole onto the
 * kernel stack before it goes out), then moved through the process's own FILE_CHUNK
 * bounce buffer (struct process io_buffer) in FILE_CHUNK pieces: reads and writes
 * allocate nothing. */
#include <stdbool.h>

#include "kernel/fs/file.h"
#include "kernel/fs/file_system.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/descriptor.h"
#include "kernel/syscall/syscall.h"
#include "kernel/syscall/user_path.h"
#include "uapi/console_telemetry.h"
#include "uapi/fcntl.h"
#include "uapi/termios.h"

#define IOV_MAX 1024

struct user_iovec {
	uint64_t base;
	uint64_t length;
};

/* The open file behind `fd` if it was opened for reading, with a read op. Access mode
 * 3 allows neither reading nor writing (Linux). */
static struct file *file_for_reading(struct process *process, uint64_t fd)
{
	struct file *file = process_file(process, fd);
	int mode = file ? file->flags & O_ACCMODE : O_WRONLY;
	bool ok = (mode == O_RDONLY || mode == O_RDWR) && file->ops->read;
	return ok ? file : 0;
}

/* The open file behind `fd` if it was opened for writing, with a write op. */
static struct file *file_for_writing(struct process *process, uint64_t fd)
{
	struct file *file = process_file(process, fd);
	int mode = file ? file->flags & O_ACCMODE : O_RDONLY;
	bool ok = (mode == O_WRONLY || mode == O_RDWR) && file->ops->write;
	return ok ? file : 0;
}

/* read/readv's answer for a descriptor file_for_reading refused: reading a directory
 * is EISDIR (Linux), anything else EBADF. */
static long not_readable(struct process *process, uint64_t fd)
{
	struct file *file = process_file(process, fd);
	return file && file->ops->list ? -EISDIR : -EBADF;
}

/* sys_read for a file with read_user: at most what the largest such file buffers
 * (READ_USER_MAX), checked whole first. Out of line: the console read stays lean. */
#define READ_USER_MAX 65536
static long __attribute__((noinline))
read_user_whole(struct process *process, struct file *file, uint64_t buffer, uint64_t count)
{
	if (count > READ_USER_MAX)
		count = READ_USER_MAX;
	if (!user_range_ok(&process->space, buffer, count, USER_WRITE))
		return -EFAULT;
	return file->ops->read_user(file, &process->space, buffer, count);
}

long sys_read(uint64_t fd, uint64_t buffer, uint64_t count, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = file_for_reading(process, fd);
	if (!file)
		return not_readable(process, fd);
	if (count == 0)
		return 0;
	/* The whole range must be plausible even though one read moves at most a chunk. */
	if (!user_range_in_bounds(buffer, count))
		return -EFAULT;
	if (file->ops->read_user) /* a pipe: straight into the buffer, up to all of it */
		return read_user_whole(process, file, buffer, count);
	if (count > FILE_CHUNK)
		count = FILE_CHUNK;
	if (!user_range_ok(&process->space, buffer, count, USER_WRITE))
		return -EFAULT;
	long result = file->ops->read(file, process->io_buffer, count);
	if (result > 0 &&
	    copy_to_user(&process->space, buffer, process->io_buffer, (size_t)result) != 0)
		result = -EFAULT;
	return result;
}

/* write() of up to this many bytes is copied onto the kernel stack (sys_write). */
#define SMALL_WRITE 256
/* readv/writev read the caller's iovec array this many entries at a time, onto the
 * stack: they allocate nothing, whatever the count. */
#define IOV_BATCH 8

/* Walks an iovec array in user memory (or one kernel-described range) a batch at a
 * time. Duplex processes are single-threaded and share no memory, so the array read
 * again for the copy is the one checked (and copy_from_user checks every range anyway). */
struct iov_cursor {
	struct process *process;
	uint64_t address;  /* the user's array (0 for iov_single) */
	uint64_t count;    /* its entries */
	uint64_t loaded;   /* entries read from it so far */
	uint32_t position; /* next entry in batch */
	uint32_t filled;   /* entries in batch */
	struct user_iovec batch[IOV_BATCH];
};

static void iov_start(struct iov_cursor *cursor, struct process *process, uint64_t address,
                      uint64_t count)
{
	cursor->process = process;
	cursor->address = address;
	cursor->count = count;
	cursor->loaded = 0;
	cursor->position = cursor->filled = 0;
}

/* A cursor over the one range [base, base + length). */
static void iov_single(struct iov_cursor *cursor, struct process *process, uint64_t base,
                       uint64_t length)
{
	iov_start(cursor, process, 0, 1);
	cursor->batch[0] = (struct user_iovec){base, length};
	cursor->loaded = cursor->filled = 1;
}

/* The next entry: 1, 0 at the end, or -EFAULT if the array is unreadable. */
static int iov_next(struct iov_cursor *cursor, struct user_iovec *piece)
{
	if (cursor->position == cursor->filled) {
		if (cursor->loaded == cursor->count)
			return 0;
		uint64_t take = cursor->count - cursor->loaded;
		if (take > IOV_BATCH)
			take = IOV_BATCH;
		if (copy_from_user(&cursor->process->space, cursor->batch,
		                   cursor->address + cursor->loaded * sizeof cursor->batch[0],
		                   take * sizeof cursor->batch[0]) != 0)
			return -EFAULT;
		cursor->loaded += take;
		cursor->filled = (uint32_t)take;
		cursor->position = 0;
	}
	*piece = cursor->batch[cursor->position++];
	return 1;
}

/* Check an iovec array (count, lengths, every range mapped for `access`); returns the
 * total length or -errno. */
static long check_iovecs(struct process *process, uint64_t address, uint64_t count, int access)
{
	if ((int64_t)count < 0 || count > IOV_MAX)
		return -EINVAL;
	struct iov_cursor cursor;
	struct user_iovec piece;
	uint64_t total = 0;
	int got;
	iov_start(&cursor, process, address, count);
	while ((got = iov_next(&cursor, &piece)) > 0) {
		if ((int64_t)piece.length < 0 || total + piece.length < total ||
		    total + piece.length > INT64_MAX)
			return -EINVAL;
		if (piece.length &&
		    !user_range_ok(&process->space, piece.base, piece.length, access))
			return -EFAULT;
		total += piece.length;
	}
	return got < 0 ? got : (long)total;
}

/* Write `total` bytes gathered from `cursor`'s ranges (already checked) in FILE_CHUNK
 * pieces through the process's own bounce buffer: no allocation, so a write never fails
 * for want of memory. Task context; may sleep in the file's write. */
static long gather_write(struct process *process, struct file *file, struct iov_cursor *cursor,
                         uint64_t total)
{
	uint8_t *bounce = process->io_buffer;
	struct user_iovec piece = {0, 0};
	long written = 0;
	while ((uint64_t)written < total) {
		size_t filled = 0;
		while (filled < FILE_CHUNK && (uint64_t)written + filled < total) {
			if (piece.length == 0) {
				int got = iov_next(cursor, &piece);
				if (got < 0)
					return written ? written : got;
				if (got == 0)
					break;
				continue;
			}
			uint64_t take = piece.length;
			if (take > FILE_CHUNK - filled)
				take = FILE_CHUNK - filled;
			if (take > total - (uint64_t)written - filled)
				take = total - (uint64_t)written - filled;
			if (copy_from_user(&process->space, bounce + filled, piece.base, take) != 0)
				/* Checked ranges: only a mapping changed meanwhile gets here. */
				return written ? written : -EFAULT;
			filled += take;
			piece.base += take;
			piece.length -= take;
		}
		if (filled == 0)
			break;
		long result = file->ops->write(file, bounce, filled);
		if (result < 0) {
			if (written == 0)
				written = result;
			break;
		}
		written += result;
		if ((size_t)result < filled)
			break;
	}
	return written;
}

long sys_write(uint64_t fd, uint64_t buffer, uint64_t count, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = file_for_writing(process, fd);
	if (!file)
		return -EBADF;
	if (count == 0)
		return 0;
	/* A small write is copied whole before any of it goes out, so the copy itself
	 * finds a bad buffer; a longer one is checked first, so that a bad page near its
	 * end cannot leave a partial write behind. */
	if (count <= SMALL_WRITE) {
		uint8_t small[SMALL_WRITE];
		if (copy_from_user(&process->space, small, buffer, count) != 0)
			return -EFAULT;
		return file->ops->write(file, small, count);
	}
	if (!user_range_ok(&process->space, buffer, count, USER_READ))
		return -EFAULT;
	if (file->ops->write_user) /* a pipe: straight from the buffer, one call */
		return file->ops->write_user(file, &process->space, buffer, count);
	struct iov_cursor cursor;
	iov_single(&cursor, process, buffer, count);
	return gather_write(process, file, &cursor, count);
}

long sys_writev(uint64_t fd, uint64_t iov, uint64_t count, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = file_for_writing(process, fd);
	if (!file)
		return -EBADF;
	long total = check_iovecs(process, iov, count, USER_READ);
	if (total <= 0)
		return total;
	struct iov_cursor cursor;
	iov_start(&cursor, process, iov, count);
	return gather_write(process, file, &cursor, (uint64_t)total);
}

long sys_readv(uint64_t fd, uint64_t iov, uint64_t count, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = file_for_reading(process, fd);
	if (!file)
		return not_readable(process, fd);
	long total = check_iovecs(process, iov, count, USER_WRITE);
	if (total <= 0)
		return total;
	size_t want = (uint64_t)total < FILE_CHUNK ? (size_t)total : FILE_CHUNK;
	long result = file->ops->read(file, process->io_buffer, want);
	struct iov_cursor cursor;
	struct user_iovec piece;
	iov_start(&cursor, process, iov, count);
	for (size_t done = 0; result > 0 && done < (size_t)result;) {
		if (iov_next(&cursor, &piece) <= 0)
			break;
		size_t take = (size_t)result - done;
		if (take > piece.length)
			take = piece.length;
		copy_to_user(&process->space, piece.base, process->io_buffer + done, take);
		done += take;
	}
	return result;
}

long sys_openat(uint64_t directory_fd, uint64_t path_address, uint64_t flags, uint64_t mode,
                uint64_t a4, uint64_t a5)
{
	(void)a4, (void)a5;
	struct process *process = process_current();
	/* Unknown flags are ignored, as open(2) on Linux does. */
	struct file *file;
	long error = user_path_open(process, directory_fd, path_address, (int)flags,
	                            (uint32_t)mode & ~PROCESS_UMASK, USER_PATH_EMPTY_ENOENT, &file);
	if (error)
		return error;
	int fd = descriptor_install(process, file, 0, flags & O_CLOEXEC);
	if (fd < 0)
		file_put(file);
	return fd;
}

long sys_close(uint64_t fd, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return descriptor_close(process_current(), fd);
}

long sys_dup(uint64_t fd, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = process_file(process, fd);
	if (!file)
		return -EBADF;
	int new_fd = descriptor_install(process, file, 0, false); /* dup clears FD_CLOEXEC */
	if (new_fd >= 0)
		file_get(file);
	return new_fd;
}

/* What each known ioctl request carries: bytes copied in and/or out. */
static int ioctl_argument_size(unsigned long request, bool *in, bool *out)
{
	*in = *out = false;
	switch (request) {
	case TCGETS:
		*out = true;
		return sizeof(struct kernel_termios);
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		*in = true;
		return sizeof(struct kernel_termios);
	case FIONREAD:
	case TIOCOUTQ:
	case TIOCGPGRP:
	case TIOCGSID:
		*out = true;
		return sizeof(int);
	case FIONBIO:
	case TIOCSPGRP:
		*in = true;
		return sizeof(int);
	case TIOCGWINSZ:
		*out = true;
		return sizeof(struct kernel_winsize);
	case TIOCSWINSZ:
		*in = true;
		return sizeof(struct kernel_winsize);
	case TCSBRK: /* these take an int by value, or nothing */
	case TCSBRKP:
	case TCXONC:
	case TCFLSH:
	case TIOCSBRK:
	case TIOCCBRK:
	case TIOCSCTTY:
	case TIOCNOTTY:
	case CONSOLE_IOCTL_RESET_TELEMETRY:
		return 0;
	case CONSOLE_IOCTL_TELEMETRY:
		*out = true;
		return sizeof(struct console_telemetry);
	case CONSOLE_IOCTL_INFO:
		*out = true;
		return sizeof(struct console_info);
	default:
		return -1;
	}
}

/* sys_ioctl's requests that carry a structure (or an unknown request): copy it in,
 * check where it goes out, run it. Apart from sys_ioctl so that tcdrain, which carries
 * none, does not pay for the buffer. Task context; may sleep (TCSETSW drains). */
static long __attribute__((noinline))
ioctl_with_argument(struct process *process, struct file *file, unsigned long request,
                    uint64_t argument)
{
	bool in, out;
	int size = ioctl_argument_size(request, &in, &out);
	if (size < 0)
		return -ENOTTY;
	/* Big enough for the largest argument ioctl_argument_size knows. */
	_Alignas(8) uint8_t buffer[sizeof(struct console_telemetry) > sizeof(struct console_info)
	                               ? sizeof(struct console_telemetry)
	                               : sizeof(struct console_info)];
	if (in && copy_from_user(&process->space, buffer, argument, (size_t)size) != 0)
		return -EFAULT;
	if (out && !user_range_ok(&process->space, argument, (size_t)size, USER_WRITE))
		return -EFAULT;
	if (request == FIONBIO) { /* a property of the open file, not of the device */
		int on;
		memcpy(&on, buffer, sizeof on);
		__atomic_fetch_and(&file->flags, ~O_NONBLOCK, __ATOMIC_RELAXED);
		if (on)
			__atomic_fetch_or(&file->flags, O_NONBLOCK, __ATOMIC_RELAXED);
		return 0;
	}
	if (!file->ops->ioctl)
		return -ENOTTY;
	long result = file->ops->ioctl(file, request, size ? buffer : 0, argument);
	if (result == 0 && out &&
	    copy_to_user(&process->space, argument, buffer, (size_t)size) != 0)
		return -EFAULT;
	return result;
}

long sys_ioctl(uint64_t fd, uint64_t request, uint64_t argument, uint64_t a3, uint64_t a4,
               uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = process_file(process, fd);
	if (!file)
		return -EBADF;
	/* tcdrain(), after every line a program wants seen: no argument structure, so
	 * straight to the file. */
	if (request == TCSBRK)
		return file->ops->ioctl ? file->ops->ioctl(file, TCSBRK, 0, argument) : -ENOTTY;
	return ioctl_with_argument(process, file, (unsigned long)request, argument);
}

long sys_fcntl(uint64_t fd, uint64_t command, uint64_t argument, uint64_t a3, uint64_t a4,
               uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = process_file(process, fd);
	if (!file)
		return -EBADF;
	switch (command) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC: { /* the lowest free descriptor >= argument (Linux: EINVAL
		                 * at or above RLIMIT_NOFILE, which is the table's size) */
		if (argument >= PROCESS_MAX_FILES)
			return -EINVAL;
		int new_fd =
		    descriptor_install(process, file, argument, command == F_DUPFD_CLOEXEC);
		if (new_fd >= 0)
			file_get(file);
		return new_fd;
	}
	case F_GETFD:
		return descriptor_close_on_exec(process, fd) ? FD_CLOEXEC : 0;
	case F_SETFD: /* FD_CLOEXEC is the only descriptor flag; other bits are ignored */
		descriptor_set_close_on_exec(process, fd, argument & FD_CLOEXEC);
		return 0;
	case F_GETFL:
		return file->flags & (O_ACCMODE | O_STATUS_FLAGS);
	case F_SETFL: /* only the status flags change; the rest is ignored, as on Linux */
		__atomic_fetch_and(&file->flags, ~O_STATUS_FLAGS, __ATOMIC_RELAXED);
		__atomic_fetch_or(&file->flags, (int)(argument & O_STATUS_FLAGS), __ATOMIC_RELAXED);
		return 0;
	default:
		return -EINVAL;
	}
}

long sys_getdents64(uint64_t fd, uint64_t buffer, uint64_t count, uint64_t a3, uint64_t a4,
                    uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct file *file = process_file(process, fd);
	if (!file)
		return -EBADF;
	if (!file->ops->list)
		return -ENOTDIR;
	if (!user_range_in_bounds(buffer, count))
		return -EFAULT;
	if (count > FILE_CHUNK)
		count = FILE_CHUNK;
	if (!user_range_ok(&process->space, buffer, count, USER_WRITE))
		return -EFAULT;
	long result = fs_list(file, process->io_buffer, count);
	if (result > 0)
		copy_to_user(&process->space, buffer, process->io_buffer, (size_t)result);
	return result;
}
