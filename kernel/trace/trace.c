/* The event tracer's rings; see trace.h for the model.
 *
 * One ring per hart: an array of records, a count published with release order, and
 * the epoch it belongs to. Only the owning hart writes its ring (trace_emit, with
 * interrupts masked); readers (trace_copy, trace_get_status) load the epoch and the
 * count with acquire order and read only records below the count, which never change
 * again. trace_reset bumps the global epoch; a ring from an older epoch reads as empty,
 * and its owner empties it for real at its next event.
 *
 * The rings are allocated once, the first time tracing is switched on, and kept: a
 * hart may be inside trace_emit while another switches tracing off, so the memory must
 * stay valid. */
#include "kernel/trace/trace.h"

#include <stddef.h>

#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/lib/format.h"
#include "kernel/mm/page.h"

struct trace_ring {
	struct trace_record *records;
	uint32_t count;   /* records[0 .. count) are published; written by the owner only */
	uint32_t epoch;   /* the epoch count and dropped belong to */
	uint64_t dropped; /* events not recorded because the ring was full */
};

uint8_t trace_on[TRACE_CLASSES];
static uint32_t trace_mask; /* the same as trace_on, as a mask */
static uint32_t epoch;
static uint32_t capacity; /* records per ring; 0 until allocated */
static struct trace_ring rings[MAX_HARTS];

/* Mask interrupts and return the old sstatus.SIE in one instruction (csrrc), so that
 * nothing can come between the test and the masking. */
static inline uint64_t mask_interrupts(void)
{
	uint64_t sstatus;
	__asm__ volatile("csrrc %0, sstatus, %1" : "=r"(sstatus) : "i"(SSTATUS_SIE) : "memory");
	return sstatus & SSTATUS_SIE;
}

static inline void restore_interrupts(uint64_t was_enabled)
{
	if (was_enabled)
		interrupts_enable();
}

void trace_emit(uint32_t event, uint32_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t was_enabled = mask_interrupts();
	struct hart *hart = this_hart();
	struct trace_ring *ring = &rings[hart->index];
	uint32_t now_epoch = __atomic_load_n(&epoch, __ATOMIC_ACQUIRE);
	if (ring->epoch != now_epoch) {
		/* Count first, then epoch: a reader that sees the new epoch sees count 0. */
		__atomic_store_n(&ring->count, 0, __ATOMIC_RELEASE);
		ring->dropped = 0;
		__atomic_store_n(&ring->epoch, now_epoch, __ATOMIC_RELEASE);
	}
	uint32_t slot = ring->count;
	if (!ring->records || slot >= capacity) {
		__atomic_store_n(&ring->dropped, ring->dropped + 1, __ATOMIC_RELAXED);
		restore_interrupts(was_enabled);
		return;
	}
	struct trace_record *record = &ring->records[slot];
	record->ticks = read_time();
	record->event = (uint16_t)event;
	record->hart = (uint16_t)hart->index;
	record->a = a;
	record->b = b;
	record->c = c;
	record->d = d;
	__atomic_store_n(&ring->count, slot + 1, __ATOMIC_RELEASE);
	restore_interrupts(was_enabled);
}

/* Allocate every hart's ring with `records` slots, once. Called by trace_boot on the boot
 * hart and by trace_set_mask from any task; two tasks may get here at once, so the
 * allocation is claimed with a compare-and-swap and the loser waits for the winner
 * (page allocation never sleeps, so that wait is short). */
static bool allocate_rings(uint32_t records)
{
	static uint32_t claimed;
	for (;;) {
		if (__atomic_load_n(&capacity, __ATOMIC_ACQUIRE))
			return true;
		uint32_t free = 0;
		if (__atomic_compare_exchange_n(&claimed, &free, 1, false, __ATOMIC_ACQ_REL,
		                                __ATOMIC_ACQUIRE))
			break;
		cpu_relax();
	}
	uint64_t pages =
	    ((uint64_t)records * sizeof(struct trace_record) + PAGE_SIZE - 1) / PAGE_SIZE;
	for (int i = 0; i < hart_count(); i++) {
		rings[i].records = page_alloc_pages(pages);
		if (!rings[i].records) {
			for (int j = 0; j < i; j++)
				page_free_pages(rings[j].records, pages);
			for (int j = 0; j <= i; j++)
				rings[j].records = 0;
			__atomic_store_n(&claimed, 0, __ATOMIC_RELEASE);
			return false;
		}
	}
	__atomic_store_n(&capacity, records, __ATOMIC_RELEASE);
	return true;
}

/* Publish `mask` to the hooks. Callers: trace_set_mask, trace_boot; tasks or boot. */
static uint32_t publish(uint32_t mask)
{
	for (int i = 0; i < TRACE_CLASSES; i++)
		__atomic_store_n(&trace_on[i], (uint8_t)((mask >> i) & 1), __ATOMIC_RELEASE);
	return __atomic_exchange_n(&trace_mask, mask & TRACE_ALL, __ATOMIC_ACQ_REL);
}

long trace_set_mask(uint32_t mask)
{
	if (mask && !allocate_rings(TRACE_DEFAULT_CAPACITY))
		return -1;
	return (long)publish(mask);
}

void trace_reset(void)
{
	__atomic_fetch_add(&epoch, 1, __ATOMIC_ACQ_REL);
}

/* Records hart `index`'s ring holds in the current epoch. Any context. */
static uint32_t published(const struct trace_ring *ring)
{
	if (__atomic_load_n(&ring->epoch, __ATOMIC_ACQUIRE) !=
	    __atomic_load_n(&epoch, __ATOMIC_ACQUIRE))
		return 0;
	return __atomic_load_n(&ring->count, __ATOMIC_ACQUIRE);
}

void trace_get_status(struct trace_status *status)
{
	*status = (struct trace_status){
	    .mask = __atomic_load_n(&trace_mask, __ATOMIC_RELAXED),
	    .harts = (uint32_t)hart_count(),
	    .capacity = __atomic_load_n(&capacity, __ATOMIC_ACQUIRE),
	};
	for (int i = 0; i < hart_count() && i < TRACE_MAX_HARTS; i++) {
		uint32_t count = published(&rings[i]);
		status->records[i] = count;
		/* A ring from an older epoch has dropped nothing in this one. */
		status->dropped[i] =
		    count || rings[i].epoch == __atomic_load_n(&epoch, __ATOMIC_ACQUIRE)
		        ? __atomic_load_n(&rings[i].dropped, __ATOMIC_RELAXED)
		        : 0;
	}
}

uint32_t trace_copy(uint32_t hart, uint32_t first, struct trace_record *out, uint32_t max)
{
	if (hart >= (uint32_t)hart_count() || !__atomic_load_n(&capacity, __ATOMIC_ACQUIRE))
		return 0;
	uint32_t count = published(&rings[hart]);
	if (first >= count)
		return 0;
	uint32_t copied = count - first < max ? count - first : max;
	for (uint32_t i = 0; i < copied; i++)
		out[i] = rings[hart].records[first + i];
	return copied;
}

/* trace.size=N (records per hart; k/K multiplies by 1024). Returns 0 if malformed. */
static uint32_t parse_size(const char *text)
{
	uint64_t value = 0;
	if (!text || !*text)
		return TRACE_DEFAULT_CAPACITY;
	for (; *text >= '0' && *text <= '9'; text++) {
		value = value * 10 + (uint64_t)(*text - '0');
		if (value > TRACE_MAX_CAPACITY)
			return 0;
	}
	if (*text == 'k' || *text == 'K') {
		value *= 1024;
		text++;
	}
	return *text || value == 0 || value > TRACE_MAX_CAPACITY ? 0 : (uint32_t)value;
}

bool trace_boot(const char *classes, const char *size, char *message, size_t message_size)
{
	uint32_t mask = 0;
	const char *bad = 0;
	if (!classes && !size)
		return false;
	if (classes && !trace_parse_classes(classes, &mask, &bad)) {
		int length = 0;
		while (bad[length] && bad[length] != ',')
			length++;
		format_buffer(message, message_size,
		              "trace=%s: unknown class '%.*s' (console, sched, irq, syscall, wire, "
		              "all); tracing stays off",
		              classes, length, bad);
		return true;
	}
	uint32_t records = parse_size(size);
	if (!records) {
		format_buffer(message, message_size,
		              "trace.size=%s: not a record count (1..%u); tracing stays off", size,
		              TRACE_MAX_CAPACITY);
		return true;
	}
	if (!allocate_rings(records)) {
		format_buffer(message, message_size,
		              "no memory for %u records per hart; tracing stays off", records);
		return true;
	}
	publish(mask);
	format_buffer(message, message_size, "mask %#x, %u records of %u bytes per hart%s", mask,
	              records, (unsigned)sizeof(struct trace_record),
	              mask ? "" : " (off until switched on)");
	return true;
}
