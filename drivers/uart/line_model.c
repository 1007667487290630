/* The line model: a SIMULATION of a serial line, not a driver for any hardware.
 *
 * It wraps a real UART (on QEMU, QEMU's 16550, which sends every byte the instant it is
 * written and so keeps no line time at all). Every byte a backend puts is handed to the
 * real UART at once, so output appears as usual; but what the backends are told — TX
 * FIFO room (THRE), TEMT and the TX interrupt — is what a 16550 on a real wire would
 * report, computed from the clock:
 *   - 8N1: 10 bits per byte, at the modelled baud (an exact fraction, clock / (16 x
 *     divisor), so that no rounding accumulates over a long burst);
 *   - a TX FIFO of the UART's configured depth feeding a transmit shift register. A
 *     byte written to an empty FIFO while the shift register is idle moves into the
 *     shift register at once; every other byte starts the instant the byte before it
 *     ends (no gaps while there is something to send);
 *   - THRE (tx_room = the FIFO depth, else 0) while the FIFO is empty, i.e. once the
 *     last byte written has moved into the shift register; TEMT once its stop bit has
 *     gone too;
 *   - the THRE interrupt, by 16550 rules: pending when the FIFO becomes empty with the
 *     TX interrupt enabled, or at once when it is enabled while the FIFO is empty;
 *     cleared by the acknowledge that reports it, by a THR write (put_bytes), or by
 *     disabling it;
 *   - optionally (uart.line.threshold=N) the DesignWare APB UART's programmable THRE
 *     interrupt mode (IER.PTIME with the FCR "TX empty trigger", TET: Synopsys
 *     DW_apb_uart databook; the Allwinner D1 user manual's UART chapter calls the FCR
 *     field TFT and offers FIFO empty, 2 characters, 1/4 and 1/2 full): the interrupt
 *     comes when the FIFO falls to N bytes or fewer instead of when it is empty, and
 *     tx_room is the FIFO's free space, as a DW UART's TFL register tells it (with
 *     PTIME set, LSR.THRE means "FIFO full" instead, so room must come from TFL). Any
 *     N below the depth is accepted; the DW itself offers only 0, 2, depth/4, depth/2. It is
 * delivered by a one-shot timer at the modelled instant, which runs the UART's registered interrupt
 * handler (irq_raise_software): the backend's own interrupt path, entered as if the PLIC had
 * claimed the UART's source. Occupancy is computed when asked, from "now" and when the last byte
 * will end: there is no per-byte event, and the state is a handful of numbers.
 *
 * What it leaves out (do not read more into its numbers than this):
 *   - only 8N1: no parity, no 1.5/2 stop bits, no other word lengths;
 *   - no flow control (RTS/CTS, XON/XOFF), no break, no line noise or errors;
 *   - RX is not modelled at all: received bytes, RX interrupts and RX errors are the
 *     real UART's, with whatever timing the host gives them;
 *   - host-side pacing: if QEMU's chardev stalls the real UART (a slow reader), the
 *     model waits for it in put_bytes but does not add that time to the wire;
 *   - a real 16550 takes a fraction of a bit time to move a byte from THR to the shift
 *     register, and raises THRE a little after; here both are instantaneous;
 *   - the TX interrupt is re-evaluated only when it is enabled (0 -> 1), as on QEMU,
 *     not on every IER write as on some real 16550s;
 *   - the timer that delivers the TX interrupt fires on the hart that armed it, and the
 *     handler may run on two harts at once (the timer's and the PLIC's, for RX); the
 *     backends lock for that anyway;
 *   - the clock's resolution (100 ns on QEMU's 10 MHz timebase) rounds every observed
 *     instant up to the next tick.
 *
 * Locking: none of its own for the UART operations: like every struct uart, the caller
 * serialises them (the backends' spinlocks). The timer callback runs outside that lock,
 * so what it shares with the operations (tx_event_ns, timer_owned) is atomic.
 *
 * Why timer_owned. A backend calls put_bytes and set_tx_interrupt holding its own
 * spinlock, and those may need the timer armed. timer_start cancels first, and cancelling
 * a timer whose callback is running on another hart waits for that callback to return.
 * Our callback runs the backend's interrupt handler, which spins on that same backend
 * spinlock: waiting for it while holding the lock would deadlock. So the timer has one
 * owner at a time — whoever armed it, until its callback has finished with it — and only
 * the owner calls timer_start. An operation that finds the timer owned just stores the
 * new event time; the owning callback looks at tx_event_ns after giving the timer up
 * (and takes it back if needed), so no event is lost: either the operation's
 * compare-and-swap sees the timer free, or the callback's second look sees the new time
 * (both sequentially consistent). An owning callback re-arms its own timer, which never
 * waits. */
#include "drivers/uart/line_model.h"

#include "kernel/irq/irq.h"
#include "kernel/timer/clock.h"
#include "kernel/trace/trace.h"

#define NS_PER_SECOND   1000000000ull
#define PS_PER_NS       1000ull
#define MAX_DIVISOR     0xffff /* DLL and DLM together are 16 bits */
#define SAME_AS_WIRE    1      /* uart.line=1: the real UART's own baud */
#define WIRE_SPIN_LIMIT (1u << 24)

/* ---------------------------------------------------------------- pure arithmetic */

/* The nearest divisor, as the 16550 driver picks it (uart_16550.c nearest_divisor), so
 * that uart.line=B models what uart.baud=B would program. */
struct line_rate line_rate_for(uint32_t clock_hz, uint32_t baud, uint32_t *divisor)
{
	if (clock_hz == 0) {
		*divisor = 0;
		return (struct line_rate){.bits_num = baud, .bits_den = 1};
	}
	uint64_t nearest = ((uint64_t)clock_hz + 8ull * baud) / (16ull * baud);
	if (nearest < 1)
		nearest = 1;
	if (nearest > MAX_DIVISOR)
		nearest = MAX_DIVISOR;
	*divisor = (uint32_t)nearest;
	return (struct line_rate){.bits_num = clock_hz, .bits_den = 16 * nearest};
}

/* One byte time = 10 * bits_den / bits_num s = *whole + *fraction / bits_num ns.
 * 10 * bits_den * 1e9 is at most 10 * 16 * 65535 * 1e9 < 2^64. */
static void byte_time(struct line_rate rate, uint64_t *whole, uint64_t *fraction)
{
	uint64_t scaled = LINE_MODEL_BITS_PER_BYTE * rate.bits_den * NS_PER_SECOND;
	*whole = scaled / rate.bits_num;
	*fraction = scaled % rate.bits_num;
}

uint64_t line_bytes_to_ns(struct line_rate rate, uint64_t bytes)
{
	uint64_t whole, fraction;
	byte_time(rate, &whole, &fraction);
	uint64_t fractions = bytes * fraction; /* both < 2^32 */
	return bytes * whole + fractions / rate.bits_num + (fractions % rate.bits_num != 0);
}

/* |bits_num / bits_den - requested| / requested, in ppm, as exact long division:
 * requested * bits_den < 2^52, so every product below stays under 2^64. */
uint32_t line_rate_error_ppm(struct line_rate rate, uint32_t requested_baud)
{
	if (requested_baud == 0)
		return UINT32_MAX;
	uint64_t wanted = (uint64_t)requested_baud * rate.bits_den;
	uint64_t difference =
	    rate.bits_num > wanted ? rate.bits_num - wanted : wanted - rate.bits_num;
	uint64_t whole = difference / wanted;
	if (whole >= UINT32_MAX / 1000000)
		return UINT32_MAX;
	uint64_t rest = difference % wanted * 1000;
	uint64_t thousandths = rest / wanted;
	uint64_t millionths = rest % wanted * 1000 / wanted;
	return (uint32_t)(whole * 1000000 + thousandths * 1000 + millionths);
}

bool line_rate_is_off(struct line_rate rate, uint32_t requested_baud)
{
	return line_rate_error_ppm(rate, requested_baud) > LINE_MODEL_BAUD_TOLERANCE_PPM;
}

void line_transmitter_init(struct line_transmitter *tx, struct line_rate rate, uint32_t fifo_depth)
{
	*tx = (struct line_transmitter){.rate = rate, .fifo_depth = fifo_depth};
	byte_time(rate, &tx->byte_ns, &tx->byte_frac);
}

/* The FIFO holds `level` bytes or fewer once at most level + 1 are unfinished (one is
 * in the shift register): from (level + 1) byte times before the last one ends. Whole
 * ns and fractions apart, so that nothing overflows however long the run. */
uint64_t line_level_reached_ns(const struct line_transmitter *tx, uint64_t level)
{
	uint64_t num = tx->rate.bits_num;
	uint64_t bytes = level + 1;
	uint64_t fractions = bytes * tx->byte_frac; /* level < 2^32, byte_frac < 2^32 */
	uint64_t back_ns = bytes * tx->byte_ns + fractions / num;
	uint64_t back_frac = fractions % num;
	uint64_t at_ns = tx->end_ns, at_frac = tx->end_frac;
	if (at_frac < back_frac) {
		if (at_ns == 0)
			return 0;
		at_frac += num;
		at_ns--;
	}
	at_frac -= back_frac;
	if (at_ns < back_ns)
		return 0;
	return at_ns - back_ns + (at_frac != 0);
}

bool line_fifo_empty(const struct line_transmitter *tx, uint64_t now_ns)
{
	return now_ns >= tx->fifo_empty_ns;
}

bool line_transmitter_idle(const struct line_transmitter *tx, uint64_t now_ns)
{
	return now_ns >= tx->idle_ns;
}

/* The bytes not yet finished at now_ns are ceil((end - now) / byte time); one of them
 * is in the shift register, the rest wait in the FIFO. In units of 1 / bits_num ns:
 * ((end_ns - now) * bits_num + end_frac) / (10 * bits_den * 1e9). */
uint64_t line_fifo_level(const struct line_transmitter *tx, uint64_t now_ns)
{
	if (line_fifo_empty(tx, now_ns))
		return 0;
	uint64_t ahead_ns = tx->end_ns - now_ns; /* now < fifo_empty_ns <= end_ns */
	uint64_t num = tx->rate.bits_num;
	if (ahead_ns > (UINT64_MAX - tx->end_frac) / num)
		return UINT64_MAX; /* years of bytes queued: only a runaway caller gets here */
	uint64_t ahead = ahead_ns * num + tx->end_frac;
	uint64_t per_byte = LINE_MODEL_BITS_PER_BYTE * tx->rate.bits_den * NS_PER_SECOND;
	uint64_t unfinished = ahead / per_byte + (ahead % per_byte != 0);
	return unfinished - 1;
}

uint64_t line_transmitter_write(struct line_transmitter *tx, uint64_t now_ns, uint64_t count)
{
	if (count == 0)
		return 0;
	uint64_t num = tx->rate.bits_num;
	/* Idle: the first byte goes straight into the shift register and starts now.
	 * Busy: the bytes queue behind the last one, whose end is where they start. */
	if (line_transmitter_idle(tx, now_ns)) {
		tx->end_ns = now_ns;
		tx->end_frac = 0;
	}
	uint64_t fractions = tx->end_frac + count * tx->byte_frac; /* < 2^32 + 2^64 - 2^33 */
	tx->end_ns += count * tx->byte_ns + fractions / num;
	tx->end_frac = fractions % num;
	tx->idle_ns = tx->end_ns + (tx->end_frac != 0);
	/* The last byte moves into the shift register one byte time before it ends. */
	tx->fifo_empty_ns = line_level_reached_ns(tx, 0);

	uint64_t level = line_fifo_level(tx, now_ns);
	if (level <= tx->fifo_depth)
		return 0;
	return level - tx->fifo_depth < count ? level - tx->fifo_depth : count;
}

/* ---------------------------------------------------------------- the TX interrupt */

static uint64_t event_time(struct line_model *model)
{
	return __atomic_load_n(&model->tx_event_ns, __ATOMIC_SEQ_CST);
}

static bool take_timer(struct line_model *model)
{
	uint32_t free = 0;
	return __atomic_compare_exchange_n(&model->timer_owned, &free, 1, false, __ATOMIC_SEQ_CST,
	                                   __ATOMIC_SEQ_CST);
}

/* Called by the operations (caller's lock held, any hart) after changing tx_event_ns:
 * arm the timer for it if nobody owns the timer; if the timer callback owns it, that
 * callback looks at tx_event_ns again before it lets go (see the top of this file). */
static void set_event_time(struct line_model *model, uint64_t event_ns)
{
	__atomic_store_n(&model->tx_event_ns, event_ns, __ATOMIC_SEQ_CST);
	if (event_ns == LINE_MODEL_NEVER || !take_timer(model))
		return;
	timer_start(&model->timer, event_ns);
}

/* The timer callback, in interrupt context on the hart that armed the timer, which this
 * callback owns: deliver the TX interrupt if it is due (an earlier deadline than the
 * event happens when bytes were added after arming), then hand the timer on. */
static void tx_event_due(struct timer *timer)
{
	struct line_model *model = timer->context;
	uint64_t event_ns = event_time(model);
	if (event_ns != LINE_MODEL_NEVER && clock_now_ns() >= event_ns) {
		if (irq_raise_software(model->uart.irq)) {
			__atomic_fetch_add(&model->tx_events, 1, __ATOMIC_RELAXED);
		} else {
			/* No handler: like a source the PLIC does not pass on. Forget the
			 * event (unless an operation moved it) rather than re-arm for it
			 * for ever; the next THR write or enable brings another. */
			__atomic_compare_exchange_n(&model->tx_event_ns, &event_ns,
			                            LINE_MODEL_NEVER, false, __ATOMIC_SEQ_CST,
			                            __ATOMIC_SEQ_CST);
		}
	} else if (event_ns != LINE_MODEL_NEVER) {
		model->early_timer_runs++;
	}
	/* Let go, then look: an operation that found the timer owned meanwhile left its
	 * time in tx_event_ns. Re-arming our own timer from its callback never waits. */
	for (;;) {
		__atomic_store_n(&model->timer_owned, 0, __ATOMIC_SEQ_CST);
		if (event_time(model) == LINE_MODEL_NEVER || !take_timer(model))
			return;
		event_ns = event_time(model);
		if (event_ns != LINE_MODEL_NEVER) {
			timer_start(&model->timer, event_ns);
			return;
		}
	}
}

/* ---------------------------------------------------------------- the UART operations */

static struct line_model *model_of(struct uart *uart)
{
	return uart->hardware;
}

/* ops->tx_room: a 16550 without FIFO-level registers only says THRE: a whole FIFO's
 * worth of room when the modelled FIFO is empty, none otherwise. With a threshold, the
 * free space, as a DW UART's TFL gives it. */
static uint32_t line_tx_room(struct uart *uart)
{
	struct line_model *model = model_of(uart);
	uint64_t now = clock_now_ns();
	if (!uart->tx_threshold)
		return line_fifo_empty(&model->transmitter, now) ? uart->fifo_depth : 0;
	uint64_t level = line_fifo_level(&model->transmitter, now);
	return level < uart->fifo_depth ? uart->fifo_depth - (uint32_t)level : 0;
}

/* When the TX interrupt is next due by the FIFO alone: it empties, or falls to the
 * threshold. */
static uint64_t fifo_event_ns(struct line_model *model)
{
	return line_level_reached_ns(&model->transmitter, model->uart.tx_threshold);
}

/* Hand bytes to the real UART as fast as it takes them (at once on QEMU, unless the
 * host stalls the chardev). Bounded: a wedged real UART loses bytes rather than
 * hanging the caller, who may hold a spinlock. */
static void send_on_wire(struct line_model *model, const uint8_t *bytes, uint32_t count)
{
	struct uart *wire = model->wire;
	uint32_t spins = 0;
	while (count > 0) {
		uint32_t room = wire->ops->tx_room(wire);
		if (room == 0) {
			model->wire_waits++;
			if (++spins < WIRE_SPIN_LIMIT)
				continue;
			room = count; /* give up waiting: let the real UART drop what it must */
		}
		if (room > count)
			room = count;
		wire->ops->put_bytes(wire, bytes, room);
		bytes += room;
		count -= room;
	}
}

/* The tracer's wire record for a load of `count` bytes at `now`, just scheduled: they
 * leave back to back and the last ends at idle_ns, so the first starts `count` byte
 * times before (to the ns). Also the FIFO level after. Called by line_put_bytes when the
 * wire class is on; caller holds the backend's lock. */
static void __attribute__((noinline))
trace_wire_load(const struct line_transmitter *tx, uint64_t now, uint32_t count)
{
	uint64_t start = tx->idle_ns - line_bytes_to_ns(tx->rate, count);
	uint64_t level = line_fifo_level(tx, now);
	trace_emit(TRACE_WIRE_LOAD, count | (uint32_t)(level < 0xffff ? level : 0xffff) << 16, now,
	           start, tx->idle_ns);
}

/* ops->put_bytes: schedule the bytes on the modelled wire and send them for real. A THR
 * write clears a pending THRE interrupt; the next is due when these bytes have left
 * the FIFO (or all but the threshold's worth). */
static void line_put_bytes(struct uart *uart, const uint8_t *bytes, uint32_t count)
{
	struct line_model *model = model_of(uart);
	if (count == 0)
		return;
	uint64_t now = clock_now_ns();
	uint64_t overrun = line_transmitter_write(&model->transmitter, now, count);
	if (trace_enabled(TRACE_WIRE))
		trace_wire_load(&model->transmitter, now, count);
	if (overrun)
		__atomic_fetch_add(&model->overrun_bytes, overrun, __ATOMIC_RELAXED);
	send_on_wire(model, bytes, count);
	if (model->tx_interrupt_enabled) {
		uint64_t event_ns = fifo_event_ns(model);
		set_event_time(model, event_ns > now ? event_ns : now);
	}
}

/* ops->tx_idle: TEMT on the modelled wire, and the real UART done too (it always is
 * first on QEMU; asked only once the model says idle, to spare an MMIO read). */
static bool line_tx_idle(struct uart *uart)
{
	struct line_model *model = model_of(uart);
	if (!line_transmitter_idle(&model->transmitter, clock_now_ns()))
		return false;
	return model->wire->ops->tx_idle(model->wire);
}

static bool line_rx_ready(struct uart *uart)
{
	struct uart *wire = model_of(uart)->wire;
	return wire->ops->rx_ready(wire);
}

static uint8_t line_get_byte(struct uart *uart, uint8_t *errors)
{
	struct uart *wire = model_of(uart)->wire;
	return wire->ops->get_byte(wire, errors);
}

/* ops->set_tx_interrupt. The real UART's TX interrupt stays off for good (on QEMU it
 * would fire at once, wire or no wire); the model's is enabled instead. Enabling it
 * with the modelled FIFO empty makes it pending at once, as on a 16550; only the
 * disabled -> enabled change counts, as on QEMU. With a threshold: pending at once if
 * the FIFO is at or below it. */
static void line_set_tx_interrupt(struct uart *uart, bool enable)
{
	struct line_model *model = model_of(uart);
	if (enable == model->tx_interrupt_enabled)
		return;
	model->tx_interrupt_enabled = enable;
	if (!enable) {
		set_event_time(model, LINE_MODEL_NEVER);
		return;
	}
	uint64_t now = clock_now_ns();
	uint64_t event_ns = fifo_event_ns(model);
	set_event_time(model, event_ns > now ? event_ns : now);
}

static void line_set_rx_interrupt(struct uart *uart, bool enable)
{
	struct uart *wire = model_of(uart)->wire;
	wire->ops->set_rx_interrupt(wire, enable);
}

/* ops->acknowledge, from the UART's interrupt handler — entered through the PLIC for the
 * real UART's RX causes, or through irq_raise_software from tx_event_due. The real
 * cause (never TX: its TX interrupt is off) and the modelled THRE are reported together,
 * so a pending THRE is not left waiting for an interrupt nobody will raise. Reporting
 * THRE clears it, as an IIR read does on a 16550. */
static uint32_t line_acknowledge(struct uart *uart)
{
	struct line_model *model = model_of(uart);
	uint32_t events = model->wire->ops->acknowledge(model->wire) & ~UART_EVENT_TX_READY;
	uint64_t event_ns = event_time(model);
	if (event_ns != LINE_MODEL_NEVER && clock_now_ns() >= event_ns) {
		__atomic_store_n(&model->tx_event_ns, LINE_MODEL_NEVER, __ATOMIC_SEQ_CST);
		events |= UART_EVENT_TX_READY;
	}
	return events;
}

static bool line_wire_model(struct uart *uart, struct uart_wire_model *report);
static uint32_t line_set_baud(struct uart *uart, uint32_t baud);
static bool line_set_break(struct uart *uart, bool on);

static const struct uart_ops line_model_ops = {
    .tx_room = line_tx_room,
    .put_bytes = line_put_bytes,
    .tx_idle = line_tx_idle,
    .rx_ready = line_rx_ready,
    .get_byte = line_get_byte,
    .set_tx_interrupt = line_set_tx_interrupt,
    .set_rx_interrupt = line_set_rx_interrupt,
    .acknowledge = line_acknowledge,
    .wire_model = line_wire_model,
    .set_baud = line_set_baud,
    .set_break = line_set_break,
};

/* ---------------------------------------------------------------- setup and queries */

int line_model_init(struct line_model *model, struct uart *wire,
                    const struct line_model_config *config)
{
	struct line_rate rate;
	uint32_t divisor = 0;
	uint32_t baud = config->baud, clock_hz = config->clock_hz;
	uint32_t fifo_depth = config->fifo_depth ? config->fifo_depth : wire->fifo_depth;
	if (baud == 0)
		return -1;
	if (fifo_depth == 0 || fifo_depth > LINE_MODEL_MAX_FIFO ||
	    config->tx_threshold >= fifo_depth)
		return -2;
	if (baud == SAME_AS_WIRE) {
		if (wire->clock_hz && wire->divisor) {
			clock_hz = wire->clock_hz;
			divisor = wire->divisor;
			rate =
			    (struct line_rate){.bits_num = clock_hz, .bits_den = 16ull * divisor};
		} else if (wire->baud) {
			clock_hz = 0;
			rate = (struct line_rate){.bits_num = wire->baud, .bits_den = 1};
		} else {
			return -1;
		}
		baud = wire->baud;
	} else {
		rate = line_rate_for(clock_hz, baud, &divisor);
	}

	*model = (struct line_model){
	    .uart =
	        {
	            .ops = &line_model_ops,
	            .hardware = model,
	            .name = "line model",
	            .fifo_depth = fifo_depth,
	            .tx_threshold = config->tx_threshold,
	            .clock_hz = clock_hz,
	            .baud = (uint32_t)(rate.bits_num / rate.bits_den),
	            .divisor = divisor,
	            .irq = wire->irq,
	        },
	    .wire = wire,
	    .requested_baud = baud,
	    .tx_event_ns = LINE_MODEL_NEVER,
	};
	line_transmitter_init(&model->transmitter, rate, fifo_depth);
	timer_init(&model->timer, tx_event_due, model);
	/* The real UART's TX interrupt must stay off: the model delivers its own. */
	wire->ops->set_tx_interrupt(wire, false);
	return 0;
}

struct line_model *line_model_of(struct uart *uart)
{
	return uart && uart->ops == &line_model_ops ? uart->hardware : 0;
}

/* 10 * bits_den * 1e12 / bits_num, split so that it cannot overflow: whole ns, then the
 * remainder's picoseconds. */
uint64_t line_model_byte_ps(const struct line_model *model)
{
	const struct line_transmitter *tx = &model->transmitter;
	return tx->byte_ns * PS_PER_NS + tx->byte_frac * PS_PER_NS / tx->rate.bits_num;
}

/* ops->wire_model: what the console's INFO ioctl reports about the simulated wire.
 * Any context; the counters are read with atomics. */
static bool line_wire_model(struct uart *uart, struct uart_wire_model *report)
{
	struct line_model *model = line_model_of(uart);
	report->real = model->wire;
	report->byte_ps = line_model_byte_ps(model);
	report->overrun_bytes = __atomic_load_n(&model->overrun_bytes, __ATOMIC_RELAXED);
	report->tx_events = __atomic_load_n(&model->tx_events, __ATOMIC_RELAXED);
	report->requested_baud = model->requested_baud;
	/* Written under the backend's lock, which the INFO and telemetry ioctls do not
	 * take: one aligned 64-bit load cannot tear. */
	report->idle_ns = __atomic_load_n(&model->transmitter.idle_ns, __ATOMIC_RELAXED);
	return true;
}

/* ops->set_baud: the modelled wire changes rate, by the same divisor rule as at boot
 * (line_rate_for over the modelled clock; exactly `baud` with clock 0). The real UART
 * underneath keeps its rate: every byte reaches it at once whatever the model says.
 * The caller has the modelled transmitter idle, so a fresh one at the new rate loses
 * nothing. Same context rules as the other ops. */
static uint32_t line_set_baud(struct uart *uart, uint32_t baud)
{
	struct line_model *model = line_model_of(uart);
	if (baud == 0)
		return 0;
	uint32_t divisor;
	struct line_rate rate = line_rate_for(uart->clock_hz, baud, &divisor);
	if (line_rate_is_off(rate, baud))
		return 0;
	line_transmitter_init(&model->transmitter, rate, model->transmitter.fifo_depth);
	model->requested_baud = baud;
	uart->baud = (uint32_t)(rate.bits_num / rate.bits_den);
	uart->divisor = divisor;
	return uart->baud;
}

/* ops->set_break: the break is the real UART's; the model has no time to account for
 * (a break on the wire carries no bytes). Same context rules as the other ops. */
static bool line_set_break(struct uart *uart, bool on)
{
	struct uart *wire = line_model_of(uart)->wire;
	return wire->ops->set_break && wire->ops->set_break(wire, on);
}
