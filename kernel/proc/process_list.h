/* Inside kernel/proc: the list of all processes and its lock, shared by process.c (which
 * creates, reaps and waits for processes) and terminal.c (which reads their groups and
 * sessions for job control), and what process.c asks of terminal.c. Not for use outside
 * this folder. */
#ifndef DUPLEX_PROC_PROCESS_LIST_H
#define DUPLEX_PROC_PROCESS_LIST_H

#include <stdbool.h>

#include "kernel/proc/process.h"
#include "kernel/sync/spinlock.h"

/* Guards the list, parent/child links, groups, sessions, states and exit statuses, and
 * the terminal's session and foreground group (terminal.c). */
extern struct spinlock process_lock;
extern struct process *all_processes;

/* Whether group `group` is orphaned, `ignored` (an exiting process, or NULL) left out:
 * no member has a parent in another group of the same session, init's children not
 * counting (POSIX; Linux will_become_orphaned_pgrp). Caller holds process_lock. */
bool process_group_orphaned_locked(int group, const struct process *ignored);

/* Send `signal` to every live member of `group`; how many. Caller holds process_lock. */
int process_signal_group_locked(int group, int signal);

/* The first program (no parent) leads init's session: the console becomes that
 * session's controlling terminal, its group the foreground (the console is Duplex's only
 * terminal, and there is no getty to hand it over). Caller holds process_lock. */
void terminal_first_program_locked(struct process *process);

/* `process`, a session leader, is exiting: if its session has the console, the
 * foreground group gets SIGHUP and SIGCONT and the terminal controls no session any
 * more (Linux disassociate_ctty). Caller holds process_lock. */
void terminal_leader_exits_locked(struct process *process);

#endif
