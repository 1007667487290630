/* Per-hart state, secondary hart start-up and IPIs; see hart.h. */
#include "kernel/hart/hart.h"

#include "kernel/hart/csr.h"
#include "kernel/lib/format.h"
#include "kernel/log/log.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/page.h"
#include "kernel/sbi/sbi.h"

static struct hart harts[MAX_HARTS];
static int known_harts;
static void (*ipi_handlers[IPI_REASON_COUNT])(void);

extern char secondary_entry[];
extern char _kernel_start[];

void hart_init_boot(uint32_t boot_hart_id)
{
	/* Index 0 is the boot hart, whatever its id: OpenSBI picks the boot hart by lottery. */
	harts[0].hart_id = boot_hart_id;
	harts[0].index = 0;
	known_harts = 1;
	__asm__ volatile("mv tp, %0" ::"r"(&harts[0]));
}

void hart_register_others(const struct platform *platform)
{
	for (int i = 0; i < platform->hart_count && known_harts < MAX_HARTS; i++) {
		if (platform->hart_ids[i] == harts[0].hart_id)
			continue;
		harts[known_harts].hart_id = platform->hart_ids[i];
		harts[known_harts].index = known_harts;
		harts[known_harts].status_at_abandon = -1;
		known_harts++;
	}
}

bool hart_mark_online(void)
{
	struct hart *self = this_hart();
	uint32_t starting = HART_STARTING;
	if (self->index != 0 &&
	    !__atomic_compare_exchange_n(&self->bring_up, &starting, HART_JOINED, false,
	                                 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return false;
	__atomic_store_n(&self->online, true, __ATOMIC_RELEASE);
	return true;
}

bool harts_still_starting(void)
{
	for (int i = 1; i < known_harts; i++) {
		if (__atomic_load_n(&harts[i].bring_up, __ATOMIC_ACQUIRE) != HART_STARTING)
			continue;
		long status = sbi_hart_get_status(harts[i].hart_id);
		if (status == SBI_HSM_STARTED || status == SBI_HSM_START_PENDING)
			return true;
	}
	return false;
}

void harts_abandon_missing(void)
{
	for (int i = 1; i < known_harts; i++) {
		uint32_t starting = HART_STARTING;
		if (__atomic_compare_exchange_n(&harts[i].bring_up, &starting, HART_ABANDONED,
		                                false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			harts[i].status_at_abandon = sbi_hart_get_status(harts[i].hart_id);
	}
}

int harts_start_secondaries(uint64_t kernel_physical_base, int limit)
{
	uint64_t entry = kernel_physical_base + (uint64_t)(secondary_entry - _kernel_start);

	for (int i = 1; i < known_harts && i < limit; i++) {
		struct hart *hart = &harts[i];
		void *stack = page_alloc_pages(KERNEL_STACK_SIZE / PAGE_SIZE);
		if (!stack) {
			log_printf("hart %u: no memory for a stack, left offline\n", hart->hart_id);
			hart->no_stack = true;
			continue;
		}
		hart->boot_stack_top = (uintptr_t)stack + KERNEL_STACK_SIZE;
		__atomic_store_n(&hart->bring_up, HART_STARTING, __ATOMIC_RELEASE);
		long error = sbi_hart_start(hart->hart_id, entry, (unsigned long)hart);
		if (error != SBI_SUCCESS) {
			/* Refused: the hart never runs, so it is not counted as started (the
			 * boot hart would wait its whole second for it) and its stack is
			 * returned. */
			log_printf("hart %u: SBI hart_start failed (%ld), left offline\n",
			           hart->hart_id, error);
			__atomic_store_n(&hart->bring_up, HART_NOT_STARTED, __ATOMIC_RELEASE);
			hart->start_error = error;
			hart->boot_stack_top = 0;
			page_free_pages(stack, KERNEL_STACK_SIZE / PAGE_SIZE);
		}
	}
	int started = 1;
	for (int i = 1; i < known_harts; i++)
		started += harts[i].boot_stack_top != 0;
	return started;
}

void hart_describe_loss(int index, char *buffer, unsigned long size)
{
	const struct hart *hart = &harts[index];
	static const char *const hsm_states[] = {"started", "stopped", "start pending",
	                                         "stop pending", "suspended"};
	long status = hart->status_at_abandon;
	if (hart->start_error)
		format_buffer(buffer, size, "SBI hart_start failed (%ld)", hart->start_error);
	else if (hart->no_stack)
		format_buffer(buffer, size, "no memory for its boot stack");
	else if (__atomic_load_n(&hart->bring_up, __ATOMIC_ACQUIRE) == HART_ABANDONED)
		/* SBI 2.0, section 9 (HSM): states 0..4; below 0 an SBI error. */
		format_buffer(buffer, size,
		              "started, but not online when the boot hart stopped waiting; SBI "
		              "HSM says %s (%ld)",
		              status >= 0 && status <= 4 ? hsm_states[status] : "an error", status);
	else
		format_buffer(buffer, size, "never asked to start");
}

int hart_count(void)
{
	return known_harts;
}

int harts_online(void)
{
	int online = 0;
	for (int i = 0; i < known_harts; i++)
		online += __atomic_load_n(&harts[i].online, __ATOMIC_ACQUIRE) ? 1 : 0;
	return online;
}

struct hart *hart_by_index(int index)
{
	return &harts[index];
}

void ipi_set_handler(enum ipi_reason reason, void (*handler)(void))
{
	ipi_handlers[reason] = handler;
}

void ipi_send(int hart_index, enum ipi_reason reason)
{
	struct hart *target = &harts[hart_index];
	__atomic_fetch_or(&target->ipi_pending, 1u << reason, __ATOMIC_RELEASE);
	/* hart_mask_base = the target id, mask bit 0: works for any hart id. */
	sbi_send_ipi(1, target->hart_id);
}

void ipi_send_others(enum ipi_reason reason)
{
	struct hart *self = this_hart();
	for (int i = 0; i < known_harts; i++) {
		if (&harts[i] != self && harts[i].online)
			ipi_send(i, reason);
	}
}

void ipi_handle(void)
{
	/* Clear SSIP before reading the reasons so a new IPI is never lost between the two. */
	csr_clear(sip, SIE_SSIE);
	uint32_t pending = __atomic_exchange_n(&this_hart()->ipi_pending, 0, __ATOMIC_ACQUIRE);
	for (int reason = 0; reason < IPI_REASON_COUNT; reason++) {
		if ((pending & (1u << reason)) && ipi_handlers[reason])
			ipi_handlers[reason]();
	}
}

void hart_yield_hint(void)
{
	if (this_hart()->program_timer)
		this_hart()->program_timer(read_time() + 1);
}
