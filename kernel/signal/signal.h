/* Sending signals: the one entry point other layers call (processes for SIGCHLD, the
 * console's line discipline for ^C, pipes for SIGPIPE, the fault path), and the signal
 * numbers and siginfo codes they use.
 *
 * This header stands apart from its folder: the code behind it (kernel/signal/) sits
 * above processes, because delivery reads a process's actions and kills it, while the
 * callers of signal_send sit at or below processes (kernel/proc's exit path, the
 * console). It declares, and includes nothing a lower layer could not include, so the
 * layer table stays acyclic (the pattern of kernel/fpu/fpu.h).
 *
 * Numbers and codes: Linux include/uapi/asm-generic/signal.h and
 * include/uapi/asm-generic/siginfo.h. */
#ifndef DUPLEX_SIGNAL_SIGNAL_H
#define DUPLEX_SIGNAL_SIGNAL_H

#include <stdbool.h>
#include <stdint.h>

#define SIGHUP       1
#define SIGINT       2
#define SIGQUIT      3
#define SIGILL       4
#define SIGTRAP      5
#define SIGABRT      6
#define SIGBUS       7
#define SIGFPE       8
#define SIGKILL      9
#define SIGUSR1      10
#define SIGSEGV      11
#define SIGUSR2      12
#define SIGPIPE      13
#define SIGALRM      14
#define SIGTERM      15
#define SIGSTKFLT    16
#define SIGCHLD      17
#define SIGCONT      18
#define SIGSTOP      19
#define SIGTSTP      20
#define SIGTTIN      21
#define SIGTTOU      22
#define SIGURG       23
#define SIGXCPU      24
#define SIGXFSZ      25
#define SIGVTALRM    26
#define SIGPROF      27
#define SIGWINCH     28
#define SIGIO        29
#define SIGPWR       30
#define SIGSYS       31
#define SIGNAL_COUNT 64 /* _NSIG: 1..64, the real-time ones from 32 */

/* The bit of `signal` in a 64-bit sigset_t. */
#define SIGNAL_BIT(signal) (1ull << ((signal)-1))

/* si_code values. */
#define SI_USER       0    /* kill */
#define SI_KERNEL     0x80 /* sent by the kernel itself */
#define SI_TKILL      (-6) /* tkill, tgkill */
#define CLD_EXITED    1    /* SIGCHLD: the child called exit */
#define CLD_KILLED    2    /* SIGCHLD: a signal ended it */
#define CLD_STOPPED   5    /* SIGCHLD: a signal stopped it */
#define CLD_CONTINUED 6    /* SIGCHLD: SIGCONT continued it */
#define SEGV_MAPERR   1    /* SIGSEGV: no mapping at the address */
#define SEGV_ACCERR   2    /* SIGSEGV: the mapping forbids the access */
#define ILL_ILLOPC    1    /* SIGILL: illegal opcode */
#define BUS_ADRALN    1    /* SIGBUS: misaligned address */
#define TRAP_BRKPT    1    /* SIGTRAP: breakpoint (ebreak) */

/* What the kernel remembers about a pending signal: the fields of siginfo_t that
 * Duplex fills (the rest are 0). Which fields mean something depends on `code`. */
struct signal_info {
	int code;
	int pid;          /* sender (kill, tkill) or child (SIGCHLD) */
	uint32_t uid;     /* the sender's or child's user: always 0 (root) on Duplex */
	int status;       /* SIGCHLD: exit code or signal */
	uint64_t address; /* faults: the address (stval) */
};

struct process;

/* Make `signal` (1..64) pending for `process` with `info` (signal_send: SI_KERNEL),
 * and wake it if it does not block the signal. A signal the process ignores (SIG_IGN,
 * or SIG_DFL for one whose default is to ignore) and does not block is dropped, as on
 * Linux; a standard signal already pending keeps its first info. SIGCONT resumes a
 * stopped process; SIGKILL wakes any wait. Init (pid 1) gets only the signals it has a
 * handler for (Linux's SIGNAL_UNKILLABLE): a default action there is dropped, so that a
 * ^C or a kill cannot end the system. Returns 0, or -EINVAL for a bad number.
 * The caller keeps `process` from being freed meanwhile (holds process_lock, as
 * process_visit and process_exit do, or is that process); a zombie is skipped. Any
 * context (it takes the target's signal lock, a spinlock), any hart; never sleeps. */
int signal_send(struct process *process, int signal);
int signal_send_info(struct process *process, int signal, const struct signal_info *info);

/* Send `signal` (SI_KERNEL) to the calling process: what a system call raises against its
 * caller, such as SIGPIPE from a write to a pipe without readers (Linux pipe_write).
 * Task context of a process; never sleeps. Returns signal_send's result. */
int signal_send_current(int signal);

/* Send `signal` (SI_KERNEL) to every process of the console's foreground process group
 * (kernel/proc/terminal.c: the group TIOCSPGRP named, at boot the first program's; none
 * when the console controls no session): the line discipline's ISIG (^C SIGINT, ^\
 * SIGQUIT, ^Z SIGTSTP). Returns how many were sent to. Any context, interrupts included
 * (it takes process_lock and each target's signal lock, spinlocks); never sleeps. */
int signal_send_foreground(int signal);

/* Whether `process` blocks `signal` or has it at SIG_IGN: the terminal's background
 * checks then do not send SIGTTIN / SIGTTOU (Linux is_ignored in tty_jobctrl.c). Read by
 * the process's own task, or under process_lock; never sleeps. */
bool signal_ignored_or_blocked(const struct process *process, int signal);

/* Whether `parent` wants SIGCHLD when a child stops or continues: its SIGCHLD action
 * lacks SA_NOCLDSTOP. Under process_lock (which keeps `parent`); never sleeps. */
bool signal_stop_notices_wanted(const struct process *parent);

/* For process creation by fork (kernel/proc): the child gets `parent`'s actions, blocked
 * set and alternate stack, and no pending signals (POSIX fork). Task context, on the
 * parent's task, before the child runs. */
void signal_fork(struct process *child, const struct process *parent);

/* For execve (kernel/proc), on the process's own task once the new image is in place:
 * handled signals go back to SIG_DFL (their handlers are gone with the old image),
 * ignored ones stay ignored, the mask and pending set stay, the alternate stack and any
 * sigsuspend/sigreturn bookkeeping go (POSIX execve; Linux flush_signal_handlers). */
void signal_exec(struct process *process);

#endif
