/* Programs: a process is one task running in U-mode in its own address space, with
 * open files, a parent and an exit status the parent collects with wait4.
 *
 * Locking: process_lock (process.c) guards the process list, parent/child links,
 * states and exit statuses. A process's address space and file table are touched
 * only by its own task (one task per process), so they need no lock. */
#ifndef DUPLEX_PROC_PROCESS_H
#define DUPLEX_PROC_PROCESS_H

#include <stdint.h>

#include "kernel/fs/file.h"
#include "kernel/mm/address_space.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/trap/trap.h"
#include "kernel/waker/wait_queue.h"

#define PROCESS_MAX_FILES 32
#define PROCESS_MAX_ARGS  64
#define PROCESS_ARGS_SIZE 16384 /* all argument and environment strings together */

enum process_state { PROCESS_RUNNING, PROCESS_ZOMBIE };

/* Signal numbers used in wait statuses (Linux asm-generic/signal.h). */
#define SIGILL  4
#define SIGTRAP 5
#define SIGBUS  7
#define SIGKILL 9
#define SIGSEGV 11

struct process {
	int pid;
	char name[16];
	struct process *parent; /* NULL for init and orphans */
	struct process *next;   /* the list of all processes */
	enum process_state state;
	int wait_status; /* Linux encoding: exit code << 8, or the signal number */
	struct task *task;
	struct address_space space;
	struct file *files[PROCESS_MAX_FILES];
	struct wait_queue child_exited; /* our wait4 parks here */
	uint64_t entry;
	uint64_t stack_pointer;
	/* The bounce buffer of this process's read/write/readv/writev/getdents64 (one
	 * system call at a time: a process is one task), so that they never allocate. */
	uint8_t io_buffer[FILE_CHUNK];
};

/* Start a program from the archive. `argv`/`envp` are kernel arrays (NULL-ended) of
 * kernel strings. The child gets copies of `parent`'s open files, or the console as
 * fds 0-2 when `parent` is NULL. Returns the pid, or -ENOENT, -ENOEXEC, -ENOMEM,
 * -E2BIG. Task context. */
int process_spawn(struct process *parent, const char *path, char *const argv[], char *const envp[]);

/* The process the calling task belongs to, or NULL for kernel tasks. Any context;
 * inline, as every file system call starts with it. */
static inline struct process *process_current(void)
{
	return sched_current()->owner;
}

/* The pid of `process`'s parent, or 0 once it has none (init, orphans). Safe while the
 * parent exits concurrently. Task context. */
int process_parent_pid(struct process *process);

/* End the calling process with a wait status (see above). Never returns. */
void process_exit(int wait_status) __attribute__((noreturn));

/* Kill the calling process for a fault taken in U-mode: one-line report, then
 * process_exit with the signal. Never returns. */
void process_fault(const struct trap_frame *frame) __attribute__((noreturn));

/* wait4: reap a zombie child (`pid` or any with -1). Returns its pid with
 * *wait_status set, 0 with WNOHANG and none ready, or -ECHILD. May sleep. */
int process_wait(struct process *parent, int pid, int *wait_status, int options);

/* For the kernel's init task: wait until the process with `pid` (which has no parent)
 * ends; returns its wait status. */
int process_wait_orphan(int pid);

#define WNOHANG    1
#define WUNTRACED  2 /* accepted: no child ever stops */
#define WCONTINUED 8 /* accepted: nor continues */

#endif
