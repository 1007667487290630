/* Programs: a process is one task running in U-mode in its own address space, with
 * open files, a parent and an exit status the parent collects with wait4.
 *
 * Locking: process_lock (process.c) guards the process list, parent/child links,
 * states and exit statuses. A process's address space and file table are touched
 * only by its own task (one task per process), so they need no lock. */
#ifndef DUPLEX_PROC_PROCESS_H
#define DUPLEX_PROC_PROCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fs/file.h"
#include "kernel/mm/address_space.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/task.h"
#include "kernel/signal/signal_state.h"
#include "kernel/trap/trap.h"
#include "kernel/waker/wait_queue.h"
#include "uapi/signal_action.h"

#define PROCESS_MAX_FILES 32
#define PROCESS_MAX_ARGS  64
#define PROCESS_ARGS_SIZE 16384 /* all argument and environment strings together */
/* The file mode creation mask: Duplex has no umask call, so every process has Linux's
 * default (init's 0022), applied by openat and mkdirat. */
#define PROCESS_UMASK 0022
/* The kernel's own process limit (zombies count): clone and spawn fail with EAGAIN
 * beyond it, as Linux's fork does at its threads-max. RLIMIT_NPROC applies too. */
#define PROCESS_MAX 256

enum process_state { PROCESS_RUNNING, PROCESS_ZOMBIE };

/* The signal count (_NSIG): one struct linux_sigaction (uapi/signal_action.h) each. */
#define LINUX_NSIG 64

/* struct rlimit (include/uapi/linux/resource.h) and RLIM_NLIMITS
 * (asm-generic/resource.h). */
struct linux_rlimit {
	uint64_t current;
	uint64_t maximum;
};
#define LINUX_RLIM_NLIMITS 16
#define RLIMIT_NPROC       6

struct process {
	int pid;
	/* Process group and session (POSIX): inherited by fork and spawn; the first
	 * program leads both. Written under process_lock (setpgid, setsid). */
	int process_group;
	int session;
	/* TIOCNOTTY by a process that does not lead its session: the console is no longer
	 * its controlling terminal though it is its session's (kernel/proc/terminal.c).
	 * Inherited; setsid clears it. Under process_lock. */
	bool left_terminal;
	/* Job control's reports for the parent's wait4 (WUNTRACED, WCONTINUED): the signal
	 * that stopped this process, not yet reported (0: none), and a continue not yet
	 * reported. Under process_lock. */
	int stop_to_report;
	bool continue_to_report;
	bool has_execed; /* setpgid on a child that exec'd is EACCES (Linux did_exec) */
	char name[16];
	struct process *parent; /* NULL for init and orphans */
	struct process *next;   /* the list of all processes */
	enum process_state state;
	int wait_status; /* Linux encoding: exit code << 8, or the signal number */
	struct task *task;
	int task_id; /* task's id: the task may be freed while the process is a zombie */
	struct address_space space;
	struct file *files[PROCESS_MAX_FILES];
	/* bit fd set = FD_CLOEXEC: execve closes it, fork copies it, spawn leaves it out */
	uint32_t close_on_exec;
	/* vfork (CLONE_VM|CLONE_VFORK): the parent whose address space this process runs on
	 * and who sleeps in clone until we exec or exit (process_vfork_release); NULL
	 * otherwise. Written under process_lock. */
	struct process *vfork_parent;
	struct wait_queue vfork_done;   /* where a vfork parent sleeps */
	struct wait_queue child_exited; /* our wait4 parks here */
	uint64_t entry;
	uint64_t stack_pointer;
	/* System calls without a handler already logged (kernel/syscall/unknown.c): one bit
	 * per number, and how many were. */
	uint64_t unknown_calls_reported[8];
	int unknown_call_reports;
	/* What a Linux C library registers at start-up, kept and reported back but never
	 * acted on: Duplex has one thread per process (kernel/syscall/sys_thread.c,
	 * sys_resource.c). */
	uint64_t clear_child_tid; /* set_tid_address */
	uint64_t robust_list;     /* set_robust_list */
	/* Signals (kernel/signal/): the actions rt_sigaction sets, the blocked set
	 * (written under signals.lock, kernel/signal/send.c), and the rest. */
	struct linux_sigaction signal_actions[LINUX_NSIG];
	uint64_t signal_mask;
	struct signal_state signals;
	struct linux_rlimit limits[LINUX_RLIM_NLIMITS]; /* valid where limits_set has the bit */
	uint32_t limits_set;
	/* The working directory, canonical ("" the root, "tmp/a"): where relative paths
	 * start (chdir, kernel/syscall/sys_cwd.c). A child starts in its parent's. */
	char cwd[FILE_PATH_MAX];
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
 * fds 0-2 when `parent` is NULL. Returns the pid, or program_load's errors
 * (kernel/proc/program.h), or -EAGAIN at the process limit. Task context. */
int process_spawn(struct process *parent, const char *path, char *const argv[], char *const envp[]);

/* What clone asks of process_fork (flags already checked by sys_clone). */
struct fork_request {
	bool share_memory;    /* vfork: CLONE_VM|CLONE_VFORK */
	uint64_t child_stack; /* non-zero: the child's sp */
	bool set_tls;         /* CLONE_SETTLS: the child's tp = tls */
	uint64_t tls;
	uint64_t set_child_tid_at;   /* CLONE_CHILD_SETTID: child memory that gets its pid */
	uint64_t clear_child_tid_at; /* CLONE_CHILD_CLEARTID: the child's clear_child_tid */
};

/* clone with fork semantics: a child that is a copy of the calling `parent`: its
 * registers are the parent's at the ecall (the frame at the top of its kernel stack,
 * s1..s11 included, see trap_entry.S) with a0 = 0; its memory, FPU state, descriptors,
 * close-on-exec mask, signal actions and mask and limits are copies. With
 * share_memory (vfork) the child runs on the parent's address space and the parent
 * sleeps here until the child execs or exits. Returns the child's pid, or -EAGAIN (a
 * process limit), -ENOMEM, with nothing left allocated. Task context, on the parent's
 * task; may sleep. */
int process_fork(struct process *parent, const struct fork_request *request);

/* execve: replace the calling process's program with `path` (kernel strings as for
 * process_spawn; they may be freed once this returns). Returns 0 with the new program
 * installed (the caller then frees what it holds and calls process_enter_new_program),
 * or -ENOENT, -ENOTDIR, -EACCES, -ENOEXEC, -E2BIG, -ENOMEM, -ELOOP with the caller
 * intact. Task context, on the process's own task. */
int process_execve(const char *path, char *const argv[], char *const envp[]);
/* Start the program process_execve installed, with all its registers as it set them
 * (not the system call return path, which keeps s1..s11). Never returns. */
void process_enter_new_program(void) __attribute__((noreturn));

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

/* Call visit(process, argument) for every process that is not a zombie, under
 * process_lock (so each stays valid meanwhile: visit may call signal_send, never
 * sleep). Returns how many it visited. Any context (kill, the console's ^C). */
int process_visit(void (*visit)(struct process *process, void *argument), void *argument);

/* End the calling process with a wait status (see above). Never returns. */
void process_exit(int wait_status) __attribute__((noreturn));

/* Kill the calling process for a fault taken in U-mode: one-line report, then
 * process_exit with the signal. Never returns. */
void process_fault(const struct trap_frame *frame) __attribute__((noreturn));
/* Kill the calling process because a store to a copy-on-write page found no free page
 * for its copy (trap_handle_user): SIGKILL, as Linux's out-of-memory killer sends, since
 * the program cannot go on and no handler could make memory appear. One-line report,
 * then process_exit. Never returns. */
void process_out_of_memory(const struct trap_frame *frame) __attribute__((noreturn));

/* A vfork child has its own address space now (it exec'd) or is leaving it (exit):
 * hand the borrowed one back to the parent and wake it. Nothing when not a vfork
 * child. Called by process_execve and process_exit on the child's task. */
void process_vfork_release(struct process *child, const struct address_space *borrowed);

/* wait4: reap a zombie child (`pid` > 0 that one, -1 any, 0 any in the caller's
 * process group, < -1 any in group -pid), or with WUNTRACED / WCONTINUED report one
 * that stopped / continued since the last report. Returns its pid with *wait_status
 * set, 0 with WNOHANG and none ready, -ECHILD, or -ERESTARTSYS when a signal
 * interrupts the wait. May sleep. */
int process_wait(struct process *parent, int pid, int *wait_status, int options);

/* For the kernel's init task: wait until the process with `pid` (which has no parent)
 * ends; returns its wait status. */
int process_wait_orphan(int pid);

/* setpgid(pid, pgid) with Linux's rules (kernel/sys.c): pid 0 is the caller, pgid 0
 * the target's pid; the target is the caller or one of its children (else -ESRCH), not
 * a child that exec'd (-EACCES), not a session leader or in another session (-EPERM);
 * the group must exist in the caller's session unless it is the target's own pid
 * (-EPERM); pgid < 0 is -EINVAL. Task context. */
int process_set_group(struct process *caller, int pid, int process_group);
/* getpgid / getsid: of the caller (pid 0) or any process; -ESRCH if none. */
int process_get_group(struct process *caller, int pid);
int process_get_session(struct process *caller, int pid);
/* setsid: a new session and group led by the caller; -EPERM for a group leader. */
int process_new_session(struct process *caller);

/* Job control, for the stop and continue default actions (kernel/signal/deliver.c), on
 * the process's own task: it has stopped with `signal` / has been continued by
 * SIGCONT. The parent's wait4 may report it (WUNTRACED / WCONTINUED), and the parent
 * gets SIGCHLD (CLD_STOPPED / CLD_CONTINUED) unless its SIGCHLD action has
 * SA_NOCLDSTOP (Linux do_notify_parent_cldstop). Never sleeps. */
void process_report_stopped(struct process *process, int signal);
void process_report_continued(struct process *process);

/* Whether `process`'s group is orphaned (see process_list.h): a stop by SIGTSTP,
 * SIGTTIN or SIGTTOU is then discarded, as Linux's get_signal does, since no shell
 * outside the group would continue it. Takes process_lock; never sleeps. */
bool process_group_orphaned(const struct process *process);

#define WNOHANG    1
#define WUNTRACED  2 /* report stopped children: status 0x7f | signal << 8 */
#define WCONTINUED 8 /* report continued children: status 0xffff */

#endif
