/* Processes: spawn, exit, wait, fault kills; see process.h. */
#include "kernel/proc/process.h"

#include "kernel/hart/csr.h"
#include "kernel/hart/isa.h"
#include "kernel/fs/initramfs.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_pool.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/elf.h"
#include "kernel/random/random.h"
#include "kernel/sched/sched.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"

static struct spinlock process_lock = SPINLOCK_INIT("process");
static struct process *all_processes;
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

/* Auxiliary-vector types (Linux include/uapi/linux/auxvec.h). */
#define AT_NULL    0
#define AT_PHDR    3
#define AT_PHENT   4
#define AT_PHNUM   5
#define AT_PAGESZ  6
#define AT_ENTRY   9
#define AT_UID     11
#define AT_EUID    12
#define AT_GID     13
#define AT_EGID    14
#define AT_HWCAP   16
#define AT_CLKTCK  17
#define AT_SECURE  23
#define AT_RANDOM  25
#define AUXV_PAIRS 14 /* the pairs build_stack writes, AT_NULL included */
/* sysconf(_SC_CLK_TCK): the unit of times() and /proc on Linux (USER_HZ). */
#define USER_HZ 100

/* Lay out argc, argv, envp and auxv on the new stack (RISC-V psABI / Linux): returns
 * the stack pointer, or 0 on -E2BIG/-EFAULT (*error set). */
static uint64_t build_stack(struct address_space *space, const struct elf_image *image,
                            char *const argv[], char *const envp[], int *error)
{
	int argc = 0, envc = 0;
	size_t strings = 0;
	while (argv && argv[argc]) {
		strings += strlen(argv[argc]) + 1;
		if (++argc > PROCESS_MAX_ARGS)
			break;
	}
	while (envp && envp[envc]) {
		strings += strlen(envp[envc]) + 1;
		if (++envc > PROCESS_MAX_ARGS)
			break;
	}
	if (argc > PROCESS_MAX_ARGS || envc > PROCESS_MAX_ARGS || strings > PROCESS_ARGS_SIZE) {
		*error = -E2BIG;
		return 0;
	}
	size_t words = 1 + (size_t)argc + 1 + (size_t)envc + 1 + 2 * AUXV_PAIRS;
	uint64_t strings_at = USER_STACK_TOP - strings;
	uint64_t random_at = (strings_at - 16) & ~15ull;
	uint64_t sp = (random_at - words * 8) & ~15ull;

	uint64_t *table = kmalloc(words * 8);
	if (!table) {
		*error = -ENOMEM;
		return 0;
	}
	size_t w = 0;
	uint64_t cursor = strings_at;
	table[w++] = (uint64_t)argc;
	char *const *lists[2] = {argv, envp};
	int counts[2] = {argc, envc};
	for (int list = 0; list < 2; list++) {
		for (int i = 0; i < counts[list]; i++) {
			size_t length = strlen(lists[list][i]) + 1;
			table[w++] = cursor;
			address_space_load(space, cursor, lists[list][i], length);
			cursor += length;
		}
		table[w++] = 0;
	}
	/* Every program runs as root (uid 0) and nothing is set-uid: AT_SECURE 0. */
	const uint64_t auxv[AUXV_PAIRS][2] = {
	    {AT_PHDR, image->program_headers},
	    {AT_PHENT, image->program_header_size},
	    {AT_PHNUM, image->program_header_count},
	    {AT_PAGESZ, PAGE_SIZE},
	    {AT_ENTRY, image->entry},
	    {AT_UID, 0},
	    {AT_EUID, 0},
	    {AT_GID, 0},
	    {AT_EGID, 0},
	    {AT_HWCAP, isa_hwcap()},
	    {AT_CLKTCK, USER_HZ},
	    {AT_SECURE, 0},
	    {AT_RANDOM, random_at},
	    {AT_NULL, 0},
	};
	memcpy(&table[w], auxv, sizeof auxv);
	uint8_t random[16];
	random_bytes(random, sizeof random);
	address_space_load(space, random_at, random, sizeof random);
	address_space_load(space, sp, table, words * 8);
	kfree(table);
	return sp;
}

int process_spawn(struct process *parent, const char *path, char *const argv[], char *const envp[])
{
	struct cpio_entry program;
	if (!initramfs_find(path, &program))
		return -ENOENT;
	int error = elf_check(program.data, program.size);
	if (error)
		return error;

	struct process *process = kzalloc(sizeof *process);
	if (!process)
		return -ENOMEM;
	wait_queue_init(&process->child_exited, "child exited");
	error = -ENOMEM;
	if (!address_space_create(&process->space))
		goto fail;
	struct elf_image image;
	error = elf_load(&process->space, program.data, program.size, &image);
	if (error)
		goto fail;
	process->entry = image.entry;
	error = -ENOMEM;
	/* One unmapped guard page stays below the stack and one above it. */
	if (!address_space_map(&process->space, USER_STACK_TOP - USER_STACK_SIZE, USER_STACK_SIZE,
	                       USER_READ | USER_WRITE))
		goto fail;
	process->stack_pointer = build_stack(&process->space, &image, argv, envp, &error);
	if (!process->stack_pointer)
		goto fail;

	const char *base = path;
	for (const char *c = path; *c; c++) {
		if (*c == '/')
			base = c + 1;
	}
	size_t length = strnlen(base, sizeof process->name - 1);
	memcpy(process->name, base, length);

	if (parent) {
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

	spin_lock(&process_lock);
	process->pid = next_pid++;
	process->parent = parent;
	process->state = PROCESS_RUNNING;
	process->next = all_processes;
	all_processes = process;
	int pid = process->pid;
	spin_unlock(&process_lock);
	task_start(task);
	return pid;

fail_files:
	for (int fd = 0; fd < PROCESS_MAX_FILES; fd++) {
		if (process->files[fd])
			file_put(process->files[fd]);
	}
fail:
	address_space_destroy(&process->space);
	kfree(process);
	return error;
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

void process_exit(int wait_status)
{
	struct process *process = process_current();

	for (int fd = 0; fd < PROCESS_MAX_FILES; fd++) {
		if (process->files[fd])
			file_put(process->files[fd]);
		process->files[fd] = 0;
	}
	/* Leave the program's page table before freeing it. */
	task_set_satp(0);
	address_space_destroy(&process->space);

	spin_lock(&process_lock);
	struct process *freeable = 0;
	for (struct process *other = all_processes; other;) {
		struct process *next = other->next;
		if (other->parent == process) {
			other->parent = 0;
			if (other->state == PROCESS_ZOMBIE && other->pid != 1) {
				unlink_process(other);
				other->next = freeable;
				freeable = other;
			}
		}
		other = next;
	}
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
		wait_queue_wake_all(&parent->child_exited);
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

struct wait_target {
	struct process *parent;
	int pid;
};

/* wait_queue condition: a matching zombie exists, or no matching child at all. */
static bool child_ready(void *argument)
{
	struct wait_target *target = argument;
	bool ready = true;
	spin_lock(&process_lock);
	for (struct process *p = all_processes; p; p = p->next) {
		if (p->parent == target->parent && (target->pid == -1 || p->pid == target->pid)) {
			ready = p->state == PROCESS_ZOMBIE;
			if (ready)
				break;
		}
	}
	spin_unlock(&process_lock);
	return ready;
}

int process_wait(struct process *parent, int pid, int *wait_status, int options)
{
	struct wait_target target = {parent, pid};
	for (;;) {
		bool has_child = false;
		struct process *zombie = 0;
		spin_lock(&process_lock);
		for (struct process *p = all_processes; p; p = p->next) {
			if (p->parent == parent && (pid == -1 || p->pid == pid)) {
				has_child = true;
				if (p->state == PROCESS_ZOMBIE) {
					zombie = p;
					break;
				}
			}
		}
		if (zombie)
			unlink_process(zombie);
		spin_unlock(&process_lock);
		if (zombie) {
			int found = zombie->pid;
			*wait_status = zombie->wait_status;
			kfree(zombie);
			return found;
		}
		if (!has_child)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		wait_queue_wait(&parent->child_exited, child_ready, &target);
	}
}

int process_wait_orphan(int pid)
{
	struct wait_target target = {0, pid};
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
