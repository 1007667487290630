/* The async console backend: write() copies into a TX ring and returns; the UART's
 * TX interrupt refills the FIFO from the ring; wakers finish the job.
 *
 * Options (console=async,OPTION[,OPTION]): ring=N  TX ring bytes (power of two,
 * 8 KiB..16 MiB; default 16 KiB per hart, at least 64 KiB); thread  a kernel task, the "copier",
 * moves bytes from the ring to the FIFO instead of the interrupt handler, which only wakes it (the
 * design of the StarryOS driver and of Linux's threaded consoles; every write then goes
 * through the ring, and each FIFO load costs a wake-up and a context switch).
 *
 * The races it is built against (PC16550D; NuttX issue 14662; docs/sources.md):
 *  - THRE behaves like an edge and can be swallowed (a polled IIR read, an interrupt
 *    that fired while TX was disabled): a writer that finds the transmitter idle loads
 *    the FIFO itself ("idle kick") instead of waiting for an interrupt that may never
 *    come.
 *  - TEMT has no interrupt: drain = sleep until the ring and the last FIFO load
 *    should be on the wire (parking until the ring is empty if it is not by then),
 *    then a bounded, sleeping wait for TEMT, an eighth of a character time per look.
 *  - Lost wake-ups: every park uses the waker protocol (WAIT_UNTIL), whose check is
 *    re-done after every wake.
 *  - Kernel log lines from any context: pushed without sleeping when they fit; when
 *    the ring is full they wait in the kernel log's buffer, and the TX interrupt (the
 *    copier) offers them again after each refill, before writers get the room. Panic
 *    output bypasses the ring.
 *
 *  - The direct path: when nothing is queued or sending, a write goes straight into the
 *    FIFO for as long as the UART has room, and only the rest through the ring. A short
 *    write to an idle console then costs no ring copy and no interrupt (a TX interrupt
 *    that finds the ring empty is pure overhead; NuttX 13 takes one per write).
 *
 * Locking: `lock` (spinlock) guards the ring producer side, the TX state and the UART.
 * Writers also hold `writer` (a mutex) for a whole write so that writers waiting for
 * room are served in turn and a write goes in as one piece. */
#include "drivers/console/backend/backend.h"

#include "drivers/console/backend/ring.h"
#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/irq/irq.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/sleep.h"
#include "kernel/sync/mutex.h"
#include "kernel/sync/spinlock.h"
#include "kernel/timer/clock.h"
#include "kernel/trace/trace.h"
#include "kernel/waker/wait_queue.h"
#include "kernel/waker/waker.h"

/* Without ring=N: 16 KiB per hart the device tree names, at least 64 KiB, rounded up
 * to a power of two (1-4 harts: 64 KiB; 5-8: 128 KiB). Every hart can run a writer, so
 * the bursts a ring must absorb without blocking grow with the harts: bench S44's 8
 * writers offer 8 x 12.8 KiB at once. Linux sizes its printk buffer the same way
 * (kernel/printk/printk.c, log_buf_add_cpu: CONFIG_LOG_CPU_MAX_BUF_SHIFT per CPU). */
#define DEFAULT_RING_SIZE (64 * 1024)
#define RING_PER_HART     (16 * 1024)
#define MAX_RING_SIZE     (16u << 20)
#define RX_BATCH          64 /* bytes taken from the receiver per hand-over */
/* tcdrain looks for TEMT this often per character time: it returns at most 1/8 of a
 * character late (11 us at 115200), for a few more short sleeps at the end of a drain. */
#define LOOKS_PER_CHARACTER 8
/* ... but across the instant TEMT is due it spins, from this long before to this long
 * after, because waking from a timer costs more: on the line model at 115200 (QEMU
 * -icount) a drain that slept to the instant returned 2.5 us after it, one that slept to
 * 2 us before and spun returned 0.8 us after, as polling does; a longer window only
 * burns more CPU. */
#define DRAIN_SPIN_NS 2000

static struct uart *uart;
static struct spinlock lock = SPINLOCK_INIT("console async");
static struct mutex writer = MUTEX_INIT("console writer");
static struct ring tx_ring;
static console_receive_fn deliver; /* the core's receiver: every RX byte goes there */
static uint32_t ring_size;         /* 0 until ring=N or async_init's default sets it */
static bool tx_running;            /* the TX interrupt is enabled and will refill the FIFO */
/* IXON ^S / TCOOFF: nothing is loaded into the FIFO. tx_running stays true meanwhile
 * (with the TX interrupt off once one finds output stopped), so that writers queue in
 * the ring and the fast path needs no look at this flag. Under `lock`. */
static bool tx_stopped;
static bool threaded;       /* console=async,thread: the copier task refills the FIFO */
static bool fifo_wanted;    /* threaded: THRE came and the ring has bytes; wakes the copier */
static struct waker copier; /* threaded: the copier task's waker (unbound until start) */
static struct wait_queue room_waiters = {SPINLOCK_INIT("console room"), 0};
static struct wait_queue drain_waiters = {SPINLOCK_INIT("console drain"), 0};
static struct console_telemetry counters;
/* The latest FIFO load, under `lock`: when (raw `time` ticks: every write notes one,
 * and only a drain that has to wait converts it) and how many bytes the FIFO held
 * after it. tcdrain sleeps until they should have left before it starts looking for
 * TEMT. */
static uint64_t last_load_ticks;
static uint32_t last_load_bytes;
/* STOP or START waiting for room in the FIFO, 0 if none (async_send_flow_char; Linux's
 * port->x_char). Under `lock`. */
static uint8_t flow_char;

/* Note a FIFO load of `count` bytes into `room` free bytes. A UART with a TX threshold
 * is refilled before it empties, so the FIFO then holds fifo_depth - room more (with
 * THRE alone room is the whole FIFO and that is 0). Caller holds `lock`. */
static void note_load(uint32_t count, uint32_t room)
{
	last_load_ticks = read_time();
	last_load_bytes = count + (room < uart->fifo_depth ? uart->fifo_depth - room : 0);
	counters.fifo_loads++;
	counters.thr_bytes += count;
}

/* The tracer's records of a refill: the pop (with the ring's fill after it) and the
 * load. Out of line: refill_fifo calls it only while the console class is recorded.
 * Caller holds `lock`. */
static void __attribute__((noinline)) trace_refill(uint32_t count, enum trace_load_path path)
{
	trace_emit(TRACE_RING_POP, count, ring_used(&tx_ring), 0, 0);
	trace_emit(TRACE_FIFO_LOAD, count, path, 0, 0);
}

/* A waiting STOP/START into the FIFO, ahead of the ring, if there is room (as the 8250's
 * serial8250_tx_chars sends port->x_char first). Returns 1 if it went. Caller holds
 * `lock`. */
static uint32_t put_flow_char(void)
{
	if (!flow_char)
		return 0;
	uint32_t room = uart->ops->tx_room(uart);
	if (room == 0)
		return 0;
	uart->ops->put_bytes(uart, &flow_char, 1);
	note_load(1, room);
	counters.flow_chars++;
	flow_char = 0;
	return 1;
}

/* Move up to one FIFO's worth (with a TX threshold: the free space) from the ring to
 * the UART, for `path`, a waiting STOP/START first. Caller holds `lock`. */
static uint32_t refill_fifo(enum trace_load_path path)
{
	uint8_t bytes[256];
	uint32_t sent_flow_char = put_flow_char();
	uint32_t room = uart->ops->tx_room(uart);
	if (room > sizeof bytes)
		room = sizeof bytes;
	uint32_t count = ring_pop(&tx_ring, bytes, room);
	if (count) {
		uart->ops->put_bytes(uart, bytes, count);
		counters.ring_pops++;
		note_load(count, room);
		/* A TX interrupt comes while the last byte before it is still in the shift
		 * register (THRE: the FIFO has emptied into it; a threshold: more are
		 * queued), so tcdrain's wait counts that byte too. A late interrupt makes
		 * the drain at most one character late, never early. */
		if (path == TRACE_LOAD_IRQ)
			last_load_bytes++;
		if (trace_enabled(TRACE_CONSOLE))
			trace_refill(count, path);
	}
	return count + sent_flow_char;
}

/* Start transmission if nothing will do it for us: load what fits now and enable the
 * TX interrupt, whose next THRE refills the rest. Enabling it even when the FIFO is
 * still busy matters: otherwise the bytes would wait for an edge nobody asked for
 * (tests/model/async_tx.pml finds that hang). Caller holds `lock`. */
static void kick_if_idle(void)
{
	if (tx_running || (ring_empty(&tx_ring) && !flow_char))
		return;
	/* Threaded: no refill here. The FIFO is empty, so enabling the interrupt raises
	 * THRE at once, and the handler wakes the copier (waking a task here could
	 * deadlock: the kernel log calls this from any context, scheduler code included). */
	if (!threaded)
		refill_fifo(TRACE_LOAD_KICK);
	counters.idle_kicks++;
	tx_running = true;
	uart->ops->set_tx_interrupt(uart, true);
}

/* RX: everything the receiver holds, to the core's receiver (its line discipline), a
 * batch at a time: taken under `lock`, handed over after letting go of it, since the
 * receiver echoes through async_log_write. Only the UART interrupt calls it, on one hart
 * at a time, so batches arrive in order; they carry the interrupt's dispatch time.
 * Interrupt context. */
static void receive_all(void)
{
	uint64_t received_ticks = irq_entered_ticks();
	uint8_t bytes[RX_BATCH], errors[RX_BATCH];
	size_t count;
	do {
		count = 0;
		spin_lock(&lock);
		while (count < RX_BATCH && uart->ops->rx_ready(uart)) {
			errors[count] = 0;
			bytes[count] = uart->ops->get_byte(uart, &errors[count]);
			if (errors[count] & UART_ERROR_OVERRUN)
				counters.rx_overruns++;
			if (errors[count] & ~UART_ERROR_OVERRUN)
				counters.rx_errors++;
			count++;
		}
		counters.rx_bytes += count;
		spin_unlock(&lock);
		if (count)
			deliver(bytes, errors, count, received_ticks);
	} while (count == RX_BATCH);
}

/* The UART interrupt, on the hart the PLIC routes it to. */
static void uart_interrupt(void *context)
{
	(void)context;
	bool wake_room = false, wake_drain = false, wake_copier = false;

	spin_lock(&lock);
	uint32_t events = uart->ops->acknowledge(uart);
	trace_event(TRACE_UART_IRQ, events, 0, 0, 0);
	/* STOP/START go even while output is stopped, and before the copier's refill. */
	if (events & UART_EVENT_TX_READY)
		put_flow_char();
	if ((events & UART_EVENT_TX_READY) && tx_stopped) {
		counters.thre_interrupts++;
		uart->ops->set_tx_interrupt(uart, false); /* held: async_set_output_stopped */
	} else if ((events & UART_EVENT_TX_READY) && threaded) {
		counters.thre_interrupts++;
		/* Off until the copier has loaded the FIFO again. */
		uart->ops->set_tx_interrupt(uart, false);
		if (ring_empty(&tx_ring)) {
			tx_running = false;
			wake_drain = true;
		} else {
			fifo_wanted = true;
			wake_copier = true;
		}
	} else if (events & UART_EVENT_TX_READY) {
		counters.thre_interrupts++;
		/* Decide from this refill alone: stop only when it found nothing to send
		 * (the FIFO is empty and so is the ring), never on a second look. */
		if (refill_fifo(TRACE_LOAD_IRQ) == 0) {
			tx_running = false;
			uart->ops->set_tx_interrupt(uart, false);
		}
		wake_drain = ring_empty(&tx_ring);
		wake_room = true;
	}
	spin_unlock(&lock);
	/* Room first for kernel log lines waiting in the log buffer, then for writers. */
	if (wake_room && log_console_behind())
		log_flush_console();
	if (wake_copier) {
		waker_wake(&copier);
		counters.wakeups++;
	}
	if (wake_room)
		counters.wakeups += (uint64_t)wait_queue_wake_all(&room_waiters);
	if (wake_drain)
		counters.wakeups += (uint64_t)wait_queue_wake_all(&drain_waiters);
	if (events & (UART_EVENT_RX_READY | UART_EVENT_LINE))
		receive_all();
}

/* One option: "thread" or "ring=N". Returns false for anything else. */
static bool parse_option(const char *option, size_t length)
{
	if (length == 6 && strncmp(option, "thread", 6) == 0) {
		threaded = true;
		return true;
	}
	if (length <= 5 || strncmp(option, "ring=", 5) != 0)
		return false;
	uint64_t size = 0;
	for (size_t i = 5; i < length; i++) {
		if (option[i] < '0' || option[i] > '9')
			return false;
		size = size * 10 + (uint64_t)(option[i] - '0');
		if (size > MAX_RING_SIZE)
			return false;
	}
	if (size < CONSOLE_ATOMIC_MAX || (size & (size - 1)))
		return false;
	ring_size = (uint32_t)size;
	return true;
}

/* The ring's size without ring=N: see DEFAULT_RING_SIZE. */
static uint32_t default_ring_size(int harts)
{
	uint64_t wanted = (uint64_t)RING_PER_HART * (uint64_t)(harts > 0 ? harts : 1);
	uint32_t size = DEFAULT_RING_SIZE;
	while (size < wanted && size < MAX_RING_SIZE)
		size <<= 1;
	return size;
}

static int async_init(struct uart *console_uart, const char *options, console_receive_fn receive)
{
	uart = console_uart;
	deliver = receive;
	ring_size = 0;
	while (*options) {
		size_t length = 0;
		while (options[length] && options[length] != ',')
			length++;
		if (!parse_option(options, length))
			return -1;
		options += length;
		if (*options == ',')
			options++;
	}
	if (!ring_size)
		ring_size = default_ring_size(hart_count());
	uint8_t *tx_memory = page_alloc_pages(ring_size / PAGE_SIZE);
	if (!tx_memory) {
		log_printf("console: async: no memory for its ring\n");
		return -2;
	}
	ring_init(&tx_ring, tx_memory, ring_size);
	/* A tree whose UART interrupt Duplex could not read (irq 0) is not an option
	 * problem: say so, so that the fallback to polling is explained. */
	if (uart->irq == 0) {
		log_printf("console: async: the UART has no interrupt in the device tree "
		           "(neither interrupts nor interrupts-extended)\n");
		return -2;
	}
	if (irq_register(uart->irq, uart_interrupt, 0, 0) != 0) {
		log_printf("console: async: irq %u cannot be registered\n", uart->irq);
		return -2;
	}
	/* The last firmware-console print (the "UART up" breadcrumb) is behind us: from here
	 * Duplex alone drives the UART, so the driver may use its TX threshold (DW PTIME).
	 * kernel/boot hands it back before any later SBI console or reset call. */
	uart_set_sole_driver(uart, true);
	uart->ops->set_rx_interrupt(uart, true);
	return 0;
}

static void async_describe(char *buffer, size_t size)
{
	/* With a TX threshold the interrupt comes while the FIFO still holds that many. */
	char when[40] = "";
	if (uart->tx_threshold)
		format_buffer(when, sizeof when, " at <= %u queued", uart->tx_threshold);
	uint32_t refill = uart->fifo_depth - uart->tx_threshold;
	if (threaded)
		format_buffer(buffer, size,
		              "async,thread,ring=%u (a kernel task refills up to %u bytes per "
		              "TX interrupt%s, irq %u)",
		              ring_size, refill, when, uart->irq);
	else
		format_buffer(buffer, size,
		              "async,ring=%u (TX interrupt%s refills up to %u bytes, irq %u)",
		              ring_size, when, refill, uart->irq);
}

static bool copier_has_work(void)
{
	return __atomic_load_n(&fifo_wanted, __ATOMIC_ACQUIRE);
}

/* console=async,thread: the copier. Woken by the TX interrupt (fifo_wanted), it loads
 * one FIFO's worth, re-enables the interrupt for the next THRE and wakes writers
 * waiting for room and, once the ring is empty, drainers. Any hart; sleeps. */
static void copier_main(void *argument)
{
	(void)argument;
	waker_init(&copier);
	for (;;) {
		trace_event(TRACE_COPIER_SLEEP, 0, 0, 0, 0);
		WAIT_UNTIL(copier_has_work());
		trace_event(TRACE_COPIER_WAKE, 0, 0, 0, 0);
		spin_lock(&lock);
		fifo_wanted = false;
		if (!tx_stopped) /* woken before ^S came: load nothing */
			refill_fifo(TRACE_LOAD_COPIER);
		bool drained = ring_empty(&tx_ring);
		uart->ops->set_tx_interrupt(uart, true);
		spin_unlock(&lock);
		if (log_console_behind())
			log_flush_console();
		counters.wakeups += (uint64_t)wait_queue_wake_all(&room_waiters);
		if (drained)
			counters.wakeups += (uint64_t)wait_queue_wake_all(&drain_waiters);
	}
}

/* From the init task: the threaded variant's copier. Bytes logged before it runs wait
 * in the ring (the interrupt leaves fifo_wanted set for it). */
static void async_start(void)
{
	if (threaded && !task_create("console copier", copier_main, 0, ALL_HARTS))
		log_printf("console: no memory for the copier task; output will stop\n");
}

static bool room_for(void *argument)
{
	return ring_free(&tx_ring) >= (uint32_t)(uintptr_t)argument;
}

/* The direct path: load the FIFO from `data` for as long as the UART takes bytes (on
 * QEMU, whose UART sends at once, the whole write; on a real one, a FIFO's worth).
 * Returns the bytes loaded. Caller holds `lock`, has checked that the ring is empty and
 * TX not running. `traced` is a constant in each caller below, so the untraced loop has
 * no tracer test in it. */
static inline __attribute__((always_inline)) size_t load_direct(const uint8_t *data, size_t length,
                                                                bool traced)
{
	size_t done = 0;
	while (done < length) {
		uint32_t room = uart->ops->tx_room(uart);
		if (room == 0)
			break;
		uint32_t count = room < length - done ? room : (uint32_t)(length - done);
		uart->ops->put_bytes(uart, data + done, count);
		note_load(count, room);
		if (traced)
			trace_emit(TRACE_FIFO_LOAD, count, TRACE_LOAD_DIRECT, 0, 0);
		done += count;
	}
	if (done)
		counters.direct_writes++;
	return done;
}

/* load_direct while the tracer records the console: one record per load. */
static size_t __attribute__((noinline)) put_direct_traced(const uint8_t *data, size_t length)
{
	return load_direct(data, length, true);
}

static size_t put_direct(const uint8_t *data, size_t length)
{
	if (trace_enabled(TRACE_CONSOLE))
		return put_direct_traced(data, length);
	return load_direct(data, length, false);
}

/* async_write's general case: what the fast path below did not take (the console is
 * busy, the write is longer than the FIFO's room, the tracer records the console), and
 * every write when the copier refills. Entered holding `writer` and `lock` if
 * `holding_locks`, else it takes them; it lets both go. As much as fits goes straight
 * into an idle FIFO, the rest into the ring, waiting for room unless `nonblocking`.
 * Task context; may sleep. */
static long __attribute__((noinline))
write_through_ring(const uint8_t *data, size_t length, bool nonblocking, bool holding_locks)
{
	size_t written_direct = 0;
	if (!holding_locks) {
		int locked = mutex_lock_for_call(&writer, nonblocking);
		if (locked)
			return locked;
		spin_lock(&lock);
	}
	for (;;) { /* holding `lock` */
		if (!threaded && !tx_running && ring_empty(&tx_ring)) {
			/* Nothing queued, nothing sending: straight into the FIFO while it has
			 * room, no ring and no interrupt; what does not fit goes through the
			 * ring as usual. The order of bytes cannot change, since the ring is
			 * empty and every other path takes `lock`. */
			size_t done = put_direct(data, length);
			if (done == length) {
				counters.write_calls++;
				counters.bytes_written += length;
				spin_unlock(&lock);
				mutex_unlock(&writer);
				return (long)length;
			}
			if (done) {
				/* The rest fits, since the ring is empty (length <=
				 * CONSOLE_ATOMIC_MAX <= the ring): queue it below. */
				counters.bytes_written += done;
				data += done;
				length -= done;
				written_direct = done;
			}
		}
		if (ring_free(&tx_ring) >= length)
			break;
		kick_if_idle(); /* make sure the ring is draining while we wait */
		spin_unlock(&lock);
		if (nonblocking) {
			mutex_unlock(&writer);
			return -EAGAIN;
		}
		/* A signal ends the wait (POSIX write: EINTR before any byte went, else the
		 * count; SA_RESTART restarts the call when none did). */
		if (wait_queue_wait_interruptible(&room_waiters, room_for,
		                                  (void *)(uintptr_t)length)) {
			mutex_unlock(&writer);
			return written_direct ? (long)written_direct : -ERESTARTSYS;
		}
		spin_lock(&lock);
	}
	ring_push(&tx_ring, data, (uint32_t)length);
	if (trace_enabled(TRACE_CONSOLE)) /* ring_used is an atomic load: only when recorded */
		trace_emit(TRACE_RING_PUSH, (uint32_t)length, ring_used(&tx_ring), 0, 0);
	counters.write_calls++;
	counters.bytes_written += length;
	counters.ring_pushes++;
	kick_if_idle();
	spin_unlock(&lock);
	mutex_unlock(&writer);
	return (long)(length + written_direct);
}

/* The console's write. The fast path is the common case: an idle console (nothing
 * queued, nothing sending) and a write that fits in the FIFO's room, which is every
 * short write on QEMU, whose UART sends at once, and a line at a time on a board. It
 * goes into the FIFO in one load, and is kept apart from write_through_ring's loop so
 * that a 1-byte write saves few registers and makes no second look (about 30
 * instructions fewer under QEMU). Task context; may sleep unless `nonblocking`. */
static long async_write(const uint8_t *data, size_t length, bool nonblocking)
{
	if (threaded) /* every write goes through the ring: no fast path to look for */
		return write_through_ring(data, length, nonblocking, false);
	/* `writer` is held for a whole write, so another writer waits for it: EAGAIN under
	 * O_NONBLOCK, and a signal ends the wait (EINTR, nothing queued). */
	int locked = mutex_lock_for_call(&writer, nonblocking);
	if (locked)
		return locked;
	spin_lock(&lock);
	if (!tx_running && ring_empty(&tx_ring) && !trace_enabled(TRACE_CONSOLE)) {
		uint32_t room = uart->ops->tx_room(uart);
		if (length <= room) {
			uart->ops->put_bytes(uart, data, (uint32_t)length);
			note_load((uint32_t)length, room);
			counters.direct_writes++;
			counters.write_calls++;
			counters.bytes_written += length;
			spin_unlock(&lock);
			mutex_unlock(&writer);
			return (long)length;
		}
	}
	return write_through_ring(data, length, nonblocking, true);
}

static bool ring_drained(void *argument)
{
	(void)argument;
	return ring_empty(&tx_ring);
}

/* async_drain's waiting part: the ring still holds bytes or the UART is still sending.
 * A signal for the caller ends it with -ERESTARTSYS (tcdrain's EINTR, or a restart under
 * SA_RESTART; Linux tty_wait_until_sent waits interruptibly too); the short looks for
 * TEMT at the end are not interrupted. Task context; sleeps. */
static int __attribute__((noinline)) drain_wait(void)
{
	uint64_t character_ns = uart->baud ? 10ull * 1000000000ull / uart->baud : 100000;
	uint64_t look_ns = character_ns / LOOKS_PER_CHARACTER;
	for (;;) {
		if (!ring_empty(&tx_ring)) {
			counters.drain_waits++;
			spin_lock(&lock);
			kick_if_idle();
			uint64_t load_ticks = last_load_ticks;
			uint64_t queued = (uint64_t)last_load_bytes + ring_used(&tx_ring);
			spin_unlock(&lock);
			/* The ring and the last load leave back to back: sleep straight to just
			 * before they should all be on the wire, instead of parking until the
			 * refill that empties the ring wakes us only to sleep again (a wake-up
			 * and two switches per drain). Woken while the ring still holds bytes
			 * (the wire slower than its baud, or more written meanwhile), park
			 * for it as before. Not with the copier: it loads each FIFO a wake-up
			 * after THRE, so the wire has gaps the estimate cannot see. */
			uint64_t done_ns = clock_ticks_to_ns(load_ticks) + queued * character_ns;
			if (!threaded && done_ns > clock_now_ns() + DRAIN_SPIN_NS) {
				trace_event(TRACE_DRAIN_PARK, TRACE_DRAIN_WIRE, 0, 0, 0);
				int interrupted =
				    sleep_until_interruptible(done_ns - DRAIN_SPIN_NS);
				trace_event(TRACE_DRAIN_WAKE, 0, 0, 0, 0);
				if (interrupted)
					return -ERESTARTSYS;
			}
			if (!ring_empty(&tx_ring)) {
				trace_event(TRACE_DRAIN_PARK, TRACE_DRAIN_RING, 0, 0, 0);
				int interrupted =
				    wait_queue_wait_interruptible(&drain_waiters, ring_drained, 0);
				trace_event(TRACE_DRAIN_WAKE, 0, 0, 0, 0);
				if (interrupted)
					return -ERESTARTSYS;
			}
		}
		/* TEMT has no interrupt. Look now (a UART that sends at once, as QEMU's,
		 * is done already). Otherwise the last load's bytes cannot be gone before
		 * `expected` (one more may have been in the shift register): sleep until
		 * just before, then look LOOKS_PER_CHARACTER times per character time, for at
		 * most a FIFO's worth of characters plus the shift register. Other writers
		 * may refill the ring meanwhile: then wait for it again. Only a transmitter
		 * that stays busy with nothing queued is stuck. */
		bool refilled = false;
		uint32_t looks = (uart->fifo_depth + 2) * LOOKS_PER_CHARACTER;
		for (uint32_t look = 0; look <= looks;) {
			spin_lock(&lock);
			bool idle = uart->ops->tx_idle(uart);
			refilled = !ring_empty(&tx_ring);
			uint64_t load_ticks = last_load_ticks;
			uint32_t load_bytes = last_load_bytes;
			spin_unlock(&lock);
			uint64_t expected =
			    clock_ticks_to_ns(load_ticks) + (uint64_t)load_bytes * character_ns;
			if (idle && !refilled) {
				trace_event(TRACE_TEMT_SEEN, look + 1, 0, 0, 0);
				return 0;
			}
			if (refilled)
				break;
			/* Sleep to just before TEMT is due, spin across the moment itself (a
			 * timer wake-up costs more than DRAIN_SPIN_NS), then, if the UART is
			 * still busy, look every look_ns (those looks are what is bounded). */
			uint64_t now = clock_now_ns();
			if (expected > now + DRAIN_SPIN_NS) {
				trace_event(TRACE_DRAIN_PARK, TRACE_DRAIN_WIRE, 0, 0, 0);
				int interrupted =
				    sleep_until_interruptible(expected - DRAIN_SPIN_NS);
				trace_event(TRACE_DRAIN_WAKE, 0, 0, 0, 0);
				if (interrupted)
					return -ERESTARTSYS;
			} else if (now < expected + DRAIN_SPIN_NS) {
				cpu_relax();
			} else {
				trace_event(TRACE_DRAIN_PARK, TRACE_DRAIN_LOOK, 0, 0, 0);
				sleep_for(look_ns);
				trace_event(TRACE_DRAIN_WAKE, 0, 0, 0, 0);
				look++;
			}
		}
		if (!refilled)
			return -EIO;
	}
}

/* tcdrain. Most drains find the console idle already (on QEMU, whose UART sends at
 * once, every one after a direct write): one look under the lock, no sleeping, none of
 * the timing below. Task context; may sleep. */
static int async_drain(void)
{
	spin_lock(&lock);
	bool idle = ring_empty(&tx_ring) && uart->ops->tx_idle(uart);
	spin_unlock(&lock);
	if (!idle)
		return drain_wait();
	trace_event(TRACE_TEMT_SEEN, 1, 0, 0, 0);
	return 0;
}

/* Writers wait on `writer`; a kernel log line can still be queued between the drain
 * and the lock, so the last look is under the lock, and the drain is repeated until the
 * ring and the UART are both empty there. */
static long async_set_baud(uint32_t baud)
{
	long result;
	mutex_lock(&writer);
	for (;;) {
		int drained = async_drain();
		spin_lock(&lock);
		if (ring_empty(&tx_ring) && uart->ops->tx_idle(uart)) {
			uint32_t in_force = uart_set_baud(uart, baud);
			spin_unlock(&lock);
			result = in_force ? (long)in_force : -EINVAL;
			break;
		}
		spin_unlock(&lock);
		if (drained != 0) {
			result = drained;
			break;
		}
	}
	mutex_unlock(&writer);
	return result;
}

/* ops->set_output_stopped. Stopping holds tx_running true, so every write queues in
 * the ring; the next TX interrupt finds tx_stopped and turns itself off. Going on lets
 * go of the hold and kicks the transmitter as an idle one. Any context. */
static void async_set_output_stopped(bool stopped)
{
	spin_lock(&lock);
	if (stopped && !tx_stopped) {
		tx_stopped = true;
		tx_running = true;
	} else if (!stopped && tx_stopped) {
		tx_stopped = false;
		tx_running = false;
		uart->ops->set_tx_interrupt(uart, false); /* a fresh 0 -> 1 for kick_if_idle */
		kick_if_idle();
	}
	spin_unlock(&lock);
}

/* ops->send_flow_char: into the FIFO now if it has room, else kept for the next THRE,
 * whose interrupt sends it before any ring byte (and, output stopped or the ring empty,
 * alone); the TX interrupt is turned on for it if nothing else keeps it on. Any
 * context. */
static void async_send_flow_char(uint8_t byte)
{
	spin_lock(&lock);
	flow_char = byte;
	if (!put_flow_char() && (!tx_running || tx_stopped)) {
		tx_running = true;
		uart->ops->set_tx_interrupt(uart, true);
	}
	spin_unlock(&lock);
}

/* ops->flush_output: the ring's bytes are dropped (what is in the FIFO still goes);
 * writers waiting for room and drainers are woken. Any context. */
static void async_flush_output(void)
{
	spin_lock(&lock);
	ring_discard(&tx_ring);
	spin_unlock(&lock);
	counters.wakeups += (uint64_t)wait_queue_wake_all(&room_waiters);
	counters.wakeups += (uint64_t)wait_queue_wake_all(&drain_waiters);
}

static bool async_set_break(bool on)
{
	spin_lock(&lock);
	bool done = uart_set_break(uart, on);
	spin_unlock(&lock);
	return done;
}

/* Room in the TX ring (what poll's POLLOUT asks). Any context: an onlooker's snapshot
 * (ring_used, which is safe against both sides, not the producer's ring_free). */
static size_t async_output_room(void)
{
	return tx_ring.capacity - ring_used(&tx_ring);
}

/* Ring bytes, plus one while the UART itself still holds some (it cannot say how
 * many), so that 0 means "all sent" as after tcdrain. */
static size_t async_output_queued(void)
{
	spin_lock(&lock);
	size_t queued = ring_used(&tx_ring) + (uart->ops->tx_idle(uart) ? 0 : 1);
	spin_unlock(&lock);
	return queued;
}

/* A kernel log line: into the ring if it fits, else false; the log keeps it and the TX
 * interrupt (or the copier) offers it again once a refill has made room. Any context. */
static bool async_log_write(const char *text, size_t length)
{
	spin_lock(&lock);
	bool fits = ring_free(&tx_ring) >= length;
	if (fits) {
		ring_push(&tx_ring, (const uint8_t *)text, (uint32_t)length);
		if (trace_enabled(TRACE_CONSOLE))
			trace_emit(TRACE_RING_PUSH, (uint32_t)length, ring_used(&tx_ring), 0, 0);
		counters.ring_pushes++;
	}
	kick_if_idle(); /* a full ring is draining, so room will come */
	spin_unlock(&lock);
	return fits;
}

/* How long an emergency write waits for `lock` before deciding its holder is dead. A
 * live holder keeps it for one refill or one ring push (microseconds): spinlocks mask
 * interrupts, so even a hart that panic's IPI_STOP is on its way to releases the lock
 * before it stops. */
#define EMERGENCY_LOCK_PATIENCE_NS 10000000ull

/* Set once an emergency write gave up on `lock`: the later lines of the same report
 * then go straight out instead of waiting again. */
static bool lock_given_up;

/* Take `lock` for an emergency write, unless this hart already holds it (a panic inside
 * the backend) or its holder has not let go within EMERGENCY_LOCK_PATIENCE_NS (it
 * faulted while holding it). Returns whether it was taken. Called by
 * async_emergency_write, any context. */
static bool emergency_lock(void)
{
	if (lock_given_up || spin_is_held_here(&lock))
		return false;
	uint64_t give_up = clock_now_ns() + EMERGENCY_LOCK_PATIENCE_NS;
	while (!spin_trylock(&lock)) {
		if (clock_now_ns() >= give_up) {
			lock_given_up = true;
			return false;
		}
	}
	return true;
}

/* Panic, power-off and the TX check's failure report: send what is queued, then the
 * text, all polled. The ring has one consumer at a time: under the lock when it can be
 * had, since another hart's TX interrupt or copier may be popping it at this moment
 * (two consumers would send bytes twice or skip them); without it only when its holder
 * is dead. The TX interrupt stays as it was, so the ring path can carry on. */
static void async_emergency_write(const char *text, size_t length)
{
	bool locked = emergency_lock();
	uint8_t bytes[256];
	uint32_t count;
	while ((count = ring_pop(&tx_ring, bytes, sizeof bytes)) > 0)
		uart_write_polled(uart, (const char *)bytes, count);
	uart_write_polled(uart, text, length);
	if (locked)
		spin_unlock(&lock);
}

/* ops->tx_interrupt_check. With nothing in flight, enabling the TX interrupt while the
 * transmitter is empty raises it at once [PC16550D table 4, THRE]; with output in
 * flight it comes when the FIFO drains. Either way the handler counts it. Polls with
 * sleeps, so as not to depend on a wake-up from the interrupt under test.
 * The patience counts only time in which the UART has room (THRE): before that the
 * interrupt is not due. Under QEMU the UART holds its bytes while the host is slow to
 * take them from the serial socket, and with -icount sleep=off the guest's sleeps skip
 * ahead meanwhile, so 200 ms of guest time can pass before the boot log's last bytes
 * leave; counting that time failed the check on a loaded host. A UART that never has
 * room keeps every other path mute too (the polled log spins on THRE as well). */
static bool async_tx_interrupt_check(uint64_t patience_ns)
{
	spin_lock(&lock);
	uint64_t before = counters.thre_interrupts;
	if (!tx_running) {
		tx_running = true;
		uart->ops->set_tx_interrupt(uart, true);
	}
	spin_unlock(&lock);
	uint64_t waited_with_room = 0, waited = 0, last = clock_now_ns();
	while (__atomic_load_n(&counters.thre_interrupts, __ATOMIC_RELAXED) == before) {
		spin_lock(&lock);
		bool room = uart->ops->tx_room(uart) > 0;
		spin_unlock(&lock);
		sleep_for(1000000);
		uint64_t now = clock_now_ns();
		waited += now - last;
		if (room)
			waited_with_room += now - last;
		last = now;
		if (waited_with_room >= patience_ns) {
			spin_lock(&lock);
			bool idle = uart->ops->tx_idle(uart);
			spin_unlock(&lock);
			log_printf(
			    "console: async: %lu ms with room in the UART (THRE) and no TX "
			    "interrupt counted (%lu ms in all); irq %u handled %lu times since "
			    "boot; the UART is %s\n",
			    (unsigned long)(waited_with_room / 1000000),
			    (unsigned long)(waited / 1000000), uart->irq,
			    (unsigned long)irq_count(uart->irq),
			    idle ? "idle (TEMT)" : "still sending");
			return false;
		}
	}
	return true;
}

/* ops->stop: interrupts off, the ring sent polled. Received bytes are the line
 * discipline's already, so none is lost. */
static void async_stop(void)
{
	spin_lock(&lock);
	uart->ops->set_tx_interrupt(uart, false);
	uart->ops->set_rx_interrupt(uart, false);
	uart_set_sole_driver(uart, false); /* the polling backend needs no TX threshold */
	tx_running = false;
	if (flow_char) {
		uart_write_polled(uart, (const char *)&flow_char, 1);
		flow_char = 0;
	}
	uint8_t bytes[256];
	uint32_t count;
	while ((count = ring_pop(&tx_ring, bytes, sizeof bytes)) > 0)
		uart_write_polled(uart, (const char *)bytes, count);
	spin_unlock(&lock);
}

static void async_telemetry(struct console_telemetry *out)
{
	*out = counters;
	out->ring_high_water = tx_ring.high_water;
}

static void async_reset_telemetry(void)
{
	memset(&counters, 0, sizeof counters);
	tx_ring.high_water = ring_used(&tx_ring);
}

const struct console_backend_ops console_async_backend = {
    .name = "async",
    .init = async_init,
    .start = async_start,
    .describe = async_describe,
    .write = async_write,
    .drain = async_drain,
    .set_baud = async_set_baud,
    .output_room = async_output_room,
    .output_waiters = &room_waiters,
    .output_queued = async_output_queued,
    .set_output_stopped = async_set_output_stopped,
    .send_flow_char = async_send_flow_char,
    .flush_output = async_flush_output,
    .set_break = async_set_break,
    .log_write = async_log_write,
    .emergency_write = async_emergency_write,
    .telemetry = async_telemetry,
    .reset_telemetry = async_reset_telemetry,
    .tx_interrupt_check = async_tx_interrupt_check,
    .stop = async_stop,
};
