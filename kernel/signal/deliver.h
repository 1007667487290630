/* Signal delivery, for the layers above signals: the return to user mode (trap
 * dispatch and the system call exit), user faults, and the signal system calls'
 * helpers (kernel/syscall/sys_signal.c, sys_kill.c). signal.h has the sending side. */
#ifndef DUPLEX_SIGNAL_DELIVER_H
#define DUPLEX_SIGNAL_DELIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/proc/process.h"
#include "kernel/signal/signal.h"
#include "kernel/trap/trap.h"

/* The signals no mask or handler can touch: SIGKILL and SIGSTOP. */
#define SIGNAL_UNBLOCKABLE (SIGNAL_BIT(SIGKILL) | SIGNAL_BIT(SIGSTOP))

/* Every return to U-mode with signal work (task->signal_pending): after a system call
 * (`after_system_call`: the frame's a0 is its result, and a restart code there becomes
 * -EINTR or a restart, Linux's -ERESTARTSYS scheme) and after a trap from U-mode.
 * Performs a pending rt_sigreturn, then takes the first deliverable signal: ignores
 * it, stops, kills the process with the kill report, or runs its handler (the frame is
 * rewritten to enter it on the user stack). `frame` is complete (s1..s11 included).
 * Called with interrupts masked, returns with them masked. Task context; may sleep
 * (while stopped) and may not return (a kill). */
void signal_return_to_user(struct trap_frame *frame, bool after_system_call);

/* A fault in U-mode (trap_handle_user): raise its signal (SIGSEGV, SIGILL, SIGBUS,
 * SIGTRAP with si_addr = stval) for delivery on the way out if the program has a
 * handler for it that it does not block; otherwise kill it with the fault report, as
 * Linux's force_sig_fault does. Interrupts enabled; may not return. */
void signal_fault(const struct trap_frame *frame);

/* The calling task's U-mode trap frame (the top of its kernel stack). Task context. */
struct trap_frame *signal_user_frame(void);

/* Replace the calling process's blocked set (SIGKILL and SIGSTOP are taken out) and
 * recompute its signal work. Task context, on the process's own task. */
void signal_set_blocked(struct process *process, uint64_t blocked);

/* Take the lowest pending signal in `set` off the calling process's pending set and
 * copy its info; returns it, or 0. Task context, own task. */
int signal_dequeue(struct process *process, uint64_t set, struct signal_info *info);

/* signal_dequeue for the return to user mode: a default-stop signal it takes marks the
 * process stopped at once (`stop_now`), so no SIGCONT can slip between. */
int signal_dequeue_to_deliver(struct process *process, uint64_t set, struct signal_info *info,
                              bool stop_now);

/* Undo the stop signal_dequeue_to_deliver marked: the stop is discarded (a SIGTSTP,
 * SIGTTIN or SIGTTOU to an orphaned group). Task context, own task. */
void signal_cancel_stop(struct process *process);

/* The pending set (under the lock). Any context. */
uint64_t signal_pending_set(struct process *process);

/* Fill a user siginfo_t from a signal and its info. */
struct linux_siginfo;
void signal_fill_siginfo(struct linux_siginfo *siginfo, int signal, const struct signal_info *info);

/* rt_sigaction changed an action: a pending signal whose new action ignores it is
 * discarded (POSIX). Task context, own task. */
void signal_action_changed(struct process *process, int signal);

/* The default action of `signal` is to ignore it (SIGCHLD, SIGURG, SIGWINCH,
 * SIGCONT), or to stop the process (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU); every other
 * signal's is to terminate it. */
bool signal_default_ignores(int signal);
bool signal_default_stops(int signal);

/* The Linux name of a signal ("SIGSEGV"), or "signal" for the real-time ones. */
const char *signal_name(int signal);

#endif
