/* Pipes; see pipe.h.
 *
 * The buffer is a ring of PIPE_SIZE bytes indexed by two free-running counters: `head`
 * (bytes ever written) is stored only by the writer holding `write_lock`, `tail` (bytes
 * ever read) only by the reader holding `read_lock`. Each publishes its counter with a
 * release store after copying and reads the other's with an acquire load, so a reader
 * and a writer copy at the same time without a lock between them. Sleepers wait on
 * `readable` / `writable` (the wait-queue protocol: the condition is re-checked after
 * the waiter is linked in, and every change is followed by a wake, so none is lost). */
#include "kernel/pipe/pipe.h"

#include <stdbool.h>
#include <stdint.h>

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/address_space.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page.h"
#include "kernel/signal/signal.h"
#include "kernel/sync/mutex.h"
#include "kernel/waker/poll_table.h"
#include "kernel/waker/wait_queue.h"
#include "uapi/termios.h"

/* st_dev of every pipe: Linux's pipefs is an anonymous device too (its number varies;
 * 0:12 on a typical system). */
#define PIPE_DEVICE 12

struct pipe {
	uint8_t *buffer; /* PIPE_SIZE bytes, whole pages */
	uint32_t head;   /* bytes ever written: stored by the writer holding write_lock */
	uint32_t tail;   /* bytes ever read: stored by the reader holding read_lock */
	int readers;     /* open read-end files; 0: writes fail with EPIPE */
	int writers;     /* open write-end files; 0: an empty pipe reads as end of file */
	int ends;        /* open files of either end; the last one frees the pipe */
	uint64_t inode;
	struct mutex read_lock;     /* one reader at a time */
	struct mutex write_lock;    /* one writer at a time: PIPE_BUF writes stay whole */
	struct wait_queue readable; /* readers and read-end pollers: data came, a writer left */
	struct wait_queue writable; /* writers and write-end pollers: room, a reader left */
};

static uint64_t next_inode = 1;

static uint32_t bytes_buffered(const struct pipe *pipe)
{
	return __atomic_load_n(&pipe->head, __ATOMIC_ACQUIRE) -
	       __atomic_load_n(&pipe->tail, __ATOMIC_ACQUIRE);
}

static int count_of(const int *counter)
{
	return __atomic_load_n(counter, __ATOMIC_ACQUIRE);
}

/* No reader is left: as Linux's pipe_write, SIGPIPE to the writer (whose default action
 * ends it) and -EPIPE (what a writer that ignores or catches SIGPIPE sees). Called by
 * write_from, task context. */
static long pipe_write_without_readers(void)
{
	signal_send_current(SIGPIPE);
	return -EPIPE;
}

struct room_wanted {
	struct pipe *pipe;
	uint32_t bytes;
};

/* wait_queue condition of a writer: `bytes` of room, or no reader left. */
static bool room_or_no_readers(void *argument)
{
	struct room_wanted *wanted = argument;
	return count_of(&wanted->pipe->readers) == 0 ||
	       PIPE_SIZE - bytes_buffered(wanted->pipe) >= wanted->bytes;
}

/* wait_queue condition of a reader: data, or no writer left. */
static bool data_or_no_writers(void *argument)
{
	struct pipe *pipe = argument;
	return count_of(&pipe->writers) == 0 || bytes_buffered(pipe) != 0;
}

/* Where a read or write's bytes are: kernel memory (the syscall layer's chunks), or a
 * user range (read_user/write_user: one copy, no bounce buffer). */
struct pipe_io {
	uint8_t *kernel;
	struct address_space *space;
	uint64_t user;
};

/* Copy `length` bytes from `io` at `offset` into the ring at `head` (there is room).
 * 0, or -EFAULT from a user range. */
static int ring_put(struct pipe *pipe, uint32_t head, const struct pipe_io *io, size_t offset,
                    uint32_t length)
{
	uint32_t at = head % PIPE_SIZE, first = PIPE_SIZE - at;
	if (first > length)
		first = length;
	if (io->kernel) {
		memcpy(pipe->buffer + at, io->kernel + offset, first);
		memcpy(pipe->buffer, io->kernel + offset + first, length - first);
		return 0;
	}
	if (copy_from_user(io->space, pipe->buffer + at, io->user + offset, first) != 0 ||
	    copy_from_user(io->space, pipe->buffer, io->user + offset + first, length - first) != 0)
		return -EFAULT;
	return 0;
}

/* Copy `length` buffered bytes from `tail` out to `io`. 0, or -EFAULT. */
static int ring_get(const struct pipe *pipe, uint32_t tail, const struct pipe_io *io,
                    uint32_t length)
{
	uint32_t at = tail % PIPE_SIZE, first = PIPE_SIZE - at;
	if (first > length)
		first = length;
	if (io->kernel) {
		memcpy(io->kernel, pipe->buffer + at, first);
		memcpy(io->kernel + first, pipe->buffer, length - first);
		return 0;
	}
	if (copy_to_user(io->space, io->user, pipe->buffer + at, first) != 0 ||
	    copy_to_user(io->space, io->user + first, pipe->buffer, length - first) != 0)
		return -EFAULT;
	return 0;
}

/* write on the write end, from `io`. A write of up to PIPE_BUF bytes waits for room for all of it
 * and goes in at once; a longer one goes in as room appears. Task context; may sleep
 * unless O_NONBLOCK (then -EAGAIN while nothing could be written, also while another
 * writer holds the pipe). Returns the bytes written, or -EAGAIN / -EPIPE. */
static long write_from(struct file *file, const struct pipe_io *io, size_t length)
{
	struct pipe *pipe = file->private_data;
	bool nonblocking = file->flags & O_NONBLOCK;
	if (nonblocking) {
		if (!mutex_trylock(&pipe->write_lock))
			return -EAGAIN;
	} else {
		mutex_lock(&pipe->write_lock);
	}
	size_t written = 0;
	long result = 0;
	while (written < length) {
		if (count_of(&pipe->readers) == 0) {
			result = pipe_write_without_readers();
			break;
		}
		uint32_t head = pipe->head; /* ours: we are the only writer */
		uint32_t room = PIPE_SIZE - (head - __atomic_load_n(&pipe->tail, __ATOMIC_ACQUIRE));
		size_t left = length - written;
		uint32_t needed = length <= PIPE_BUF ? (uint32_t)left : 1;
		if (room < needed) {
			if (nonblocking) {
				result = -EAGAIN;
				break;
			}
			struct room_wanted wanted = {pipe, needed};
			if (wait_queue_wait_interruptible(&pipe->writable, room_or_no_readers,
			                                  &wanted)) {
				result = -ERESTARTSYS; /* Linux: what was written counts */
				break;
			}
			continue;
		}
		uint32_t take = left < room ? (uint32_t)left : room;
		if (ring_put(pipe, head, io, written, take) != 0) {
			result = -EFAULT;
			break;
		}
		__atomic_store_n(&pipe->head, head + take, __ATOMIC_RELEASE);
		written += take;
		wait_queue_wake_all(&pipe->readable);
	}
	mutex_unlock(&pipe->write_lock);
	return written ? (long)written : result;
}

/* read on the read end, into `io`: what is buffered, up to `length`. Task context; may sleep
 * while the pipe is empty and has a writer, unless O_NONBLOCK (then -EAGAIN). 0 at the
 * end: empty, and every write end closed. */
static long read_into(struct file *file, const struct pipe_io *io, size_t length)
{
	struct pipe *pipe = file->private_data;
	bool nonblocking = file->flags & O_NONBLOCK;
	if (length == 0)
		return 0;
	if (nonblocking) {
		if (!mutex_trylock(&pipe->read_lock))
			return -EAGAIN;
	} else {
		mutex_lock(&pipe->read_lock);
	}
	long result;
	for (;;) {
		/* Writers before head: a writer that wrote and then closed is seen with its
		 * bytes, never as an end of file in front of them. */
		int writers = count_of(&pipe->writers);
		uint32_t tail = pipe->tail; /* ours: we are the only reader */
		uint32_t buffered = __atomic_load_n(&pipe->head, __ATOMIC_ACQUIRE) - tail;
		if (buffered) {
			uint32_t take = length < buffered ? (uint32_t)length : buffered;
			if (ring_get(pipe, tail, io, take) != 0) {
				result = -EFAULT; /* nothing taken: the bytes stay buffered */
				break;
			}
			__atomic_store_n(&pipe->tail, tail + take, __ATOMIC_RELEASE);
			wait_queue_wake_all(&pipe->writable);
			result = take;
			break;
		}
		if (writers == 0) {
			result = 0;
			break;
		}
		if (nonblocking) {
			result = -EAGAIN;
			break;
		}
		if (wait_queue_wait_interruptible(&pipe->readable, data_or_no_writers, pipe)) {
			result = -ERESTARTSYS;
			break;
		}
	}
	mutex_unlock(&pipe->read_lock);
	return result;
}

static long pipe_write(struct file *file, const void *data, size_t length)
{
	struct pipe_io io = {(uint8_t *)data, 0, 0};
	return write_from(file, &io, length);
}

/* write(2) straight from user memory (the range checked by the caller): the whole
 * length in one call, one copy. Same rules as pipe_write. */
static long pipe_write_user(struct file *file, struct address_space *space, uint64_t address,
                            size_t length)
{
	struct pipe_io io = {0, space, address};
	return write_from(file, &io, length);
}

static long pipe_read(struct file *file, void *buffer, size_t length)
{
	struct pipe_io io = {buffer, 0, 0};
	return read_into(file, &io, length);
}

/* read(2) straight into user memory: up to the whole buffer (64 KiB) in one call. */
static long pipe_read_user(struct file *file, struct address_space *space, uint64_t address,
                           size_t length)
{
	struct pipe_io io = {0, space, address};
	return read_into(file, &io, length);
}

/* FIONREAD: bytes buffered. FIONBIO is the syscall layer's; everything else is not a
 * pipe request (-ENOTTY, as for tcgetattr on a pipe). Task context. */
static long pipe_ioctl(struct file *file, unsigned long request, void *argument, uint64_t value)
{
	(void)value;
	if (request != FIONREAD)
		return -ENOTTY;
	*(int *)argument = (int)bytes_buffered(file->private_data);
	return 0;
}

/* fstat: a FIFO, prw------- as Linux's pipefs shows it, size 0. Any context. */
static void pipe_status(const struct file *file, struct file_status *status)
{
	const struct pipe *pipe = file->private_data;
	*status = (struct file_status){.mode = FILE_MODE_FIFO | 0600,
	                               .device = PIPE_DEVICE,
	                               .inode = pipe->inode,
	                               .block_size = PIPE_BUF};
}

/* poll on the read end: POLLIN with data, POLLHUP once no writer is left (Linux's
 * pipe_poll). Never sleeps. */
static unsigned pipe_poll_read(struct file *file, struct poll_table *table)
{
	struct pipe *pipe = file->private_data;
	poll_table_wait(table, &pipe->readable);
	unsigned events = 0;
	if (count_of(&pipe->writers) == 0)
		events |= POLLHUP;
	if (bytes_buffered(pipe))
		events |= POLLIN | POLLRDNORM;
	return events;
}

/* poll on the write end: POLLOUT while a PIPE_BUF write would not block, POLLERR once
 * no reader is left. Never sleeps. */
static unsigned pipe_poll_write(struct file *file, struct poll_table *table)
{
	struct pipe *pipe = file->private_data;
	poll_table_wait(table, &pipe->writable);
	if (count_of(&pipe->readers) == 0)
		return POLLERR;
	return PIPE_SIZE - bytes_buffered(pipe) >= PIPE_BUF ? POLLOUT | POLLWRNORM : 0;
}

static void pipe_put(struct pipe *pipe)
{
	if (__atomic_sub_fetch(&pipe->ends, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	page_free_pages(pipe->buffer, PIPE_SIZE / PAGE_SIZE);
	kfree(pipe);
}

/* The last reference to the read end went: blocked writers wake to EPIPE. Task
 * context (file_put). */
static void pipe_release_read(struct file *file)
{
	struct pipe *pipe = file->private_data;
	__atomic_sub_fetch(&pipe->readers, 1, __ATOMIC_RELEASE);
	wait_queue_wake_all(&pipe->writable);
	pipe_put(pipe);
}

/* The last reference to the write end went: blocked readers wake to end of file. */
static void pipe_release_write(struct file *file)
{
	struct pipe *pipe = file->private_data;
	__atomic_sub_fetch(&pipe->writers, 1, __ATOMIC_RELEASE);
	wait_queue_wake_all(&pipe->readable);
	pipe_put(pipe);
}

static const struct file_ops pipe_read_ops = {
    .read = pipe_read,
    .read_user = pipe_read_user,
    .ioctl = pipe_ioctl,
    .release = pipe_release_read,
    .status = pipe_status,
    .poll = pipe_poll_read,
};

static const struct file_ops pipe_write_ops = {
    .write = pipe_write,
    .write_user = pipe_write_user,
    .ioctl = pipe_ioctl,
    .release = pipe_release_write,
    .status = pipe_status,
    .poll = pipe_poll_write,
};

int pipe_create(int flags, struct file **read_end, struct file **write_end)
{
	struct pipe *pipe = kzalloc(sizeof *pipe);
	if (!pipe)
		return -ENOMEM;
	pipe->buffer = page_alloc_pages(PIPE_SIZE / PAGE_SIZE);
	struct file *reading = file_create(&pipe_read_ops, O_RDONLY | (flags & O_NONBLOCK));
	struct file *writing = file_create(&pipe_write_ops, O_WRONLY | (flags & O_NONBLOCK));
	if (!pipe->buffer || !reading || !writing) {
		if (pipe->buffer)
			page_free_pages(pipe->buffer, PIPE_SIZE / PAGE_SIZE);
		kfree(reading); /* not yet pipe ends: no release to run */
		kfree(writing);
		kfree(pipe);
		return -ENOMEM;
	}
	pipe->readers = pipe->writers = 1;
	pipe->ends = 2;
	pipe->inode = __atomic_fetch_add(&next_inode, 1, __ATOMIC_RELAXED);
	pipe->read_lock = (struct mutex)MUTEX_INIT("pipe reader");
	pipe->write_lock = (struct mutex)MUTEX_INIT("pipe writer");
	wait_queue_init(&pipe->readable, "pipe readable");
	wait_queue_init(&pipe->writable, "pipe writable");
	reading->private_data = writing->private_data = pipe;
	*read_end = reading;
	*write_end = writing;
	return 0;
}
