/* The console as a controlling terminal: job control's half of the terminal (Linux
 * drivers/tty/tty_jobctrl.c). Duplex has one terminal, the console, so the terminal's
 * state is two numbers, the session it controls and its foreground process group, and
 * a process has it as its controlling terminal when it is in that session (and has not
 * given it up with TIOCNOTTY).
 *
 * This header stands apart from its folder: the console (drivers/console) calls these
 * from its read, write and ioctl paths and from its RX interrupt (ISIG), while the code
 * behind them (kernel/proc/terminal.c) sits above the console, with the processes whose
 * groups and sessions it reads. It declares, and includes nothing (the pattern of
 * kernel/signal/signal.h).
 *
 * Every call is about the calling process (task context; never sleeps: it takes the
 * process lock, a spinlock) except terminal_signal_foreground (any context). */
#ifndef DUPLEX_PROC_TERMINAL_H
#define DUPLEX_PROC_TERMINAL_H

#include <stdbool.h>

/* TIOCSCTTY: a session leader without a controlling terminal makes the console its
 * session's, with its own group in the foreground. 0 if it already is its session's
 * terminal; -EPERM for a process that is not a session leader, or has another terminal,
 * or when another session has the console and `steal` (arg 1: Linux needs
 * CAP_SYS_ADMIN, which every Duplex process has) is false. */
int terminal_acquire(bool steal);

/* TIOCNOTTY: give the console up. A session leader's whole session loses it, its
 * foreground group getting SIGHUP and SIGCONT (Linux disassociate_ctty(0)); another
 * process only itself. -ENOTTY if it is not the caller's controlling terminal. */
int terminal_release(void);

/* TIOCGPGRP / TIOCGSID: the foreground process group (0 if none is set) / the session
 * of the terminal, or -ENOTTY if it is not the caller's controlling terminal. */
int terminal_foreground_group(void);
int terminal_session(void);

/* TIOCSPGRP (tcsetpgrp): make `group` the foreground group. After the background check
 * (terminal_check_access with SIGTTOU: a -EIO there is -ENOTTY here, as Linux), -ENOTTY
 * if it is not the caller's controlling terminal, -EINVAL for a negative group,
 * -ESRCH when no process has that group (nor that pid), -EPERM for a group in another
 * session. */
int terminal_set_foreground_group(int group);

/* The background check before a read (SIGTTIN), a write under TOSTOP or a change of
 * the terminal (SIGTTOU): 0 when the caller may go on (the console is not its
 * controlling terminal, or it is in the foreground group, or for SIGTTOU it ignores or
 * blocks the signal); -EIO for a read that ignores or blocks SIGTTIN, and from an
 * orphaned group, which no shell would ever continue; else the signal goes to the
 * caller's whole group and -ERESTARTSYS comes back, so that the call runs again once
 * the group is continued (in the foreground). Linux __tty_check_change. */
int terminal_check_access(int signal);

/* ISIG: `signal` to every process of the foreground group (none when the terminal
 * controls no session or has no foreground group). Returns how many got it. Any
 * context, the RX interrupt included. */
int terminal_signal_foreground(int signal);

#endif
