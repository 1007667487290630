/* The task dump: every task's state, hart and what it waits for, on the kernel log, as
 * Linux's Magic SysRq `t` (show_state) and `w` (show blocked tasks) print it. For a
 * guest that has gone idle and silent: the console core (drivers/console/sysrq.c)
 * calls these when a BREAK and a key arrive on the serial line.
 *
 * This header stands apart from its folder: the console calls it from its RX path (an
 * interrupt with the async backend) while the code behind it (kernel/proc/task_dump.c)
 * sits above the console, with the processes whose pids and signals it prints (the
 * pattern of kernel/proc/terminal.h). It declares, and includes nothing.
 *
 * Any context (interrupt handlers included); never sleeps: it takes the process lock
 * and the task list's lock (spinlocks) and prints through log_printf, which never
 * waits for the wire. Lines start with "sysrq:" and end with a "sysrq: end" line. */
#ifndef DUPLEX_PROC_TASK_DUMP_H
#define DUPLEX_PROC_TASK_DUMP_H

/* `t`: every task, then every hart's running task. */
void task_dump_all(void);
/* `w`: only the tasks that are blocked (parked), and the harts. */
void task_dump_blocked(void);

#endif
