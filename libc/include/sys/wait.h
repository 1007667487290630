/* Waiting for child processes: picolibc's <sys/wait.h> (WIFEXITED, WEXITSTATUS,
 * WIFSIGNALED, WTERMSIG, WNOHANG, wait, waitpid) plus wait4().
 *
 * The status word uses the usual encoding: a normal exit is (code & 0xff) << 8, a kill
 * is the signal number. libc translates the kernel's Linux signal numbers into
 * picolibc's <signal.h> numbers, so WTERMSIG(status) == SIGBUS works (Linux SIGBUS is
 * 7, picolibc's is 10). A raw SYS_wait4 shows the Linux numbers. */
#ifndef DUPLEX_SYS_WAIT_H
#define DUPLEX_SYS_WAIT_H

#include_next <sys/wait.h>

/* Resource usage (<sys/resource.h>); Duplex keeps none, so wait4() zeroes it. */
struct rusage;

/* Wait for child `pid` (-1 = any child) to exit. Stores its status in *status and
 * zeroes *usage, each if not NULL. options: 0 or WNOHANG (return 0 at once if no child
 * has exited). Returns the child's pid, 0 (WNOHANG, nothing yet) or -1 with errno
 * (ECHILD: no such child). */
pid_t wait4(pid_t pid, int *status, int options, struct rusage *usage);

#endif
