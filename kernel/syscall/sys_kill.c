/* kill, tkill, tgkill (Linux kernel/signal.c kill_something_info, do_tkill), for
 * Duplex's processes of one thread each (a thread id is the pid).
 *
 * Errors: a signal number outside 0..64 is -EINVAL; a target that does not exist (or
 * is a zombie) is -ESRCH; signal 0 checks existence only. Every program runs as root
 * (uid 0), so Linux's permission check always passes and -EPERM never arises.
 * Process groups: pid 0 is the caller's group, -pgid that group (-ESRCH when nobody is
 * in it), -1 every process but init (pid 1) and the caller. */
#include "kernel/lib/errno.h"
#include "kernel/proc/process.h"
#include "kernel/signal/signal.h"
#include "kernel/syscall/syscall.h"

struct kill_request {
	int pid;     /* > 0 one process; -1 all but init and the sender; else a group */
	int group;   /* pid 0 or < -1: the group */
	int signal;  /* 0: only count */
	bool thread; /* tkill/tgkill: si_code SI_TKILL */
	struct process *sender;
	int found;
};

/* process_visit callback (under process_lock). */
static void kill_one(struct process *process, void *argument)
{
	struct kill_request *request = argument;
	if (request->pid > 0 && process->pid != request->pid)
		return;
	if (request->pid == -1 && (process->pid == 1 || process == request->sender))
		return;
	if ((request->pid == 0 || request->pid < -1) && process->process_group != request->group)
		return;
	request->found++;
	if (request->signal) {
		struct signal_info info = {
		    .code = request->thread ? SI_TKILL : SI_USER,
		    .pid = request->sender->pid,
		};
		signal_send_info(process, request->signal, &info);
	}
}

static long kill_request(int pid, int signal, bool thread)
{
	if (signal < 0 || signal > SIGNAL_COUNT)
		return -EINVAL;
	struct process *sender = process_current();
	int group = pid == 0 ? sender->process_group : -pid;
	struct kill_request request = {pid, group, signal, thread, sender, 0};
	if (pid == INT32_MIN) /* Linux: -INT_MIN names no group */
		return -ESRCH;
	process_visit(kill_one, &request);
	return request.found ? 0 : -ESRCH;
}

long sys_kill(uint64_t pid, uint64_t signal, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	/* pid_t and int arguments: the low 32 bits, sign-extended. */
	return kill_request((int)pid, (int)signal, false);
}

long sys_tkill(uint64_t tid, uint64_t signal, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	if ((int)tid <= 0)
		return -EINVAL;
	return kill_request((int)tid, (int)signal, true);
}

long sys_tgkill(uint64_t tgid, uint64_t tid, uint64_t signal, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	if ((int)tgid <= 0 || (int)tid <= 0)
		return -EINVAL;
	/* One thread per process: the thread `tid` belongs to group `tgid` only if they
	 * are the same number. */
	if (tgid != tid) {
		if ((int)signal < 0 || (int)signal > SIGNAL_COUNT)
			return -EINVAL;
		return -ESRCH;
	}
	return kill_request((int)tid, (int)signal, true);
}
