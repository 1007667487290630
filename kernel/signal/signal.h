/* Sending signals: the one entry point other layers call (processes for SIGCHLD, the
 * console's line discipline for ^C, pipes for SIGPIPE, the fault path), and what the
 * kernel keeps of a pending signal's siginfo.
 *
 * This header stands apart from its folder: the code behind it (kernel/signal/) sits
 * above processes, because delivery reads a process's actions and kills it, while the
 * callers of signal_send sit at or below processes (kernel/proc's exit path, the
 * console). It declares, and includes nothing a lower layer could not include, so the
 * layer table stays acyclic (the pattern of kernel/fpu/fpu.h).
 *
 * The signal numbers and siginfo codes the callers pass are the user ABI, included from
 * uapi/signal.h. */
#ifndef DUPLEX_SIGNAL_SIGNAL_H
#define DUPLEX_SIGNAL_SIGNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "uapi/signal.h"

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
