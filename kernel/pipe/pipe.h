/* Pipes: a one-way byte channel between a read end and a write end, each an open file
 * (pipe2). POSIX semantics, with Linux's fs/pipe.c as the model:
 *  - a PIPE_SIZE (64 KiB) buffer; a write of up to PIPE_BUF (4096) bytes goes in whole,
 *    never interleaved with another writer's bytes; larger ones may interleave;
 *  - read blocks while the pipe is empty and has a writer; returns 0 (end of file) once
 *    it is empty and the last write end is closed; write blocks while there is no room;
 *    both fail with -EAGAIN instead under O_NONBLOCK;
 *  - a write after the last read end closed fails with -EPIPE (pipe_write_without_readers
 *    is where SIGPIPE is to be sent);
 *  - FIONREAD says how many bytes are buffered; fstat says S_IFIFO; poll reports
 *    POLLIN / POLLOUT / POLLHUP (read end, no writers) / POLLERR (write end, no readers).
 * Any number of readers and writers on any harts: readers are serialised among
 * themselves and so are writers, and the buffer is a single-producer single-consumer
 * ring between the two, so a reader and a writer copy at the same time. */
#ifndef DUPLEX_PIPE_H
#define DUPLEX_PIPE_H

#include "kernel/fs/file.h"

#define PIPE_SIZE 65536 /* Linux's default pipe capacity (16 pages) */
#define PIPE_BUF  4096  /* POSIX: writes up to this size are atomic (Linux limits.h) */

/* A new pipe: *read_end (O_RDONLY) and *write_end (O_WRONLY), each with one reference,
 * with `flags` (O_NONBLOCK) in both. Returns 0 or -ENOMEM. Task context. */
int pipe_create(int flags, struct file **read_end, struct file **write_end);

#endif
