/* The scheduler; see sched.h for the model and the park/wake protocol.
 *
 * Locking: each hart has a scheduler lock guarding its run queue and the state of
 * every task that belongs to it (task->hart_index). Moving a task between harts takes
 * both locks, lower index first. A hart's lock is held across switch_context and
 * released by the task that starts running (finish_switch), so a task that is still
 * switching out can never be picked up by another hart. */
#include "kernel/sched/sched.h"

#include "kernel/sched/task_list.h"

#include "kernel/fpu/fpu.h"
#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/vm.h"
#include "kernel/panic/panic.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"
#include "kernel/trace/trace.h"

struct sched_hart {
	struct spinlock lock;
	struct runqueue queue;
	/* The running task is hart->current_task (one tp-relative load for sched_current),
	 * kept nowhere else; other harts read it through this pointer. */
	struct hart *hart; /* null until the hart has run sched_init_hart */
	struct task *idle;
	struct task *previous;  /* the task switch_context just left, for finish_switch */
	struct task *migrating; /* left this hart; enqueue elsewhere once switched out */
	volatile bool need_resched;
	struct timer slice;
	uint64_t online_since_ns;
	/* Busy/idle accounting, written only by this hart's idle loop. Readers on other
	 * harts retry while idle_sequence is odd or changed (a seqcount), so they never see
	 * a period ended in idle_since_ns but not yet added to idle_ns. */
	uint64_t idle_ns;       /* completed idle periods */
	uint64_t idle_since_ns; /* start of the current idle period, 0 if busy */
	uint32_t idle_sequence;
	struct sched_hart_stats stats;
};

static struct sched_hart sched_harts[MAX_HARTS];
static struct task idle_tasks[MAX_HARTS];
static int next_task_id = 1;

void switch_context(struct task_context *save, struct task_context *load);

static struct sched_hart *this_sched(void)
{
	return &sched_harts[this_hart()->index];
}

static struct task *task_of(struct runqueue_entry *entry)
{
	return (struct task *)((char *)entry - offsetof(struct task, run));
}

/* The task running on the hart `sh` schedules (any hart's, read without its lock;
 * null before that hart's sched_init_hart). */
static struct task *running_on(const struct sched_hart *sh)
{
	struct hart *hart = __atomic_load_n(&sh->hart, __ATOMIC_ACQUIRE);
	return hart ? __atomic_load_n(&hart->current_task, __ATOMIC_RELAXED) : 0;
}

static bool is_idle_hart(const struct sched_hart *sh)
{
	return running_on(sh) == sh->idle && sh->queue.count == 0;
}

static void lock_pair(struct sched_hart *a, struct sched_hart *b)
{
	if (a == b) {
		spin_lock(&a->lock);
	} else if (a < b) {
		spin_lock(&a->lock);
		spin_lock(&b->lock);
	} else {
		spin_lock(&b->lock);
		spin_lock(&a->lock);
	}
}

static void unlock_pair(struct sched_hart *a, struct sched_hart *b)
{
	if (a != b)
		spin_unlock(&b->lock);
	spin_unlock(&a->lock);
}

/* Ask hart `sh` to reschedule soon. Caller holds sh->lock. */
static void kick(struct sched_hart *sh)
{
	int index = (int)(sh - sched_harts);
	if (index == this_hart()->index)
		sh->need_resched = true;
	else
		ipi_send(index, IPI_RESCHEDULE);
}

/* Queue a runnable task on `sh`. Caller holds sh->lock. */
static void enqueue(struct sched_hart *sh, struct task *task)
{
	int index = (int)(sh - sched_harts);
	if (task->hart_index != index)
		task->migrations++;
	task->hart_index = index;
	task->state = TASK_RUNNABLE;
	runqueue_push_back(&sh->queue, &task->run);
}

/* A task was just queued on `busy`, which has other work: if another hart it may use is
 * idle, wake that one so its idle loop steals the task now, not at its next keep-alive
 * tick. Any context; no lock needed (a stale "idle" costs one needless IPI). */
static void kick_idle_helper(const struct sched_hart *busy, const struct task *task)
{
	uint64_t allowed = task->run.allowed_harts;
	int here = this_hart()->index;
	for (int i = 0; i < hart_count(); i++) {
		if (i == here || &sched_harts[i] == busy || !(allowed & (1ull << i)) ||
		    !hart_by_index(i)->online || !is_idle_hart(&sched_harts[i]))
			continue;
		ipi_send(i, IPI_RESCHEDULE);
		return;
	}
}

/* Make `task` runnable on `sh` and see that someone runs it soon: kick `sh`, and an idle
 * helper if `sh` was busy. Caller holds sh->lock. */
static void place(struct sched_hart *sh, struct task *task)
{
	bool was_busy = !is_idle_hart(sh);
	enqueue(sh, task);
	kick(sh);
	if (was_busy)
		kick_idle_helper(sh, task);
}

/* Where a task that becomes runnable should go: its last hart if that is idle, else
 * any idle hart it may use, else its last hart if allowed, else the first allowed.
 * Reads other harts' state without their locks: a stale answer only costs balance. */
static struct sched_hart *choose_hart(const struct task *task)
{
	uint64_t allowed = task->run.allowed_harts;
	int last = task->hart_index;
	int count = hart_count();

	if (last >= 0 && (allowed & (1ull << last)) && is_idle_hart(&sched_harts[last]))
		return &sched_harts[last];
	for (int i = 0; i < count; i++) {
		if ((allowed & (1ull << i)) && hart_by_index(i)->online &&
		    is_idle_hart(&sched_harts[i]))
			return &sched_harts[i];
	}
	if (last >= 0 && (allowed & (1ull << last)))
		return &sched_harts[last];
	for (int i = 0; i < count; i++) {
		if ((allowed & (1ull << i)) && hart_by_index(i)->online)
			return &sched_harts[i];
	}
	return &sched_harts[0];
}

static void slice_expired(struct timer *timer)
{
	struct sched_hart *sh = timer->context;
	if (sh->queue.count > 0)
		sh->need_resched = true;
	else
		timer_start(&sh->slice, clock_now_ns() + SCHED_SLICE_NS);
}

/* Runs in the new task right after switch_context: release the lock the previous
 * task took, then deal with a task that left this hart or died. */
static void finish_switch(void)
{
	struct sched_hart *sh = this_sched();
	struct task *previous = sh->previous;
	struct task *migrating = sh->migrating;
	/* Decide under the lock: once it is released, a previous task that was only
	 * preempted may be stolen by another hart, run, exit and be freed there, and a look
	 * at its state here would then free it a second time. */
	struct task *dead = previous && previous->state == TASK_DEAD ? previous : 0;
	sh->migrating = 0;
	spin_unlock(&sh->lock);

	if (migrating) {
		struct sched_hart *target = choose_hart(migrating);
		spin_lock(&target->lock);
		place(target, migrating);
		spin_unlock(&target->lock);
	}
	if (dead) {
		task_list_release(dead);
		kfree(dead);
	}
}

/* The tracer's context switch record: kinds and ids, and the first 8 bytes of the next
 * task's name so that a timeline can label it. Called by switch_to when the sched class
 * is on; caller holds sh->lock. */
static void __attribute__((noinline))
trace_switch(const struct sched_hart *sh, const struct task *previous, const struct task *next)
{
	uint64_t name = 0;
	memcpy(&name, next->name, sizeof name);
	uint32_t kind = next == sh->idle ? TRACE_TASK_IDLE
	                : next->owner    ? TRACE_TASK_USER
	                                 : TRACE_TASK_KERNEL;
	trace_emit(TRACE_SWITCH, kind, (uint64_t)previous->id, (uint64_t)next->id, name);
}

/* Switch from the running task to `next`. Caller did irq_push_off, holds sh->lock and
 * has set the previous task's state; returns (as the previous task, maybe on another
 * hart, maybe much later) with the lock released and the push still to pop. */
static void switch_to(struct sched_hart *sh, struct task *next)
{
	struct task *previous = this_hart()->current_task;

	if (next == previous) {
		previous->state = TASK_RUNNING;
		spin_unlock(&sh->lock);
		return;
	}
	next->state = TASK_RUNNING;
	next->switches_in++;
	uint64_t now = clock_now_ns();
	previous->cpu_ns += now - previous->running_since_ns;
	next->running_since_ns = now;
	__atomic_store_n(&this_hart()->current_task, next, __ATOMIC_RELAXED);
	sh->previous = previous;
	sh->stats.context_switches++;
	if (trace_enabled(TRACE_SCHED))
		trace_switch(sh, previous, next);
	if (next == sh->idle)
		timer_cancel(&sh->slice);
	else
		timer_start(&sh->slice, now + SCHED_SLICE_NS);
	/* Where a trap from U-mode will put its frame, and whose page table is live. */
	struct hart *hart = this_hart();
	if (next->stack)
		hart->kernel_stack_top = (uint64_t)next->stack + next->stack_size;
	if (next->satp && next->satp != hart->satp) {
		hart->satp = next->satp;
		vm_activate(next->satp);
		/* A program's code was written through the data side (by the loader, maybe on
		 * another hart): harts with a separate instruction cache (the D1's C906) must
		 * not fetch stale bytes. A remote fence.i through SBI at load time would do
		 * too, but under QEMU -icount the hart that waits for the others starves them. */
		__asm__ volatile("fence.i" ::: "memory");
	}

	fpu_switch(&previous->fpu, (uintptr_t)previous->stack + previous->stack_size, &next->fpu);
	/* Interrupt state belongs to the task, not the hart (xv6's intena). */
	bool irq_were_enabled = this_hart()->irq_were_enabled;
	switch_context(&previous->context, &next->context);
	finish_switch();
	this_hart()->irq_were_enabled = irq_were_enabled;
}

static struct task *pick_next(struct sched_hart *sh)
{
	struct runqueue_entry *entry = runqueue_pop_front(&sh->queue);
	return entry ? task_of(entry) : sh->idle;
}

void sched_yield(void)
{
	irq_push_off();
	struct sched_hart *sh = this_sched();
	spin_lock(&sh->lock);
	sh->need_resched = false;
	struct task *previous = this_hart()->current_task;
	int here = (int)(sh - sched_harts);
	if (previous != sh->idle && previous->state == TASK_RUNNING) {
		if (previous->run.allowed_harts & (1ull << here)) {
			enqueue(sh, previous);
		} else {
			previous->state = TASK_RUNNABLE;
			sh->migrating = previous;
		}
	}
	switch_to(sh, pick_next(sh));
	irq_pop_off();
}

void sched_preempt_point(void)
{
	if (this_sched()->need_resched)
		sched_yield();
}

void sched_prepare_park(void)
{
	struct task *task = sched_current();
	__atomic_store_n(&task->wake_pending, 0, __ATOMIC_RELAXED);
	/* Order the store before the caller's condition check (pairs with sched_wake). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void sched_park(void)
{
	struct task *parking = sched_current();
	parking->park_site = (uint64_t)__builtin_return_address(0);
	parking->parked_since_ns = clock_now_ns();
	irq_push_off();
	struct sched_hart *sh = this_sched();
	spin_lock(&sh->lock);
	struct task *task = this_hart()->current_task;
	if (task->wake_pending) {
		task->wake_pending = 0;
		spin_unlock(&sh->lock);
		irq_pop_off();
		return;
	}
	task->state = TASK_BLOCKED;
	switch_to(sh, pick_next(sh));
	irq_pop_off();
}

void sched_wake(struct task *task)
{
	/* Order the caller's "condition is now true" before reading the task's state
	 * (pairs with the fence in sched_prepare_park). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	irq_push_off();
	for (;;) {
		struct sched_hart *from =
		    &sched_harts[__atomic_load_n(&task->hart_index, __ATOMIC_ACQUIRE)];
		struct sched_hart *to = task->state == TASK_BLOCKED ? choose_hart(task) : from;
		lock_pair(from, to);
		if (&sched_harts[task->hart_index] != from) {
			unlock_pair(from, to);
			continue;
		}
		if (task->state == TASK_BLOCKED) {
			trace_event(TRACE_WAKEUP, 0, (uint64_t)task->id, 0, 0);
			place(to, task);
			to->stats.wakeups++;
		} else if (task->state != TASK_DEAD) {
			task->wake_pending = 1;
		}
		unlock_pair(from, to);
		break;
	}
	irq_pop_off();
}

void sched_signal_wake(struct task *task)
{
	__atomic_store_n(&task->signal_pending, 1, __ATOMIC_RELAXED);
	sched_wake(task); /* its fence orders the flag before the state read */
	/* Running elsewhere, maybe in U-mode: a reschedule IPI makes it trap, and every
	 * return to user mode delivers. Read without the lock: a stale answer costs a
	 * needless IPI, or a delivery at the next trap (the slice tick at the latest). */
	int hart = __atomic_load_n(&task->hart_index, __ATOMIC_RELAXED);
	if (task->state == TASK_RUNNING && hart >= 0 && hart != this_hart()->index)
		ipi_send(hart, IPI_RESCHEDULE);
}

static void reschedule_ipi(void)
{
	this_sched()->need_resched = true;
}

/* Take one task this hart may run from another hart's queue. Interrupts are off. */
static bool steal_task(struct sched_hart *sh)
{
	int here = (int)(sh - sched_harts);
	int count = hart_count();
	for (int k = 1; k < count; k++) {
		struct sched_hart *victim = &sched_harts[(here + k) % count];
		if (victim->queue.count == 0)
			continue;
		lock_pair(sh, victim);
		struct runqueue_entry *entry = runqueue_find_stealable(&victim->queue, here);
		if (entry) {
			runqueue_remove(&victim->queue, entry);
			enqueue(sh, task_of(entry));
			sh->stats.steals++;
		}
		unlock_pair(sh, victim);
		if (entry)
			return true;
	}
	return false;
}

void sched_init_hart(void)
{
	struct hart *hart = this_hart();
	struct sched_hart *sh = &sched_harts[hart->index];
	struct task *idle = &idle_tasks[hart->index];

	spinlock_init(&sh->lock, "sched");
	runqueue_init(&sh->queue);
	format_buffer(idle->name, TASK_NAME_MAX, "idle%u", hart->hart_id);
	idle->state = TASK_RUNNING;
	idle->hart_index = hart->index;
	idle->run.allowed_harts = 1ull << hart->index;
	/* The idle task runs on the kernel's page table, not on whatever program's table was
	 * live before it. Keeping that table loaded while idle (satp 0: "keep") left a hart
	 * holding a program's root page after the program moved away and exited: the freed
	 * root could come back as a new program's root with the same satp value, switch_to
	 * then skipped the reload and its sfence.vma, and the new program read the old one's
	 * memory through stale TLB entries (user/stalemap.c). With the kernel's table here,
	 * a hart holds a program's table only while that program is its current task. */
	idle->satp = vm_kernel_satp();
	sh->idle = idle;
	task_list_add(idle);
	__atomic_store_n(&hart->current_task, idle, __ATOMIC_RELAXED);
	__atomic_store_n(&sh->hart, hart, __ATOMIC_RELEASE);
	timer_init(&sh->slice, slice_expired, sh);
	sh->online_since_ns = clock_now_ns();
	if (hart->index == 0)
		ipi_set_handler(IPI_RESCHEDULE, reschedule_ipi);
}

/* The seqcount's write side; only the hart's own idle loop calls these. */
static void idle_accounting_begin(struct sched_hart *sh)
{
	__atomic_store_n(&sh->idle_sequence, sh->idle_sequence + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void idle_accounting_end(struct sched_hart *sh)
{
	__atomic_store_n(&sh->idle_sequence, sh->idle_sequence + 1, __ATOMIC_RELEASE);
}

void sched_idle_loop(void)
{
	struct sched_hart *sh = this_sched();
	interrupts_enable();
	for (;;) {
		interrupts_disable();
		if (sh->queue.count > 0 || steal_task(sh)) {
			interrupts_enable();
			sched_yield();
			continue;
		}
		uint64_t start = clock_now_ns();
		idle_accounting_begin(sh);
		sh->idle_since_ns = start;
		idle_accounting_end(sh);
		/* A pending interrupt ends wfi even with SIE clear; it is taken below. */
		trace_event(TRACE_IDLE_ENTER, 0, 0, 0, 0);
		wait_for_interrupt();
		trace_event(TRACE_IDLE_EXIT, 0, 0, 0, 0);
		idle_accounting_begin(sh);
		sh->idle_since_ns = 0;
		sh->idle_ns += clock_now_ns() - start;
		idle_accounting_end(sh);
		interrupts_enable();
	}
}

/* First code a new task runs, entered through switch_context's ret. */
static void task_first_run(void)
{
	finish_switch();
	this_hart()->irq_were_enabled = true;
	irq_pop_off();
	struct task *task = sched_current();
	task->entry(task->argument);
	task_exit();
}

struct task *task_allocate(const char *name, void (*entry)(void *argument), void *argument,
                           uint64_t allowed_harts)
{
	struct task *task = kzalloc(sizeof *task);
	if (!task)
		return 0;
	task->stack = page_alloc_pages(KERNEL_STACK_SIZE / PAGE_SIZE);
	if (!task->stack) {
		kfree(task);
		return 0;
	}
	task->stack_size = KERNEL_STACK_SIZE;
	size_t length = strnlen(name, TASK_NAME_MAX - 1);
	memcpy(task->name, name, length);
	task->entry = entry;
	task->argument = argument;
	task->id = __atomic_fetch_add(&next_task_id, 1, __ATOMIC_RELAXED);
	task->run.allowed_harts = allowed_harts;
	task->hart_index = -1;
	task->context.ra = (uint64_t)task_first_run;
	task->context.sp = (uint64_t)task->stack + KERNEL_STACK_SIZE;
	task->satp = vm_kernel_satp();
	return task;
}

void task_start(struct task *task)
{
	task_list_add(task);
	irq_push_off();
	struct sched_hart *target = choose_hart(task);
	spin_lock(&target->lock);
	place(target, task);
	spin_unlock(&target->lock);
	irq_pop_off();
}

struct task *task_create(const char *name, void (*entry)(void *argument), void *argument,
                         uint64_t allowed_harts)
{
	struct task *task = task_allocate(name, entry, argument, allowed_harts);
	if (task)
		task_start(task);
	return task;
}

void task_exit(void)
{
	irq_push_off();
	struct sched_hart *sh = this_sched();
	spin_lock(&sh->lock);
	this_hart()->current_task->state = TASK_DEAD;
	switch_to(sh, pick_next(sh));
	panic("a dead task was scheduled");
}

struct task *sched_running_task(int hart_index)
{
	if (hart_index < 0 || hart_index >= MAX_HARTS)
		return 0;
	struct hart *hart = __atomic_load_n(&sched_harts[hart_index].hart, __ATOMIC_ACQUIRE);
	return hart ? __atomic_load_n(&hart->current_task, __ATOMIC_RELAXED) : 0;
}

const char *sched_current_name(void)
{
	struct task *task = this_hart()->current_task;
	return task ? task->name : 0;
}

int sched_set_affinity(uint64_t allowed_harts)
{
	bool any_online = false;
	for (int i = 0; i < hart_count(); i++)
		any_online |= (allowed_harts & (1ull << i)) && hart_by_index(i)->online;
	if (!any_online)
		return -1;
	struct task *task = sched_current();
	task->run.allowed_harts = allowed_harts;
	/* sched_yield moves us if this hart is no longer allowed. */
	if (!(allowed_harts & (1ull << task->hart_index)))
		sched_yield();
	return 0;
}

uint64_t sched_get_affinity(void)
{
	return sched_current()->run.allowed_harts;
}

void sched_hart_times(int hart_index, uint64_t *busy_ns, uint64_t *idle_ns)
{
	struct sched_hart *sh = &sched_harts[hart_index];
	uint64_t now, idle, since;
	uint32_t sequence;
	do {
		sequence = __atomic_load_n(&sh->idle_sequence, __ATOMIC_ACQUIRE);
		now = clock_now_ns();
		idle = __atomic_load_n(&sh->idle_ns, __ATOMIC_RELAXED);
		since = __atomic_load_n(&sh->idle_since_ns, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while ((sequence & 1) ||
	         sequence != __atomic_load_n(&sh->idle_sequence, __ATOMIC_RELAXED));
	if (since && since <= now)
		idle += now - since;
	uint64_t total = now - sh->online_since_ns;
	*idle_ns = idle;
	*busy_ns = total > idle ? total - idle : 0;
}

uint64_t sched_current_cpu_ns(void)
{
	irq_push_off(); /* no switch between reading the fields and the clock */
	const struct task *task = sched_current();
	uint64_t ns = task->cpu_ns + (clock_now_ns() - task->running_since_ns);
	irq_pop_off();
	return ns;
}

void sched_hart_stats(int hart_index, struct sched_hart_stats *stats)
{
	*stats = sched_harts[hart_index].stats;
}

void task_set_satp(uint64_t satp)
{
	irq_push_off();
	struct hart *hart = this_hart();
	struct task *task = hart->current_task;
	task->satp = satp ? satp : vm_kernel_satp();
	if (hart->satp != task->satp) {
		hart->satp = task->satp;
		vm_activate(task->satp);
	}
	irq_pop_off();
}
