/* Processes: spawn, fork, exit, wait, fault kills; see process.h (execve: exec.c). */
#include "kernel/proc/process.h"

#include "kernel/fpu/fpu.h"
#include "kernel/hart/csr.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page.h"
#include "kernel/mm/page_pool.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/process_list.h"
#include "kernel/proc/program.h"
#include "kernel/sched/sched.h"
#include "kernel/signal/signal.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"

struct spinlock process_lock = SPINLOCK_INIT("process");
struct process *all_processes;
static int next_pid = 1;
/* The kernel's init task waits here for the first program (which has no parent). */
static struct wait_queue orphan_exited = {SPINLOCK_INIT("orphan exited"), 0};

/* trap_entry.S: load the frame's registers and sret to U-mode. */
void user_return(struct trap_frame *frame) __attribute__((noreturn));

int process_count(void)
{
	int count = 0;
	spin_lock(&process_lock);
	for (struct process *p = all_processes; p; p = p->next)
		count++;
	spin_unlock(&process_lock);
	return count;
}

int process_parent_pid(struct process *process)
{
	/* Under process_lock: the parent can exit and be freed at any moment otherwise, and
	 * reading its pid from freed memory returned garbage (user/exitrace.c saw it). */
	spin_lock(&process_lock);
	struct process *parent = process->parent;
	int pid = parent ? parent->pid : 0;
	spin_unlock(&process_lock);
	return pid;
}

/* Entry of a program's task: build the first trap frame at the top of the kernel
 * stack and drop to U-mode at the ELF entry point. */
static void process_first_run(void *argument)
{
	struct process *process = argument;
	struct task *task = sched_current();
	struct trap_frame *frame =
	    (struct trap_frame *)((uint8_t *)task->stack + task->stack_size) - 1;

	memset(frame, 0, sizeof *frame);
	frame->regs[0] = process->entry;
	frame->regs[2] = process->stack_pointer;
	frame->sstatus = SSTATUS_SPIE; /* SPP = 0: U-mode; interrupts on there */
	interrupts_disable();
	user_return(frame);
}

/* Give `process` a pid and put it on the list as a child of `parent`, unless the
 * process limit is reached: the kernel's PROCESS_MAX, or the parent's RLIMIT_NPROC
 * (counted over all processes: everyone is the one user, root; Linux lets root past
 * RLIMIT_NPROC, Duplex enforces it so that a program can test its limit). Returns the
 * pid or -EAGAIN. Task context. */
static int process_insert(struct process *process, struct process *parent)
{
	uint64_t limit = PROCESS_MAX;
	if (parent && (parent->limits_set & (1u << RLIMIT_NPROC)) &&
	    parent->limits[RLIMIT_NPROC].current < limit)
		limit = parent->limits[RLIMIT_NPROC].current;
	spin_lock(&process_lock);
	uint64_t count = 0;
	for (struct process *p = all_processes; p; p = p->next)
		count++;
	if (count >= limit) {
		spin_unlock(&process_lock);
		return -EAGAIN;
	}
	process->pid = next_pid++;
	process->process_group = parent ? parent->process_group : process->pid;
	process->session = parent ? parent->session : process->pid;
	process->left_terminal = parent && parent->left_terminal;
	if (!parent)
		terminal_first_program_locked(process);
	process->parent = parent;
	process->state = PROCESS_RUNNING;
	process->next = all_processes;
	all_processes = process;
	int pid = process->pid;
	spin_unlock(&process_lock);
	return pid;
}

/* A new, zeroed struct process with its wait queues ready, or NULL. */
static struct process *process_allocate(void)
{
	struct process *process = kzalloc(sizeof *process);
	if (process) {
		wait_queue_init(&process->child_exited, "child exited");
		wait_queue_init(&process->vfork_done, "vfork done");
		signal_state_init(&process->signals);
	}
	return process;
}

/* Drop every descriptor of `process` (failure paths and exit). */
static void close_all_files(struct process *process)
{
	for (int fd = 0; fd < PROCESS_MAX_FILES; fd++) {
		if (process->files[fd])
			file_put(process->files[fd]);
		process->files[fd] = 0;
	}
	process->close_on_exec = 0;
}

int process_spawn(struct process *parent, const char *path, char *const argv[], char *const envp[])
{
	struct process *process = process_allocate();
	if (!process)
		return -ENOMEM;
	struct program program;
	int error = program_load(parent ? parent->cwd : "", path, argv, envp, &program);
	if (error) {
		kfree(process);
		return error;
	}
	process->space = program.space;
	process->entry = program.entry;
	process->stack_pointer = program.stack_pointer;
	memcpy(process->name, program.name, sizeof process->name);

	if (parent) {
		memcpy(process->cwd, parent->cwd, sizeof process->cwd);
		for (int fd = 0; fd < PROCESS_MAX_FILES; fd++) {
			if (parent->close_on_exec >> fd & 1) /* the exec half of spawn closes it */
				continue;
			process->files[fd] = parent->files[fd];
			if (process->files[fd])
				file_get(process->files[fd]);
		}
	} else {
		struct file *console;
		error = file_open("/dev/console", O_RDWR, &console);
		if (error)
			goto fail;
		for (int fd = 0; fd < 3; fd++) {
			process->files[fd] = console;
			if (fd)
				file_get(console);
		}
	}

	struct task *task = task_allocate(process->name, process_first_run, process, ALL_HARTS);
	error = -ENOMEM;
	if (!task)
		goto fail_files;
	task->satp = process->space.satp;
	task->owner = process;
	process->task = task;
	process->task_id = task->id;
	/* posix_spawn's signal state: fork's (the mask and ignored signals inherited), then
	 * exec's (handlers reset; they were the parent's code). */
	if (parent) {
		signal_fork(process, parent);
		signal_exec(process);
	}

	int pid = process_insert(process, parent);
	if (pid < 0) {
		error = pid;
		page_free_pages(task->stack, task->stack_size / PAGE_SIZE);
		kfree(task);
		goto fail_files;
	}
	task_start(task);
	return pid;

fail_files:
	close_all_files(process);
fail:
	address_space_destroy(&process->space);
	kfree(process);
	return error;
}

/* Entry of a forked child's task: its trap frame is already at the top of its kernel
 * stack (process_fork put it there, and started the task's kernel code below it). */
static void process_fork_run(void *argument)
{
	(void)argument;
	struct task *task = sched_current();
	struct trap_frame *frame =
	    (struct trap_frame *)((uint8_t *)task->stack + task->stack_size) - 1;
	interrupts_disable();
	user_return(frame);
}

/* Has the vfork child `argument` let its parent go? (wait_queue condition) */
static bool vfork_released(void *argument)
{
	struct process *child = argument;
	return __atomic_load_n(&child->vfork_parent, __ATOMIC_ACQUIRE) == 0;
}

int process_fork(struct process *parent, const struct fork_request *request)
{
	bool share_memory = request->share_memory;
	struct task *parent_task = parent->task;
	const struct trap_frame *frame =
	    (const struct trap_frame *)((uint8_t *)parent_task->stack + parent_task->stack_size) -
	    1;
	struct process *child = process_allocate();
	if (!child)
		return -ENOMEM;
	/* The memory: vfork borrows the parent's (safe: the parent runs no user code until
	 * the child lets it go); fork shares every page copy-on-write (docs/design.md
	 * "Copy-on-write fork"). */
	if (share_memory) {
		child->space = parent->space;
		child->vfork_parent = parent;
	} else if (!address_space_copy(&child->space, &parent->space)) {
		kfree(child);
		return -ENOMEM;
	}
	memcpy(child->name, parent->name, sizeof child->name);
	for (int fd = 0; fd < PROCESS_MAX_FILES; fd++) {
		child->files[fd] = parent->files[fd];
		if (child->files[fd])
			file_get(child->files[fd]);
	}
	child->close_on_exec = parent->close_on_exec;
	memcpy(child->cwd, parent->cwd, sizeof child->cwd);
	signal_fork(child, parent);
	memcpy(child->limits, parent->limits, sizeof child->limits);
	child->limits_set = parent->limits_set;

	struct task *task =
	    task_allocate(child->name, process_fork_run, child, parent_task->run.allowed_harts);
	if (!task) {
		close_all_files(child);
		if (!share_memory)
			address_space_destroy(&child->space);
		kfree(child);
		return -ENOMEM;
	}
	/* The child's registers: the parent's at the ecall, returning 0. Its kernel code
	 * starts below the frame, which stays at the stack's top, where a trap from U-mode
	 * puts it. */
	struct trap_frame *child_frame =
	    (struct trap_frame *)((uint8_t *)task->stack + task->stack_size) - 1;
	*child_frame = *frame;
	child_frame->regs[10] = 0;
	if (request->child_stack)
		child_frame->regs[2] = request->child_stack;
	if (request->set_tls)
		child_frame->regs[4] = request->tls;
	child->clear_child_tid = request->clear_child_tid_at;
	task->context.sp = (uint64_t)child_frame;
	/* The FPU registers are live on this hart (and maybe newer than task->fpu): save
	 * them with interrupts masked, so no switch comes in between, and copy. */
	interrupts_disable();
	if (parent_task->fpu.in_use)
		fpu_save(&parent_task->fpu);
	task->fpu = parent_task->fpu;
	interrupts_enable();
	task->satp = child->space.satp;
	task->owner = child;
	child->task = task;
	child->task_id = task->id;

	int pid = process_insert(child, parent);
	if (pid < 0) {
		page_free_pages(task->stack, task->stack_size / PAGE_SIZE);
		kfree(task);
		close_all_files(child);
		if (!share_memory)
			address_space_destroy(&child->space);
		kfree(child);
		return pid;
	}
	/* Linux writes the child's tid from the child itself before it runs user code
	 * (schedule_tail), ignoring a bad address; here before the child starts. */
	if (request->set_child_tid_at)
		copy_to_user(&child->space, request->set_child_tid_at, &pid, sizeof pid);
	task_start(task);
	if (share_memory) /* the child cannot be reaped before this: we are its reaper */
		wait_queue_wait(&parent->vfork_done, vfork_released, child);
	return pid;
}

void process_vfork_release(struct process *child, const struct address_space *borrowed)
{
	struct process *parent = child->vfork_parent;
	if (!parent)
		return;
	/* The child may have moved the break or mapped memory in the shared tables: the
	 * parent takes the space back as the child left it. */
	parent->space = *borrowed;
	__atomic_store_n(&child->vfork_parent, 0, __ATOMIC_RELEASE);
	wait_queue_wake_all(&parent->vfork_done);
}

/* Unlink `process` from the list. Caller holds process_lock. */
static void unlink_process(struct process *process)
{
	for (struct process **link = &all_processes; *link; link = &(*link)->next) {
		if (*link == process) {
			*link = process->next;
			return;
		}
	}
}

int process_visit(void (*visit)(struct process *process, void *argument), void *argument)
{
	int visited = 0;
	spin_lock(&process_lock);
	for (struct process *p = all_processes; p; p = p->next) {
		if (p->state != PROCESS_ZOMBIE) {
			visit(p, argument);
			visited++;
		}
	}
	spin_unlock(&process_lock);
	return visited;
}

/* The one place a parent learns that its child ended, called by process_exit under
 * process_lock (which keeps the parent valid) right after `child` became a zombie with
 * `wait_status`: SIGCHLD (Linux do_notify_parent; its default action ignores it) and a
 * wake-up of its wait4. */
static void notify_parent_of_exit(struct process *parent, const struct process *child,
                                  int wait_status)
{
	bool killed = (wait_status & 0x7f) != 0;
	struct signal_info info = {
	    .code = killed ? CLD_KILLED : CLD_EXITED,
	    .pid = child->pid,
	    .status = killed ? wait_status & 0x7f : (wait_status >> 8) & 0xff,
	};
	signal_send_info(parent, SIGCHLD, &info);
	wait_queue_wake_all(&parent->child_exited);
}

/* The process orphans go to: init, the first program (pid 1), while it lives and is
 * not `exiting` itself; NULL when there is none (then orphans have no parent and are
 * freed when they end, nobody being there to reap them). Caller holds process_lock. */
static struct process *init_process(const struct process *exiting)
{
	for (struct process *p = all_processes; p; p = p->next) {
		if (p->pid == 1)
			return p != exiting && p->state == PROCESS_RUNNING ? p : 0;
	}
	return 0;
}

bool process_group_orphaned_locked(int group, const struct process *ignored)
{
	for (struct process *p = all_processes; p; p = p->next) {
		if (p == ignored || p->state == PROCESS_ZOMBIE || p->process_group != group)
			continue;
		const struct process *parent = p->parent;
		if (!parent || parent->pid == 1)
			continue;
		if (parent->process_group != group && parent->session == p->session)
			return false;
	}
	return true;
}

bool process_group_orphaned(const struct process *process)
{
	spin_lock(&process_lock);
	bool orphaned = process_group_orphaned_locked(process->process_group, 0);
	spin_unlock(&process_lock);
	return orphaned;
}

int process_signal_group_locked(int group, int signal)
{
	int sent = 0;
	for (struct process *p = all_processes; p; p = p->next) {
		if (p->state != PROCESS_ZOMBIE && p->process_group == group) {
			signal_send(p, signal);
			sent++;
		}
	}
	return sent;
}

/* Does group `group` have a stopped member? Caller holds process_lock. */
static bool group_has_stopped_member(int group)
{
	for (struct process *p = all_processes; p; p = p->next)
		if (p->state != PROCESS_ZOMBIE && p->process_group == group &&
		    __atomic_load_n(&p->signals.stopped, __ATOMIC_RELAXED))
			return true;
	return false;
}

/* `group` became orphaned when `exiting` left (it was the group's tie to a parent
 * outside it): if a member is stopped, SIGHUP and SIGCONT to the whole group, since no
 * shell would ever continue it (POSIX _exit; Linux kill_orphaned_pgrp). */
static void hang_up_if_orphaned_locked(int group, const struct process *outside,
                                       const struct process *inside, const struct process *exiting)
{
	if (outside && outside->process_group != group && outside->session == inside->session &&
	    process_group_orphaned_locked(group, exiting) && group_has_stopped_member(group)) {
		process_signal_group_locked(group, SIGHUP);
		process_signal_group_locked(group, SIGCONT);
	}
}

/* SIGCHLD with `code` to `child`'s parent, unless it asked for none with SA_NOCLDSTOP,
 * and a wake-up of its wait4. Caller holds process_lock. */
static void notify_parent_of_stop_locked(struct process *child, int code, int status)
{
	struct process *parent = child->parent;
	if (!parent)
		return;
	if (signal_stop_notices_wanted(parent)) {
		struct signal_info info = {.code = code, .pid = child->pid, .status = status};
		signal_send_info(parent, SIGCHLD, &info);
	}
	wait_queue_wake_all(&parent->child_exited);
}

void process_report_stopped(struct process *process, int signal)
{
	spin_lock(&process_lock);
	process->stop_to_report = signal;
	process->continue_to_report = false;
	notify_parent_of_stop_locked(process, CLD_STOPPED, signal);
	spin_unlock(&process_lock);
}

void process_report_continued(struct process *process)
{
	spin_lock(&process_lock);
	process->stop_to_report = 0;
	process->continue_to_report = true;
	notify_parent_of_stop_locked(process, CLD_CONTINUED, SIGCONT);
	spin_unlock(&process_lock);
}

void process_exit(int wait_status)
{
	struct process *process = process_current();

	close_all_files(process);
	/* Leave the program's page table before freeing it. */
	task_set_satp(0);
	if (process->vfork_parent) /* the memory is the parent's: give it back */
		process_vfork_release(process, &process->space);
	else
		address_space_destroy(&process->space);

	spin_lock(&process_lock);
	struct process *freeable = 0;
	struct process *init = init_process(process);
	bool init_has_zombie = false;
	for (struct process *other = all_processes; other;) {
		struct process *next = other->next;
		if (other->parent == process) {
			/* An orphan: init adopts it (Linux's forget_original_parent), or, with
			 * no init, nobody does and a zombie is freed now. */
			other->parent = init;
			/* Its group may have lost its tie outside (through us). */
			if (other->state != PROCESS_ZOMBIE)
				hang_up_if_orphaned_locked(other->process_group, process, other, 0);
			if (other->state == PROCESS_ZOMBIE) {
				if (init) {
					init_has_zombie = true;
				} else if (other->pid != 1) {
					unlink_process(other);
					other->next = freeable;
					freeable = other;
				}
			}
		}
		other = next;
	}
	if (init_has_zombie) /* an adopted zombie: init's wait4 may reap it now */
		wait_queue_wake_all(&init->child_exited);
	/* Our own group may have had its tie outside through us. */
	hang_up_if_orphaned_locked(process->process_group, process->parent, process, process);
	if (process->pid == process->session)
		terminal_leader_exits_locked(process);
	process->state = PROCESS_ZOMBIE;
	process->wait_status = wait_status;
	struct process *parent = process->parent;
	bool first_program = process->pid == 1;
	if (!parent && !first_program) { /* nobody will wait for it */
		unlink_process(process);
		process->next = freeable;
		freeable = process;
	}
	/* Wake the parent while process_lock is still held: `parent` stays valid only as
	 * long as it does. Once the lock is dropped the parent can exit, be reaped by its
	 * own parent and be freed, and a wake after that would use freed memory (a hang on
	 * a garbage lock; user/exitrace.c races exactly this). process_lock -> wait-queue
	 * lock is a safe order: wait-queue conditions (child_ready) run without the queue
	 * lock held. */
	if (parent)
		notify_parent_of_exit(parent, process, wait_status);
	else if (first_program)
		wait_queue_wake_all(&orphan_exited);
	spin_unlock(&process_lock);

	while (freeable) {
		struct process *next = freeable->next;
		kfree(freeable);
		freeable = next;
	}
	task_exit();
}

void process_fault(const struct trap_frame *frame)
{
	struct process *process = process_current();
	uint64_t cause = frame->scause;
	int signal = SIGSEGV;
	const char *signal_name = "SIGSEGV";
	if (cause == 2) {
		signal = SIGILL;
		signal_name = "SIGILL";
	} else if (cause == 3) { /* ebreak: Linux's do_trap_break sends SIGTRAP */
		signal = SIGTRAP;
		signal_name = "SIGTRAP";
	} else if (cause == 0 || cause == 4 || cause == 6) {
		signal = SIGBUS;
		signal_name = "SIGBUS";
	}
	log_printf("%s[%d]: killed by %s: %s at pc %#lx, address %#lx\n", process->name,
	           process->pid, signal_name, trap_cause_name(cause), frame->regs[0], frame->stval);
	process_exit(signal);
}

void process_out_of_memory(const struct trap_frame *frame)
{
	struct process *process = process_current();
	log_printf("%s[%d]: killed by SIGKILL: out of memory for a copy-on-write page at pc "
	           "%#lx, address %#lx\n",
	           process->name, process->pid, frame->regs[0], frame->stval);
	process_exit(SIGKILL);
}

struct wait_target {
	struct process *parent;
	int pid;
	int options;
};

/* Has `p` a stop or continue that wait4 with `options` reports? Caller holds
 * process_lock. */
static bool has_report(const struct process *p, int options)
{
	return ((options & WUNTRACED) && p->stop_to_report) ||
	       ((options & WCONTINUED) && p->continue_to_report);
}

/* Is `p` a child wait4(`pid`) by `parent` asks for? Caller holds process_lock. */
static bool wait_matches(const struct process *p, const struct process *parent, int pid)
{
	if (p->parent != parent)
		return false;
	if (pid == -1)
		return true;
	if (pid > 0)
		return p->pid == pid;
	int group = pid == 0 ? parent->process_group : -pid;
	return p->process_group == group;
}

/* wait_queue condition: a matching zombie exists, or no matching child at all. */
static bool child_ready(void *argument)
{
	struct wait_target *target = argument;
	bool ready = true;
	spin_lock(&process_lock);
	for (struct process *p = all_processes; p; p = p->next) {
		if (target->parent ? wait_matches(p, target->parent, target->pid)
		                   : !p->parent && p->pid == target->pid) {
			ready = p->state == PROCESS_ZOMBIE || has_report(p, target->options);
			if (ready)
				break;
		}
	}
	spin_unlock(&process_lock);
	return ready;
}

int process_wait(struct process *parent, int pid, int *wait_status, int options)
{
	struct wait_target target = {parent, pid, options};
	for (;;) {
		bool has_child = false;
		struct process *zombie = 0;
		int reported = 0;
		spin_lock(&process_lock);
		for (struct process *p = all_processes; p; p = p->next) {
			if (!wait_matches(p, parent, pid))
				continue;
			has_child = true;
			if (p->state == PROCESS_ZOMBIE) {
				zombie = p;
				break;
			}
			if (has_report(p, options)) { /* Linux wait_task_stopped / _continued */
				reported = p->pid;
				if ((options & WUNTRACED) && p->stop_to_report) {
					*wait_status = 0x7f | p->stop_to_report << 8;
					p->stop_to_report = 0;
				} else {
					*wait_status = 0xffff;
					p->continue_to_report = false;
				}
				break;
			}
		}
		if (zombie)
			unlink_process(zombie);
		spin_unlock(&process_lock);
		if (reported)
			return reported;
		if (zombie) {
			int found = zombie->pid;
			int task_id = zombie->task_id;
			*wait_status = zombie->wait_status;
			kfree(zombie);
			/* Its task may still be switching away on another hart: report the child
			 * once its stack is back, so that a parent with no unreaped child has
			 * every page its children had (user/test_fs.c counts them). */
			sched_wait_task_freed(task_id);
			return found;
		}
		if (!has_child)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		if (wait_queue_wait_interruptible(&parent->child_exited, child_ready, &target))
			return -ERESTARTSYS;
	}
}

/* The live (not zombie) process with `pid`, or NULL. Caller holds process_lock. */
static struct process *find_process(int pid)
{
	for (struct process *p = all_processes; p; p = p->next) {
		if (p->pid == pid)
			return p->state == PROCESS_RUNNING ? p : 0;
	}
	return 0;
}

int process_set_group(struct process *caller, int pid, int process_group)
{
	if (process_group < 0)
		return -EINVAL;
	int error = 0;
	spin_lock(&process_lock);
	struct process *target = pid == 0 ? caller : find_process(pid);
	if (!target || (target != caller && target->parent != caller)) {
		error = -ESRCH;
	} else if (target != caller && target->has_execed) {
		error = -EACCES;
	} else if (target->session == target->pid || target->session != caller->session) {
		error = -EPERM;
	} else {
		int group = process_group ? process_group : target->pid;
		bool exists = group == target->pid;
		/* A zombie not yet reaped still holds its group, as on Linux (its task stays
		 * on the group's list until release_task): a shell puts a pipeline's later
		 * processes in the group of its first even when that one has already exited. */
		for (struct process *p = all_processes; p && !exists; p = p->next)
			exists = p->process_group == group && p->session == caller->session;
		if (exists)
			target->process_group = group;
		else
			error = -EPERM;
	}
	spin_unlock(&process_lock);
	return error;
}

/* getpgid / getsid: the field `session` (true) or process_group of process `pid`. */
static int get_id(struct process *caller, int pid, bool session)
{
	spin_lock(&process_lock);
	struct process *target = pid == 0 ? caller : find_process(pid);
	int id = !target ? -ESRCH : session ? target->session : target->process_group;
	spin_unlock(&process_lock);
	return id;
}

int process_get_group(struct process *caller, int pid)
{
	return get_id(caller, pid, false);
}

int process_get_session(struct process *caller, int pid)
{
	return get_id(caller, pid, true);
}

int process_new_session(struct process *caller)
{
	int result;
	spin_lock(&process_lock);
	bool leads_a_group = false;
	for (struct process *p = all_processes; p && !leads_a_group; p = p->next)
		leads_a_group = p->process_group == caller->pid;
	if (leads_a_group) {
		result = -EPERM;
	} else {
		caller->session = caller->pid;
		caller->process_group = caller->pid;
		caller->left_terminal = false; /* a new session has no terminal yet */
		result = caller->pid;
	}
	spin_unlock(&process_lock);
	return result;
}

int process_wait_orphan(int pid)
{
	struct wait_target target = {0, pid, 0};
	wait_queue_wait(&orphan_exited, child_ready, &target);
	int status = 0;
	spin_lock(&process_lock);
	for (struct process *p = all_processes; p; p = p->next) {
		if (p->pid == pid && p->state == PROCESS_ZOMBIE) {
			status = p->wait_status;
			unlink_process(p);
			spin_unlock(&process_lock);
			kfree(p);
			return status;
		}
	}
	spin_unlock(&process_lock);
	return status;
}
