/* The signal state a process carries, besides its actions and mask (which are in
 * struct process as rt_sigaction and rt_sigprocmask keep them): the pending set, the
 * info of each pending signal, the alternate stack, and the bookkeeping of the return
 * to user mode. Kept by kernel/signal; embedded in struct process. */
#ifndef DUPLEX_SIGNAL_SIGNAL_STATE_H
#define DUPLEX_SIGNAL_SIGNAL_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/signal/signal.h"
#include "kernel/sync/spinlock.h"

struct signal_state {
	/* Guards pending, info, stopped and the process's signal_mask against senders on
	 * other harts and in interrupts. The process's own task changes its mask and
	 * dequeues only under it. */
	struct spinlock lock;
	uint64_t pending;
	struct signal_info info[SIGNAL_COUNT];
	bool stopped; /* SIGSTOP/SIGTSTP/SIGTTIN/SIGTTOU's default; SIGCONT clears it */
	/* sigsuspend's mask swap: the mask to put back once a handler has run (it goes
	 * into the signal frame) or the call returns without one. */
	uint64_t saved_mask;
	bool restore_saved_mask;
	bool sigreturn_requested; /* rt_sigreturn ran; its exit work restores the frame */
	/* rt_sigtimedwait's set while it waits with those signals unblocked: they count as
	 * blocked for "is it ignored?" (Linux's real_blocked), so that a sigwait for a
	 * signal at SIG_DFL that would be ignored (SIGCHLD) still sees it. */
	uint64_t waited_for;
	/* sigaltstack: [alternate_stack, + alternate_stack_size), or size 0 for none. */
	uint64_t alternate_stack;
	uint64_t alternate_stack_size;
	bool alternate_stack_autodisarm; /* SS_AUTODISARM */
};

/* For process creation (kzalloc'd state). */
static inline void signal_state_init(struct signal_state *state)
{
	spinlock_init(&state->lock, "signals");
}

#endif
