/* Harts (RISC-V hardware threads): per-hart state reached through the `tp` register,
 * starting secondary harts through SBI HSM, and inter-hart interrupts (IPIs).
 *
 * While in the kernel, tp always holds this hart's struct hart. Code that must stay
 * on one hart while using this_hart() runs with interrupts off (a spinlock does that),
 * otherwise the scheduler could move the task in between. */
#ifndef DUPLEX_HART_H
#define DUPLEX_HART_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/fdt/platform.h"

#define MAX_HARTS PLATFORM_MAX_HARTS

struct task; /* the scheduler's (kernel/sched/task.h); harts only point at one */

/* Why one hart interrupts another; several may be pending at once. */
enum ipi_reason {
	IPI_RESCHEDULE = 0, /* a task was queued here: run the scheduler */
	IPI_STOP = 1,       /* the kernel panicked: park this hart for good */
	IPI_REASON_COUNT
};

/* A secondary hart's start-up, decided once: either it comes online or the boot hart
 * stops waiting for it, never both (a late hart would run unannounced, and a panic's
 * IPI_STOP, sent to online harts only, would miss it). */
enum hart_bring_up {
	HART_NOT_STARTED = 0, /* never asked to start (or the boot hart) */
	HART_STARTING,        /* SBI hart_start accepted; not online yet */
	HART_JOINED,          /* came online in time */
	HART_ABANDONED,       /* the boot hart gave up on it; it stops itself if it comes */
};

struct hart {
	uintptr_t boot_stack_top;  /* offset 0: entry.S loads sp from 0(tp) */
	uint64_t kernel_stack_top; /* offset 8: the running task's, for traps from U-mode */
	uint64_t user_sp_scratch;  /* offset 16: trap_entry.S parks the user sp here */
	uint64_t satp;             /* the page table loaded on this hart */
	uint32_t hart_id;          /* the hardware id (mhartid), as the DT and SBI name it */
	int index;                 /* 0 .. hart_count()-1; the boot hart is 0 */
	volatile bool online;
	uint32_t bring_up;             /* enum hart_bring_up, changed only by compare-and-swap */
	int irq_off_depth;             /* nesting of irq_push_off (kernel/sync) */
	bool irq_were_enabled;         /* interrupt state before the outermost push */
	volatile uint32_t ipi_pending; /* bit per enum ipi_reason */
	/* The running task: the only place it is kept (kernel/sched/sched.c writes it under
	 * this hart's run-queue lock; sched_current reads it with one load off tp). */
	struct task *current_task;
	/* The timer source's program (timer/timer_source.h), for hart_yield_hint; timer.c
	 * sets it. */
	void (*program_timer)(uint64_t deadline_ticks);
	/* Why a secondary is not online, for the boot log (hart_describe_loss). */
	long start_error;       /* SBI hart_start's error, or 0 */
	bool no_stack;          /* no memory for its boot stack */
	long status_at_abandon; /* SBI HSM status when the boot hart gave up, or -1 */
};

static inline struct hart *this_hart(void)
{
	struct hart *hart;
	__asm__ volatile("mv %0, tp" : "=r"(hart));
	return hart;
}

/* Called by kernel_main on the boot hart, first thing: records the boot hart as
 * index 0 and points tp at its struct hart. */
void hart_init_boot(uint32_t boot_hart_id);
/* Called by kernel_main once the device tree is read: gives every other hart of the
 * platform an index. */
void hart_register_others(const struct platform *platform);
/* Called by kernel_main once memory is up: asks SBI HSM to start the platform's other
 * harts with an index below `limit` at secondary_entry. Returns how many harts (this
 * one included) were started; they report in with hart_mark_online. */
int harts_start_secondaries(uint64_t kernel_physical_base, int limit);
/* Called by each hart when it is ready to run tasks; false (and not online) for a
 * secondary the boot hart has given up on, which must then stop. */
bool hart_mark_online(void);
/* Called by kernel_main's wait for the secondaries, on the boot hart: true while a
 * started hart is not online yet but SBI HSM says it is running or about to. */
bool harts_still_starting(void);
/* Called by kernel_main on the boot hart when it stops waiting: every started hart not
 * online by now is abandoned, and stops itself if it ever gets there. */
void harts_abandon_missing(void);

/* Called by kernel_main on the boot hart after the wait, for each hart the device tree
 * names that is not online: writes why into `buffer` ("SBI hart_start failed (-3)",
 * "no memory for its boot stack", "not online after the wait; SBI HSM says it is
 * stopped", ...; "never asked to start" for one kernel_main left offline on purpose).
 * Never sleeps; no lock (the bring-up is decided by then). */
void hart_describe_loss(int index, char *buffer, unsigned long size);

int hart_count(void); /* harts known from the device tree (online or not) */
int harts_online(void);
struct hart *hart_by_index(int index);

/* Send an IPI with `reason` to the hart with that index. Any context. */
void ipi_send(int hart_index, enum ipi_reason reason);
/* Send `reason` to every online hart except this one. Any context. */
void ipi_send_others(enum ipi_reason reason);
/* Who handles each reason; registered once at boot (sched registers IPI_RESCHEDULE). */
void ipi_set_handler(enum ipi_reason reason, void (*handler)(void));
/* Called by the trap handler on a supervisor software interrupt. */
void ipi_handle(void);

/* Spin-wait hint for emulators: program this hart's timer to fire at once, so that the
 * timer interrupt follows as soon as interrupts are back on (its handler programs the
 * real deadline again). On real hardware that is all it does. Under QEMU with -icount,
 * which runs the harts one at a time, a timer write ends this hart's turn, so a hart
 * spinning for a lock lets the lock's holder run instead of spinning through a whole
 * turn (up to 100 ms of virtual time). Called by spin_lock's slow path; any context. */
void hart_yield_hint(void);

#endif
