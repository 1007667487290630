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

/* struct sigaction as riscv64 Linux passes it to rt_sigaction (asm-generic/signal.h;
 * riscv has no sa_restorer), and the signal count (_NSIG). */
struct linux_sigaction {
	uint64_t handler;
	uint64_t flags;
	uint64_t mask;
};
#define LINUX_NSIG 64

/* struct rlimit (include/uapi/linux/resource.h) and RLIM_NLIMITS
 * (asm-generic/resource.h). */
struct linux_rlimit {
	uint64_t current;
	uint64_t maximum;
};
#define LINUX_RLIM_NLIMITS 16

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
	uint32_t close_on_exec; /* bit fd set: FD_CLOEXEC (spawn leaves that fd out) */
	struct wait_queue child_exited; /* our wait4 parks here */
	uint64_t entry;
	uint64_t stack_pointer;
	/* System calls without a handler already logged (kernel/syscall/unknown.c): one bit
	 * per number, and how many were. */
	uint64_t unknown_calls_reported[8];
	int unknown_call_reports;
	/* What a Linux C library registers at start-up, kept and reported back but never
	 * acted on: Duplex has one thread per process and delivers no signals to
	 * handlers (kernel/syscall/sys_thread.c, sys_signal.c, sys_resource.c). */
	uint64_t clear_child_tid; /* set_tid_address */
	uint64_t robust_list;     /* set_robust_list */
	struct linux_sigaction signal_actions[LINUX_NSIG];
	uint64_t signal_mask;
	struct linux_rlimit limits[LINUX_RLIM_NLIMITS]; /* valid where limits_set has the bit */
	uint32_t limits_set;
	/* The bounce buffer of this process's read/write/readv/writev/getdents64 (one
	 * system call at a time: a process is one task), so that they never allocate. */
	/* Aligned: the user copies and the ring's memcpy move whole words only between
	 * aligned addresses; after `limits_set` the buffer sat at 4 mod 8 and every byte of a
	 * large write went one at a time (plain QEMU S10 1024 B: 464 instead of 694 MB/s). */
	uint8_t io_buffer[FILE_CHUNK] __attribute__((aligned(16)));
};

/* Start a program from the archive. `argv`/`envp` are kernel arrays (NULL-ended) of
 * kernel strings. The child gets copies of `parent`'s open files (but not those marked
 * close-on-exec: spawn is posix_spawn, a fork and an exec in one), or the console as
 * fds 0-2 when `parent` is NULL. Returns the pid, or -ENOENT, -ENOEXEC, -ENOMEM,
 * -E2BIG. Task context. */
int process_spawn(struct process *parent, const char *path, char *const argv[], char *const envp[]);

/* The process the calling task belongs to, or NULL for kernel tasks. Any context;
 * inline, as every file system call starts with it. */
static inline struct process *process_current(void)
{
	return sched_current()->owner;
}

/* The open file behind descriptor `fd` of `process`, or NULL (a bad descriptor). Task
 * context, on the process's own task (only it changes its table): no lock. */
static inline struct file *process_file(const struct process *process, uint64_t fd)
{
	return fd < PROCESS_MAX_FILES ? process->files[fd] : 0;
}

/* How many processes exist (zombies included). Task context. */
int process_count(void);

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
