/* The console as a controlling terminal: its session and foreground group, the ioctls
 * that set them, the background checks and ISIG's target; see terminal.h. Linux
 * drivers/tty/tty_jobctrl.c (tiocsctty, tiocspgrp, __tty_check_change,
 * disassociate_ctty) is the model, for one terminal. All state is under process_lock. */
#include "kernel/proc/terminal.h"

#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/proc/process_list.h"
#include "kernel/signal/signal.h"

/* The session the console controls (0: none) and its foreground group (0: none). */
static int terminal_owner_session;
static int terminal_foreground;

/* Whether the console is `process`'s controlling terminal. Caller holds process_lock. */
static bool controls(const struct process *process)
{
	return terminal_owner_session != 0 && process->session == terminal_owner_session &&
	       !process->left_terminal;
}

/* The terminal controls no session any more: every process of its old session has no
 * controlling terminal (Linux session_clear_tty). Caller holds process_lock. */
static void terminal_clear_locked(void)
{
	terminal_owner_session = 0;
	terminal_foreground = 0;
}

void terminal_first_program_locked(struct process *process)
{
	terminal_owner_session = process->session;
	terminal_foreground = process->process_group;
	process->left_terminal = false;
}

/* SIGHUP, then SIGCONT, to the foreground group, and the session loses the terminal.
 * Caller holds process_lock. */
static void hang_up_locked(void)
{
	if (terminal_foreground) {
		process_signal_group_locked(terminal_foreground, SIGHUP);
		process_signal_group_locked(terminal_foreground, SIGCONT);
	}
	terminal_clear_locked();
}

void terminal_leader_exits_locked(struct process *process)
{
	if (process->pid == process->session && controls(process))
		hang_up_locked();
}

int terminal_acquire(bool steal)
{
	struct process *caller = process_current();
	int result = 0;
	spin_lock(&process_lock);
	bool leader = caller->pid == caller->session;
	if (leader && terminal_owner_session == caller->session) {
		caller->left_terminal = false;
	} else if (!leader || controls(caller)) {
		result = -EPERM;
	} else if (terminal_owner_session && !steal) {
		result = -EPERM; /* another session's controlling terminal */
	} else {
		terminal_owner_session = caller->session;
		terminal_foreground = caller->process_group;
		caller->left_terminal = false;
	}
	spin_unlock(&process_lock);
	return result;
}

int terminal_release(void)
{
	struct process *caller = process_current();
	int result = 0;
	spin_lock(&process_lock);
	if (!controls(caller))
		result = -ENOTTY;
	else if (caller->pid == caller->session)
		hang_up_locked();
	else
		caller->left_terminal = true;
	spin_unlock(&process_lock);
	return result;
}

/* The foreground group (`session` false) or the session, for the caller. */
static int terminal_get(bool session)
{
	struct process *caller = process_current();
	spin_lock(&process_lock);
	int result = !controls(caller) ? -ENOTTY
	             : session         ? terminal_owner_session
	                               : terminal_foreground;
	spin_unlock(&process_lock);
	return result;
}

int terminal_foreground_group(void)
{
	return terminal_get(false);
}

int terminal_session(void)
{
	return terminal_get(true);
}

int terminal_set_foreground_group(int group)
{
	int result = terminal_check_access(SIGTTOU);
	if (result == -EIO)
		return -ENOTTY;
	if (result)
		return result;
	if (group < 0)
		return -EINVAL;
	struct process *caller = process_current();
	spin_lock(&process_lock);
	if (!controls(caller)) {
		result = -ENOTTY;
	} else {
		/* The session of the group, as Linux's session_of_pgrp: of a member, else of
		 * the process with that pid. Zombies not yet reaped count, as on Linux: a
		 * shell may hand the terminal to a job whose first process has just ended. */
		int session = 0;
		for (struct process *p = all_processes; p && !session; p = p->next)
			if (p->process_group == group)
				session = p->session;
		for (struct process *p = all_processes; p && !session; p = p->next)
			if (p->pid == group)
				session = p->session;
		if (!session || group == 0)
			result = -ESRCH;
		else if (session != caller->session)
			result = -EPERM;
		else
			terminal_foreground = group;
	}
	spin_unlock(&process_lock);
	return result;
}

int terminal_check_access(int signal)
{
	struct process *caller = process_current();
	/* The common case without the lock: every read and tcdrain passes here. A group or
	 * terminal changing meanwhile is a race the caller could lose with the lock too. */
	int foreground = __atomic_load_n(&terminal_foreground, __ATOMIC_RELAXED);
	if (!caller || !foreground ||
	    __atomic_load_n(&caller->process_group, __ATOMIC_RELAXED) == foreground)
		return 0;
	int result = 0;
	spin_lock(&process_lock);
	if (controls(caller) && terminal_foreground &&
	    caller->process_group != terminal_foreground) {
		if (signal_ignored_or_blocked(caller, signal)) {
			if (signal == SIGTTIN)
				result = -EIO;
		} else if (process_group_orphaned_locked(caller->process_group, 0)) {
			result = -EIO;
		} else {
			process_signal_group_locked(caller->process_group, signal);
			result = -ERESTARTSYS;
		}
	}
	spin_unlock(&process_lock);
	return result;
}

int terminal_signal_foreground(int signal)
{
	int sent = 0;
	spin_lock(&process_lock);
	if (terminal_owner_session && terminal_foreground)
		sent = process_signal_group_locked(terminal_foreground, signal);
	spin_unlock(&process_lock);
	return sent;
}
