/* Processes the POSIX way: clone (with fork and vfork semantics), clone3 (ENOSYS, so
 * that glibc falls back to clone), execve, and process groups and sessions (setpgid,
 * getpgid, setsid, getsid). The work is in kernel/proc (process_fork,
 * process_execve); here the Linux argument rules and errno values. */
#include "kernel/lib/errno.h"
#include "kernel/mm/page.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/syscall.h"
#include "uapi/sched.h"

/* What Duplex can do: a new process (never a thread: CLONE_THREAD, CLONE_SIGHAND,
 * CLONE_FILES, CLONE_FS, namespaces, pidfds are EINVAL, Linux's answer for a
 * combination it cannot do), sharing memory only as vfork does. */
#define CLONE_SUPPORTED                                                                            \
	(CSIGNAL | CLONE_VM | CLONE_VFORK | CLONE_SETTLS | CLONE_PARENT_SETTID |                   \
	 CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID)

/* clone(flags, new stack, parent tid pointer, child tid pointer, tls): riscv uses the
 * generic order (Linux kernel/fork.c, no CLONE_BACKWARDS*). glibc's fork() is
 * CLONE_CHILD_SETTID|CLONE_CHILD_CLEARTID|SIGCHLD with the child tid pointer; its and
 * busybox's vfork() CLONE_VM|CLONE_VFORK|SIGCHLD; posix_spawn adds a new stack. */
long sys_clone(uint64_t flags, uint64_t stack, uint64_t parent_tid, uint64_t child_tid,
               uint64_t tls, uint64_t a5)
{
	(void)a5;
	if (flags & ~CLONE_SUPPORTED)
		return -EINVAL;
	if ((flags & CSIGNAL) > LINUX_NSIG) /* Linux: a valid exit signal or none */
		return -EINVAL;
	bool share_memory = (flags & CLONE_VM) != 0;
	/* CLONE_VM without CLONE_VFORK is a thread's memory; CLONE_VFORK without CLONE_VM
	 * (Linux: a copy, the parent waiting) is not done here. */
	if (share_memory != ((flags & CLONE_VFORK) != 0))
		return -EINVAL;
	struct process *parent = process_current();
	struct fork_request request = {
	    .share_memory = share_memory,
	    .child_stack = stack,
	    .set_tls = (flags & CLONE_SETTLS) != 0,
	    .tls = tls,
	    .set_child_tid_at = (flags & CLONE_CHILD_SETTID) ? child_tid : 0,
	    .clear_child_tid_at = (flags & CLONE_CHILD_CLEARTID) ? child_tid : 0,
	};
	/* Exit signals other than SIGCHLD are accepted and not kept: SIGCHLD is the one
	 * notify_parent_of_exit (kernel/proc/process.c) is to send. */
	int pid = process_fork(parent, &request);
	/* Linux writes the parent's copy after the child exists, ignoring a bad address (for
	 * vfork only once the child let the parent go, which is harmless: same memory). */
	if (pid > 0 && (flags & CLONE_PARENT_SETTID))
		copy_to_user(&parent->space, parent_tid, &pid, sizeof pid);
	return pid;
}

long sys_clone3(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	/* Not implemented: glibc (posix_spawn, pthread_create) then uses clone. Answered
	 * here rather than left unknown, so it is not reported as a missing call. */
	return -ENOSYS;
}

#define EXECVE_PATH_MAX 256

struct execve_arguments {
	char path[EXECVE_PATH_MAX];
	char *argv[PROCESS_MAX_ARGS + 1];
	char *envp[PROCESS_MAX_ARGS + 1];
	char strings[PROCESS_ARGS_SIZE];
};

/* The copy takes whole pages from the page allocator, not the kernel heap: the heap
 * keeps every page it ever grew by, and a shell's pipeline has several processes in
 * execve at once on several harts, each copy 5 pages, which grew the heap by 5 pages
 * at a time (test_pipe's "200 pipelines of 3 lose no page" on 4 harts, once sh ran its
 * programs with fork and execve instead of spawn). */
#define EXECVE_COPY_PAGES ((sizeof(struct execve_arguments) + PAGE_SIZE - 1) / PAGE_SIZE)

/* execve(path, argv, envp): the strings are copied in (EFAULT, E2BIG, ENAMETOOLONG as
 * Linux), then process_execve builds the new program; on success the copy is freed and
 * the new program starts (this never returns to the old one). */
long sys_execve(uint64_t path, uint64_t argv, uint64_t envp, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a3, (void)a4, (void)a5;
	struct process *process = process_current();
	struct execve_arguments *copy = page_alloc_pages_unzeroed(EXECVE_COPY_PAGES);
	if (!copy)
		return -ENOMEM;
	size_t used = 0;
	long result = copy_string_from_user(&process->space, copy->path, path, EXECVE_PATH_MAX);
	if (result >= 0)
		result = copy_user_string_array(process, argv, copy->argv, copy->strings, &used);
	if (result >= 0)
		result = copy_user_string_array(process, envp, copy->envp, copy->strings, &used);
	if (result >= 0)
		result = process_execve(copy->path, copy->argv, copy->envp);
	page_free_pages(copy, EXECVE_COPY_PAGES);
	if (result == 0)
		process_enter_new_program();
	return result;
}

long sys_setpgid(uint64_t pid, uint64_t process_group, uint64_t a2, uint64_t a3, uint64_t a4,
                 uint64_t a5)
{
	(void)a2, (void)a3, (void)a4, (void)a5;
	return process_set_group(process_current(), (int)pid, (int)process_group);
}

long sys_getpgid(uint64_t pid, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	if ((int)pid < 0)
		return -ESRCH;
	return process_get_group(process_current(), (int)pid);
}

long sys_getsid(uint64_t pid, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	if ((int)pid < 0)
		return -ESRCH;
	return process_get_session(process_current(), (int)pid);
}

long sys_setsid(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	return process_new_session(process_current());
}
