/* Duplex additions to picolibc's <unistd.h>. picolibc already declares read, write,
 * close, dup, getpid, getppid, sbrk, sleep, usleep, isatty and _exit; libc/ implements
 * them. This adds what picolibc leaves out. */
#ifndef DUPLEX_UNISTD_H
#define DUPLEX_UNISTD_H

#include_next <unistd.h>

/* Set the program break (the end of the heap) to `end`: 0 on success, -1 with
 * errno = ENOMEM if the kernel refused. */
int brk(void *end);

/* Make system call `number` (SYS_* in <sys/syscall.h>) with up to six long arguments.
 * Returns the result, or -1 with errno set (picolibc's errno for the kernel's error). */
long syscall(long number, ...);

#if !__GNU_VISIBLE /* picolibc declares these only with _GNU_SOURCE; Linux has both */
/* A pipe with O_CLOEXEC / O_NONBLOCK (libc/pipe.c). */
int pipe2(int fds[2], int flags);
/* dup2 with O_CLOEXEC; old == new is EINVAL. */
int dup3(int old_fd, int new_fd, int flags);
#endif

/* The environment handed to main() (picolibc defines the variable, crt0 fills it). */
extern char **environ;

#endif
