/* Host unit tests for the UART line model (drivers/uart/line_model.c).
 *
 * The arithmetic is checked against a byte-by-byte reference that keeps every byte's
 * start time exactly (in units of 1 / bits_num ns, with 128-bit integers): rates and
 * divisors, byte times, the FIFO level at every byte boundary, back-to-back bursts that
 * must not drift over millions of bytes, overruns, and a long random run. The UART
 * operations and the TX interrupt are checked with a fake clock, a fake real UART, a
 * fake timer and a fake irq_raise_software that runs a handler the way the async
 * backend does (acknowledge, refill on TX_READY). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel/irq/irq.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"
#include "kernel/trace/trace.h"
#include "drivers/uart/line_model.h"

typedef unsigned __int128 u128;

/* ---------------------------------------------------------------- fakes for the kernel */

static uint64_t fake_now;
static struct timer *armed_timer; /* the one timer the model arms, while pending */
static uint64_t armed_deadline;
static int timer_starts;
static bool in_callback;
static int started_while_owned_elsewhere; /* timer_start on a pending timer, not ours */

uint64_t clock_now_ns(void)
{
	return fake_now;
}

void timer_init(struct timer *timer, void (*callback)(struct timer *timer), void *context)
{
	memset(timer, 0, sizeof *timer);
	timer->callback = callback;
	timer->context = context;
	timer->hart_index = -1;
}

void timer_start(struct timer *timer, uint64_t deadline_ns)
{
	/* The model promises to start its timer only when it is neither pending nor
	 * running someone else's callback: count any breach. */
	if (armed_timer && !in_callback)
		started_while_owned_elsewhere++;
	armed_timer = timer;
	armed_deadline = deadline_ns;
	timer->deadline_ns = deadline_ns;
	timer_starts++;
}

/* The tracer: off unless a test switches the wire class on; keeps the last record. */
uint8_t trace_on[TRACE_CLASSES];
static struct trace_record last_record;
static int records_emitted;

void trace_emit(uint32_t event, uint32_t a, uint64_t b, uint64_t c, uint64_t d)
{
	last_record =
	    (struct trace_record){.event = (uint16_t)event, .a = a, .b = b, .c = c, .d = d};
	records_emitted++;
}

/* Advance the fake clock to `when`, firing the timer if it is due by then. */
static void advance_to(uint64_t when)
{
	while (armed_timer && armed_deadline <= when) {
		struct timer *timer = armed_timer;
		if (armed_deadline > fake_now)
			fake_now = armed_deadline;
		armed_timer = 0;
		in_callback = true;
		timer->callback(timer);
		in_callback = false;
	}
	if (when > fake_now)
		fake_now = when;
}

/* The interrupt handler the fake irq_raise_software runs: like the async backend's,
 * acknowledge, then refill from a pending count of bytes (up to tx_room), and turn the
 * TX interrupt off when there was nothing to send. */
static struct uart *handler_uart;
static uint32_t handler_backlog; /* bytes the "backend" still has to send */
static int handler_runs, handler_tx_events;
static uint32_t handler_last_events;
static bool handler_registered = true;

bool irq_raise_software(uint32_t irq)
{
	(void)irq;
	if (!handler_registered)
		return false;
	handler_runs++;
	uint32_t events = handler_uart->ops->acknowledge(handler_uart);
	handler_last_events = events;
	if (events & UART_EVENT_TX_READY) {
		handler_tx_events++;
		uint32_t room = handler_uart->ops->tx_room(handler_uart);
		uint32_t count = handler_backlog < room ? handler_backlog : room;
		static const uint8_t zeros[256];
		if (count) {
			handler_uart->ops->put_bytes(handler_uart, zeros, count);
			handler_backlog -= count;
		} else {
			handler_uart->ops->set_tx_interrupt(handler_uart, false);
		}
	}
	return true;
}

/* The real UART underneath: always has room (as QEMU's does), records what it gets. */
struct fake_wire {
	uint64_t bytes;
	uint32_t rx_events; /* what acknowledge reports next (once) */
	bool tx_interrupt;
	int tx_interrupt_enables;
};
static struct fake_wire wire_state;

static uint32_t wire_tx_room(struct uart *uart)
{
	return uart->fifo_depth;
}
static void wire_put_bytes(struct uart *uart, const uint8_t *bytes, uint32_t count)
{
	(void)uart, (void)bytes;
	wire_state.bytes += count;
}
static bool wire_tx_idle(struct uart *uart)
{
	(void)uart;
	return true;
}
static bool wire_rx_ready(struct uart *uart)
{
	(void)uart;
	return false;
}
static uint8_t wire_get_byte(struct uart *uart, uint8_t *errors)
{
	(void)uart;
	if (errors)
		*errors = 0;
	return 0;
}
static void wire_set_tx_interrupt(struct uart *uart, bool enable)
{
	(void)uart;
	wire_state.tx_interrupt = enable;
	wire_state.tx_interrupt_enables += enable;
}
static void wire_set_rx_interrupt(struct uart *uart, bool enable)
{
	(void)uart, (void)enable;
}
static uint32_t wire_acknowledge(struct uart *uart)
{
	(void)uart;
	uint32_t events = wire_state.rx_events;
	wire_state.rx_events = 0;
	return events;
}
static const struct uart_ops wire_ops = {
    .tx_room = wire_tx_room,
    .put_bytes = wire_put_bytes,
    .tx_idle = wire_tx_idle,
    .rx_ready = wire_rx_ready,
    .get_byte = wire_get_byte,
    .set_tx_interrupt = wire_set_tx_interrupt,
    .set_rx_interrupt = wire_set_rx_interrupt,
    .acknowledge = wire_acknowledge,
};

static struct uart wire;
static struct line_model model;

/* A QEMU-like 16550 (3.6864 MHz, divisor 2: 115200 baud, 16-byte FIFO, irq 10) wrapped
 * in a model of `config`; every fake reset. */
static struct uart *setup_configured(const struct line_model_config *config)
{
	memset(&wire_state, 0, sizeof wire_state);
	wire = (struct uart){.ops = &wire_ops,
	                     .name = "fake 16550",
	                     .fifo_depth = 16,
	                     .clock_hz = 3686400,
	                     .baud = 115200,
	                     .divisor = 2,
	                     .irq = 10};
	fake_now = 1000000;
	armed_timer = 0;
	timer_starts = 0;
	started_while_owned_elsewhere = 0;
	handler_backlog = 0;
	handler_runs = handler_tx_events = 0;
	handler_registered = true;
	CHECK(line_model_init(&model, &wire, config) == 0);
	handler_uart = &model.uart;
	return &model.uart;
}

/* The same with the real UART's FIFO and no threshold: a model of `baud` from `clock_hz`. */
static struct uart *setup_model(uint32_t baud, uint32_t clock_hz)
{
	struct line_model_config config = {.baud = baud, .clock_hz = clock_hz};
	return setup_configured(&config);
}

/* ---------------------------------------------------------------- the reference */

/* Every byte's start time, exactly, in units of 1 / bits_num ns. */
struct reference {
	struct line_rate rate;
	u128 byte_units; /* one byte time */
	u128 end;        /* when the last byte ends */
	u128 *starts;
	size_t count, capacity;
};

static void reference_init(struct reference *ref, struct line_rate rate, size_t capacity)
{
	ref->rate = rate;
	ref->byte_units = (u128)LINE_MODEL_BITS_PER_BYTE * rate.bits_den * 1000000000u;
	ref->end = 0;
	ref->starts = calloc(capacity, sizeof *ref->starts);
	ref->count = 0;
	ref->capacity = capacity;
}

static void reference_write(struct reference *ref, uint64_t now, uint64_t count)
{
	u128 now_units = (u128)now * ref->rate.bits_num;
	u128 start = ref->end <= now_units ? now_units : ref->end; /* idle: starts now */
	for (uint64_t i = 0; i < count; i++) {
		if (ref->count < ref->capacity)
			ref->starts[ref->count++] = start;
		start += ref->byte_units;
	}
	ref->end = start;
}

/* Bytes not yet started by `now` (an instant x has come when now * bits_num >= x). */
static uint64_t reference_level(const struct reference *ref, uint64_t now)
{
	u128 now_units = (u128)now * ref->rate.bits_num;
	uint64_t level = 0;
	for (size_t i = ref->count; i > 0 && ref->starts[i - 1] > now_units; i--)
		level++;
	return level;
}

static uint64_t ceil_ns(const struct reference *ref, u128 units)
{
	return (uint64_t)((units + ref->rate.bits_num - 1) / ref->rate.bits_num);
}

/* ---------------------------------------------------------------- arithmetic tests */

static void test_rates_and_divisors(void)
{
	uint32_t divisor;
	struct line_rate rate = line_rate_for(3686400, 9600, &divisor);
	CHECK_EQ_U64(divisor, 24);
	CHECK_EQ_U64(rate.bits_num / rate.bits_den, 9600);
	CHECK_EQ_U64(rate.bits_num % rate.bits_den, 0);
	rate = line_rate_for(3686400, 115200, &divisor);
	CHECK_EQ_U64(divisor, 2);
	CHECK_EQ_U64(rate.bits_num / rate.bits_den, 115200);
	/* QEMU's clock cannot go above 3686400 / 16: 1.5 Mbaud becomes 230400. */
	rate = line_rate_for(3686400, 1500000, &divisor);
	CHECK_EQ_U64(divisor, 1);
	CHECK_EQ_U64(rate.bits_num / rate.bits_den, 230400);
	/* The D1's 24 MHz: 1.5 Mbaud exactly, 115200 as 24e6 / 208 = 115384.6. */
	rate = line_rate_for(24000000, 1500000, &divisor);
	CHECK_EQ_U64(divisor, 1);
	CHECK_EQ_U64(rate.bits_num / rate.bits_den, 1500000);
	rate = line_rate_for(24000000, 115200, &divisor);
	CHECK_EQ_U64(divisor, 13);
	CHECK_EQ_U64(rate.bits_num, 24000000);
	CHECK_EQ_U64(rate.bits_den, 208);
	/* Slower than the divisor reaches: clamped at 0xffff. */
	rate = line_rate_for(24000000, 2, &divisor);
	CHECK_EQ_U64(divisor, 0xffff);
	/* No clock: exactly the baud asked for. */
	rate = line_rate_for(0, 1000000, &divisor);
	CHECK_EQ_U64(divisor, 0);
	CHECK_EQ_U64(rate.bits_num, 1000000);
	CHECK_EQ_U64(rate.bits_den, 1);
}

static void test_byte_times(void)
{
	uint32_t divisor;
	struct line_rate r115200 = line_rate_for(3686400, 115200, &divisor);
	CHECK_EQ_U64(line_bytes_to_ns(r115200, 0), 0);
	CHECK_EQ_U64(line_bytes_to_ns(r115200, 1), 86806); /* 86805.555... rounded up */
	CHECK_EQ_U64(line_bytes_to_ns(r115200, 9), 781250);
	CHECK_EQ_U64(line_bytes_to_ns(r115200, 2880), 250000000);
	CHECK_EQ_U64(line_bytes_to_ns(r115200, 11520), 1000000000);
	struct line_rate r9600 = line_rate_for(3686400, 9600, &divisor);
	CHECK_EQ_U64(line_bytes_to_ns(r9600, 960), 1000000000);
	CHECK_EQ_U64(line_bytes_to_ns(r9600, 1), 1041667);
	struct line_rate d1 = line_rate_for(24000000, 115200, &divisor);
	CHECK_EQ_U64(line_bytes_to_ns(d1, 1), 86667); /* 10 * 208 / 24 MHz = 86666.67 ns */
	CHECK_EQ_U64(line_bytes_to_ns(d1, 3), 260000);
	struct line_rate fast = line_rate_for(24000000, 1500000, &divisor);
	CHECK_EQ_U64(line_bytes_to_ns(fast, 3), 20000);
	CHECK_EQ_U64(line_bytes_to_ns(fast, 150000), 1000000000);
	/* Large counts stay exact: 2^32 - 1 bytes at 115200 against 128-bit math. */
	uint64_t many = 0xffffffffull;
	u128 exact = (u128)many * 10 * 32 * 1000000000u;
	uint64_t want = (uint64_t)((exact + 3686399) / 3686400);
	CHECK_EQ_U64(line_bytes_to_ns(r115200, many), want);
}

/* 16 bytes into an idle transmitter: one goes straight to the shift register, 15 wait;
 * the FIFO level drops by one exactly at each byte boundary (rounded up to the ns). */
static void test_fifo_level_at_every_boundary(void)
{
	uint32_t divisor;
	struct line_rate rate = line_rate_for(3686400, 115200, &divisor);
	struct line_transmitter tx;
	line_transmitter_init(&tx, rate, 16);
	CHECK(line_fifo_empty(&tx, 0));
	CHECK(line_transmitter_idle(&tx, 0));
	uint64_t t0 = 5000;
	CHECK_EQ_U64(line_transmitter_write(&tx, t0, 16), 0);
	CHECK_EQ_U64(line_fifo_level(&tx, t0), 15);
	for (uint64_t k = 1; k <= 15; k++) {
		uint64_t boundary = t0 + line_bytes_to_ns(rate, k);
		CHECK_EQ_U64(line_fifo_level(&tx, boundary - 1), 16 - k);
		CHECK_EQ_U64(line_fifo_level(&tx, boundary), 15 - k);
	}
	uint64_t thre = t0 + line_bytes_to_ns(rate, 15);
	uint64_t temt = t0 + line_bytes_to_ns(rate, 16);
	CHECK_EQ_U64(tx.fifo_empty_ns, thre);
	CHECK_EQ_U64(tx.idle_ns, temt);
	CHECK(!line_fifo_empty(&tx, thre - 1));
	CHECK(line_fifo_empty(&tx, thre));
	CHECK(!line_transmitter_idle(&tx, temt - 1));
	CHECK(line_transmitter_idle(&tx, temt));
}

/* Refilling 16 bytes at every THRE keeps the wire busy without a gap: after 2880 * k
 * bytes the line is idle exactly k * 250 ms after the first byte, and one byte is never
 * lost or gained to rounding, even after millions of bytes. */
static void test_back_to_back_bursts_do_not_drift(void)
{
	uint32_t divisor;
	struct line_rate rate = line_rate_for(3686400, 115200, &divisor);
	struct line_transmitter tx;
	line_transmitter_init(&tx, rate, 16);
	uint64_t start = 123456789;
	uint64_t now = start;
	uint64_t sent = 0, overruns = 0;
	while (sent < 2880ull * 1000) { /* 2.88 million bytes: 250 s of wire */
		overruns += line_transmitter_write(&tx, now, 16);
		sent += 16;
		now = tx.fifo_empty_ns; /* the THRE interrupt comes exactly then */
	}
	CHECK_EQ_U64(overruns, 0);
	CHECK_EQ_U64(tx.idle_ns, start + 250ull * 1000000000ull);
	/* The same with the D1's fractional rate, against the exact end. */
	rate = line_rate_for(24000000, 115200, &divisor);
	line_transmitter_init(&tx, rate, 64);
	now = start;
	sent = 0;
	while (sent < 64ull * 50000) {
		overruns += line_transmitter_write(&tx, now, 64);
		sent += 64;
		now = tx.fifo_empty_ns;
	}
	CHECK_EQ_U64(overruns, 0);
	u128 exact_end = (u128)start * 24000000 + (u128)sent * 10 * 208 * 1000000000u;
	CHECK_EQ_U64(tx.idle_ns, (uint64_t)((exact_end + 23999999) / 24000000));
}

/* Bytes written while the shift register still sends continue the burst; bytes
 * written after TEMT start when written. */
static void test_gaps_and_continuations(void)
{
	uint32_t divisor;
	struct line_rate rate = line_rate_for(0, 100000, &divisor); /* 100 us per byte */
	struct line_transmitter tx;
	line_transmitter_init(&tx, rate, 16);
	line_transmitter_write(&tx, 1000, 1);
	CHECK_EQ_U64(tx.fifo_empty_ns, 1000); /* straight into the shift register */
	CHECK_EQ_U64(tx.idle_ns, 101000);
	line_transmitter_write(&tx, 50000, 1); /* shift register busy: queued behind */
	CHECK_EQ_U64(line_fifo_level(&tx, 50000), 1);
	CHECK_EQ_U64(tx.fifo_empty_ns, 101000);
	CHECK_EQ_U64(tx.idle_ns, 201000);
	line_transmitter_write(&tx, 201000, 2); /* exactly at TEMT: starts then */
	CHECK_EQ_U64(tx.idle_ns, 401000);
	line_transmitter_write(&tx, 900000, 3); /* a gap: starts when written */
	CHECK_EQ_U64(tx.fifo_empty_ns, 1100000);
	CHECK_EQ_U64(tx.idle_ns, 1200000);
}

static void test_overruns_are_counted(void)
{
	uint32_t divisor;
	struct line_rate rate = line_rate_for(3686400, 9600, &divisor);
	struct line_transmitter tx;
	line_transmitter_init(&tx, rate, 16);
	/* Idle: 16 fit in the FIFO once the first is in the shift register. */
	CHECK_EQ_U64(line_transmitter_write(&tx, 0, 17), 0);
	line_transmitter_init(&tx, rate, 16);
	CHECK_EQ_U64(line_transmitter_write(&tx, 0, 18), 1);
	/* FIFO empty (THRE) but the shift register busy: exactly 16 fit. */
	line_transmitter_init(&tx, rate, 16);
	line_transmitter_write(&tx, 0, 1);
	CHECK_EQ_U64(line_transmitter_write(&tx, 10, 16), 0);
	CHECK_EQ_U64(line_transmitter_write(&tx, 20, 5), 5);
	/* A runaway writer: a million bytes at once, all but 17 counted. */
	line_transmitter_init(&tx, rate, 16);
	CHECK_EQ_U64(line_transmitter_write(&tx, 7, 1000000), 1000000 - 17);
	CHECK_EQ_U64(line_fifo_level(&tx, 7), 1000000 - 1);
}

/* Random writes (sometimes ignoring THRE) at random times, checked at random instants
 * against the reference's exact byte start times. */
static void test_random_against_reference(void)
{
	static const struct {
		uint32_t clock, baud;
	} cases[] = {{3686400, 115200},   {3686400, 9600}, {24000000, 115200},
	             {24000000, 1500000}, {0, 1234567},    {1843200, 300}};
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		uint32_t divisor;
		struct line_rate rate = line_rate_for(cases[c].clock, cases[c].baud, &divisor);
		struct line_transmitter tx;
		line_transmitter_init(&tx, rate, 16);
		struct reference ref;
		reference_init(&ref, rate, 200000);
		uint64_t byte_ns = line_bytes_to_ns(rate, 1);
		uint64_t now = 1 + (seed % 1000);
		for (int step = 0; step < 5000 && ref.count + 64 < ref.capacity; step++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			uint64_t count = 1 + (seed >> 33) % 24;
			line_transmitter_write(&tx, now, count);
			reference_write(&ref, now, count);
			CHECK_EQ_U64(tx.idle_ns, ceil_ns(&ref, ref.end));
			CHECK_EQ_U64(tx.fifo_empty_ns, ceil_ns(&ref, ref.end - ref.byte_units));
			/* Look at a few instants up to ~20 bytes ahead, then move on. */
			for (int look = 0; look < 3; look++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				uint64_t at = now + (seed >> 20) % (20 * byte_ns + 1);
				CHECK_EQ_U64(line_fifo_level(&tx, at), reference_level(&ref, at));
				CHECK(line_fifo_empty(&tx, at) == (reference_level(&ref, at) == 0));
				CHECK(line_transmitter_idle(&tx, at) ==
				      ((u128)at * rate.bits_num >= ref.end));
			}
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			now += (seed >> 24) % (18 * byte_ns + 1);
		}
		free(ref.starts);
	}
}

/* ---------------------------------------------------------------- the UART operations */

static void test_thre_and_temt_through_the_ops(void)
{
	struct uart *uart = setup_model(115200, 3686400);
	CHECK_EQ_U64(uart->baud, 115200);
	CHECK_EQ_U64(uart->divisor, 2);
	CHECK_EQ_U64(uart->fifo_depth, 16);
	CHECK_EQ_U64(uart->irq, 10);
	CHECK(line_model_of(uart) == &model);
	CHECK(line_model_of(&wire) == 0);
	CHECK_EQ_U64(line_model_byte_ps(&model), 86805555);
	CHECK_EQ_U64(uart->ops->tx_room(uart), 16);
	CHECK(uart->ops->tx_idle(uart));
	static const uint8_t bytes[16];
	uint64_t t0 = fake_now;
	uart->ops->put_bytes(uart, bytes, 16);
	CHECK_EQ_U64(wire_state.bytes, 16); /* the real UART got them at once */
	CHECK_EQ_U64(uart->ops->tx_room(uart), 0);
	CHECK(!uart->ops->tx_idle(uart));
	fake_now = t0 + line_bytes_to_ns(model.transmitter.rate, 15) - 1;
	CHECK_EQ_U64(uart->ops->tx_room(uart), 0);
	fake_now++;
	CHECK_EQ_U64(uart->ops->tx_room(uart), 16);
	CHECK(!uart->ops->tx_idle(uart));
	fake_now = t0 + line_bytes_to_ns(model.transmitter.rate, 16);
	CHECK(uart->ops->tx_idle(uart));
	CHECK_EQ_U64(model.overrun_bytes, 0);
	/* Polled use never arms the timer, and the real TX interrupt was switched off. */
	CHECK_EQ_U64(timer_starts, 0);
	CHECK_EQ_U64(wire_state.tx_interrupt_enables, 0);
	/* Baud 1: the real UART's own. */
	setup_model(1, 0);
	CHECK_EQ_U64(model.uart.baud, 115200);
	CHECK_EQ_U64(model.uart.divisor, 2);
	CHECK_EQ_U64(model.transmitter.rate.bits_num, 3686400);
	struct line_model_config none = {0};
	CHECK(line_model_init(&model, &wire, &none) == -1);
}

/* The wire record: a load's bytes, the FIFO level after, when it was loaded, when its
 * first byte starts and its last ends; for a load into an idle line and one queued
 * behind it. Nothing is recorded while the class is off. */
static void test_wire_trace_records(void)
{
	struct uart *uart = setup_model(115200, 3686400);
	static const uint8_t bytes[16];
	records_emitted = 0;
	uart->ops->put_bytes(uart, bytes, 4);
	CHECK_EQ_U64(records_emitted, 0);
	fake_now += line_bytes_to_ns(model.transmitter.rate, 4);
	trace_on[__builtin_ctz(TRACE_WIRE)] = 1;
	uint64_t t0 = fake_now;
	uart->ops->put_bytes(uart, bytes, 16);
	CHECK_EQ_U64(records_emitted, 1);
	CHECK_EQ_U64(last_record.event, TRACE_WIRE_LOAD);
	CHECK_EQ_U64(last_record.a, 16 | 15u << 16); /* the first byte is in the shift register */
	CHECK_EQ_U64(last_record.b, t0);
	CHECK_EQ_U64(last_record.c, t0);
	uint64_t end = t0 + line_bytes_to_ns(model.transmitter.rate, 16);
	CHECK_EQ_U64(last_record.d, end);
	/* Once the FIFO has emptied, a load queues behind the byte still in the shift
	 * register: it starts when that one ends. */
	fake_now = model.transmitter.fifo_empty_ns;
	uart->ops->put_bytes(uart, bytes, 16);
	CHECK_EQ_U64(last_record.a, 16 | 16u << 16);
	CHECK(last_record.c + 1 >= end && last_record.c <= end);
	CHECK_EQ_U64(last_record.d, model.transmitter.idle_ns);
	trace_on[__builtin_ctz(TRACE_WIRE)] = 0;
}

/* The async backend's cycle: enable on an empty FIFO -> interrupt at once; each refill
 * -> the next interrupt when the FIFO empties; nothing left -> TX interrupt off. The
 * whole transfer takes exactly its wire time. */
static void test_tx_interrupt_drives_a_transfer(void)
{
	struct uart *uart = setup_model(115200, 3686400);
	uint64_t t0 = fake_now;
	static const uint8_t bytes[16];
	uart->ops->put_bytes(uart, bytes, 16); /* the writer's idle kick */
	handler_backlog = 2880 - 16;
	uart->ops->set_tx_interrupt(uart, true);
	CHECK_EQ_U64(timer_starts, 1);
	CHECK_EQ_U64(armed_deadline, t0 + line_bytes_to_ns(model.transmitter.rate, 15));
	advance_to(t0 + 1000000000ull);
	CHECK_EQ_U64(handler_backlog, 0);
	CHECK_EQ_U64(wire_state.bytes, 2880);
	CHECK_EQ_U64(handler_tx_events, (2880 - 16) / 16 + 1); /* 179 refills, then "none" */
	CHECK(!model.tx_interrupt_enabled);
	CHECK_EQ_U64(model.tx_events, (uint64_t)handler_tx_events);
	CHECK_EQ_U64(model.transmitter.idle_ns, t0 + 250000000ull);
	CHECK_EQ_U64(model.overrun_bytes, 0);
	CHECK_EQ_U64(started_while_owned_elsewhere, 0);
	CHECK_EQ_U64(model.early_timer_runs, 0);
	CHECK(armed_timer == 0);
	CHECK_EQ_U64(wire_state.tx_interrupt_enables, 0);
}

static void test_enable_on_empty_fifo_raises_at_once(void)
{
	struct uart *uart = setup_model(9600, 3686400);
	uint64_t t0 = fake_now;
	uart->ops->set_tx_interrupt(uart, true);
	CHECK_EQ_U64(armed_deadline, t0);
	advance_to(t0);
	CHECK_EQ_U64(handler_tx_events, 1); /* nothing to send: turned off again */
	CHECK(!model.tx_interrupt_enabled);
	/* Enabling again is a new 0 -> 1 edge: another interrupt. */
	uart->ops->set_tx_interrupt(uart, true);
	advance_to(fake_now);
	CHECK_EQ_U64(handler_tx_events, 2);
	/* Enabling while already enabled is not an edge. */
	handler_backlog = 1;
	static const uint8_t bytes[1];
	uart->ops->put_bytes(uart, bytes, 1);
	uart->ops->set_tx_interrupt(uart, true);
	int starts = timer_starts;
	uart->ops->set_tx_interrupt(uart, true);
	CHECK_EQ_U64(timer_starts, starts);
}

/* An acknowledge from the real UART's RX interrupt passes RX through and takes a due
 * THRE with it; the timer then finds nothing due and raises nothing. */
static void test_acknowledge_passes_rx_and_takes_due_thre(void)
{
	struct uart *uart = setup_model(115200, 3686400);
	wire_state.rx_events = UART_EVENT_RX_READY;
	CHECK_EQ_U64(uart->ops->acknowledge(uart), UART_EVENT_RX_READY);
	static const uint8_t bytes[4];
	uart->ops->put_bytes(uart, bytes, 4);
	uart->ops->set_tx_interrupt(uart, true); /* due when the 4th byte starts */
	CHECK_EQ_U64(uart->ops->acknowledge(uart), 0);
	fake_now = model.transmitter.fifo_empty_ns;
	wire_state.rx_events = UART_EVENT_RX_READY | UART_EVENT_TX_READY; /* TX: ignored */
	CHECK_EQ_U64(uart->ops->acknowledge(uart), UART_EVENT_RX_READY | UART_EVENT_TX_READY);
	CHECK_EQ_U64(uart->ops->acknowledge(uart), 0); /* reported once */
	advance_to(fake_now + 1);
	CHECK_EQ_U64(handler_runs, 0);
	CHECK(armed_timer == 0);
	CHECK_EQ_U64(model.timer_owned, 0);
}

/* Bytes added after the timer was armed move the event later: the timer fires early,
 * raises nothing and re-arms itself for the new time. Bytes added by an operation while
 * the callback owns the timer (the handler's refill) are picked up when it lets go. */
static void test_event_moves_while_timer_is_armed(void)
{
	struct uart *uart = setup_model(115200, 3686400);
	static const uint8_t bytes[16];
	uart->ops->put_bytes(uart, bytes, 2);
	uart->ops->set_tx_interrupt(uart, true);
	uint64_t first_deadline = armed_deadline;
	fake_now = model.transmitter.fifo_empty_ns; /* FIFO empty: room again */
	CHECK_EQ_U64(uart->ops->tx_room(uart), 16);
	uart->ops->put_bytes(uart, bytes, 16); /* clears the pending THRE */
	CHECK_EQ_U64(timer_starts, 1);         /* owned: not re-armed by the operation */
	advance_to(first_deadline);
	CHECK_EQ_U64(handler_runs, 0);
	CHECK_EQ_U64(model.early_timer_runs, 1);
	CHECK(armed_timer != 0);
	CHECK_EQ_U64(armed_deadline, model.transmitter.fifo_empty_ns);
	advance_to(armed_deadline);
	CHECK_EQ_U64(handler_tx_events, 1);
	CHECK_EQ_U64(started_while_owned_elsewhere, 0);
	/* Disabled while armed: the timer fires, finds nothing, and lets go. */
	uart->ops->put_bytes(uart, bytes, 3);
	uart->ops->set_tx_interrupt(uart, true);
	uart->ops->set_tx_interrupt(uart, false);
	advance_to(fake_now + 10000000);
	CHECK_EQ_U64(handler_tx_events, 1);
	CHECK(armed_timer == 0);
	CHECK_EQ_U64(model.timer_owned, 0);
}

/* No handler registered: the event is dropped instead of re-arming for ever. */
static void test_no_handler_does_not_spin(void)
{
	struct uart *uart = setup_model(115200, 3686400);
	handler_registered = false;
	uart->ops->set_tx_interrupt(uart, true);
	advance_to(fake_now + 1000);
	CHECK(armed_timer == 0);
	CHECK_EQ_U64(model.tx_event_ns, LINE_MODEL_NEVER);
	CHECK_EQ_U64(timer_starts, 1);
}

/* ---------------------------------------------------------------- the D1 shape */

/* uart.line.fifo: the depth the backends see, whatever the real UART has; bad shapes
 * are refused. */
static void test_fifo_depth_and_bad_shapes(void)
{
	struct line_model_config config = {.baud = 115200, .clock_hz = 24000000, .fifo_depth = 64};
	struct uart *uart = setup_configured(&config);
	CHECK_EQ_U64(uart->fifo_depth, 64);
	CHECK_EQ_U64(uart->tx_threshold, 0);
	CHECK_EQ_U64(uart->divisor, 13);
	CHECK_EQ_U64(uart->ops->tx_room(uart), 64);
	static const uint8_t bytes[64];
	uart->ops->put_bytes(uart, bytes, 64);
	CHECK_EQ_U64(model.overrun_bytes, 0);
	CHECK_EQ_U64(uart->ops->tx_room(uart), 0); /* THRE rules: nothing until empty */
	fake_now = model.transmitter.fifo_empty_ns;
	CHECK_EQ_U64(uart->ops->tx_room(uart), 64);

	struct line_model_config bad[] = {
	    {.baud = 115200, .fifo_depth = 300},
	    {.baud = 115200, .fifo_depth = 64, .tx_threshold = 64},
	    {.baud = 115200, .tx_threshold = 16}, /* the real UART's 16-byte FIFO */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_EQ_U64(line_model_init(&model, &wire, &bad[i]), (uint64_t)-2);
}

/* line_level_reached_ns against the byte-by-byte reference: for every level, the first
 * whole ns at which at most that many bytes wait; level 0 is THRE. */
static void test_level_reached_against_reference(void)
{
	uint32_t divisor;
	struct line_rate rate = line_rate_for(24000000, 115200, &divisor);
	struct line_transmitter tx;
	line_transmitter_init(&tx, rate, 64);
	struct reference ref;
	reference_init(&ref, rate, 256);
	uint64_t now = 5000;
	line_transmitter_write(&tx, now, 64);
	reference_write(&ref, now, 64);
	CHECK_EQ_U64(line_level_reached_ns(&tx, 0), tx.fifo_empty_ns);
	for (uint64_t level = 0; level < 64; level++) {
		uint64_t at = line_level_reached_ns(&tx, level);
		CHECK(reference_level(&ref, at) <= level);
		CHECK(at == 0 || reference_level(&ref, at - 1) > level);
		CHECK_EQ_U64(line_fifo_level(&tx, at) <= level, 1);
	}
	CHECK_EQ_U64(line_level_reached_ns(&tx, 1000), 0); /* more than was ever queued */
	free(ref.starts);
}

/* The D1 shape: a 64-byte FIFO and the TX interrupt at 16 bytes or fewer (DW PTIME with
 * TET "1/4 full"). tx_room is the free space; the interrupt comes 48 byte times after
 * a full load; a refilling handler keeps the wire busy without a gap and takes one
 * interrupt per 48 bytes. */
static void test_threshold_interrupt_refills_before_empty(void)
{
	struct line_model_config config = {
	    .baud = 1500000, .clock_hz = 24000000, .fifo_depth = 64, .tx_threshold = 16};
	struct uart *uart = setup_configured(&config);
	CHECK_EQ_U64(uart->tx_threshold, 16);
	CHECK_EQ_U64(uart->divisor, 1);
	struct line_rate rate = model.transmitter.rate;
	uint64_t t0 = fake_now;
	static const uint8_t bytes[64];
	uart->ops->put_bytes(uart, bytes, 64); /* the first goes into the shift register */
	CHECK_EQ_U64(uart->ops->tx_room(uart), 1);
	fake_now = t0 + line_bytes_to_ns(rate, 10);
	CHECK_EQ_U64(uart->ops->tx_room(uart), 11);
	fake_now = t0;
	uint32_t total = 4800;
	handler_backlog = total - 64;
	uart->ops->set_tx_interrupt(uart, true);
	/* Due when 17 bytes are left: 16 in the FIFO, one in the shift register. */
	CHECK_EQ_U64(armed_deadline, t0 + line_bytes_to_ns(rate, 64 - 17));
	advance_to(t0 + 1000000000ull);
	CHECK_EQ_U64(handler_backlog, 0);
	CHECK_EQ_U64(wire_state.bytes, total);
	/* 4736 bytes in refills of 48 (the last one 32), then one that finds nothing. */
	CHECK_EQ_U64(handler_tx_events, (total - 64 + 47) / 48 + 1);
	CHECK(!model.tx_interrupt_enabled);
	/* No gap: the whole transfer took exactly its wire time. */
	CHECK_EQ_U64(model.transmitter.idle_ns, t0 + line_bytes_to_ns(rate, total));
	CHECK_EQ_U64(model.overrun_bytes, 0);
	CHECK_EQ_U64(started_while_owned_elsewhere, 0);

	/* Enabled while at or below the threshold: pending at once. */
	uart->ops->put_bytes(uart, bytes, 10);
	uart->ops->set_tx_interrupt(uart, true);
	CHECK_EQ_U64(armed_deadline, fake_now);
}

/* The one check of a modelled baud: parts per million off, and beyond 2 %. */
static void test_baud_error(void)
{
	uint32_t divisor;
	struct line_rate rate = line_rate_for(3686400, 3000000, &divisor);
	CHECK_EQ_U64(divisor, 1);
	CHECK_EQ_U64(line_rate_error_ppm(rate, 3000000), 923200); /* 230400: 92.32 % slow */
	CHECK(line_rate_is_off(rate, 3000000));
	rate = line_rate_for(24000000, 115200, &divisor); /* 115384.6: +0.16 % */
	CHECK_EQ_U64(line_rate_error_ppm(rate, 115200), 1602);
	CHECK(!line_rate_is_off(rate, 115200));
	rate = line_rate_for(24000000, 921600, &divisor); /* divisor 2: 750000 */
	CHECK_EQ_U64(line_rate_error_ppm(rate, 921600), 186197);
	CHECK(line_rate_is_off(rate, 921600));
	rate = line_rate_for(0, 12000000, &divisor);
	CHECK_EQ_U64(line_rate_error_ppm(rate, 12000000), 0);
	rate = line_rate_for(3686400, 115200, &divisor);
	CHECK_EQ_U64(line_rate_error_ppm(rate, 115200), 0);
	/* 2 % exactly is still within: 102000 for 100000. */
	CHECK(!line_rate_is_off((struct line_rate){102000, 1}, 100000));
	CHECK(line_rate_is_off((struct line_rate){102001, 1}, 100000));
}

/* ops->set_baud: the modelled wire takes the new rate by the boot-time divisor rule and
 * byte times follow; a rate the modelled clock cannot make within 2 % is refused with
 * nothing changed; with clock 0 any rate is exact. The real UART keeps its own. */
static void test_set_baud_changes_the_modelled_wire(void)
{
	struct uart *uart = setup_model(115200, 3686400);
	CHECK_EQ_U64(uart->ops->set_baud(uart, 9600), 9600);
	CHECK_EQ_U64(uart->baud, 9600);
	CHECK_EQ_U64(uart->divisor, 24);
	CHECK_EQ_U64(model.requested_baud, 9600);
	CHECK_EQ_U64(line_model_byte_ps(&model), 1041666666); /* 10 bits at 9600 baud */
	CHECK_EQ_U64(wire.baud, 115200);
	static const uint8_t bytes[2];
	uint64_t t0 = fake_now;
	uart->ops->put_bytes(uart, bytes, 2);
	fake_now = t0 + line_bytes_to_ns(model.transmitter.rate, 2) - 1;
	CHECK(!uart->ops->tx_idle(uart));
	fake_now++;
	CHECK(uart->ops->tx_idle(uart));
	CHECK_EQ_U64(line_bytes_to_ns(model.transmitter.rate, 2), 2083334);

	/* 921600 from 3.6864 MHz: divisor 1 gives 230400, 75 % off: refused. */
	CHECK_EQ_U64(uart->ops->set_baud(uart, 921600), 0);
	CHECK_EQ_U64(uart->baud, 9600);
	CHECK_EQ_U64(model.requested_baud, 9600);
	CHECK_EQ_U64(uart->ops->set_baud(uart, 0), 0);

	uart = setup_model(921600, 0);
	CHECK_EQ_U64(uart->ops->set_baud(uart, 4000000), 4000000);
	CHECK_EQ_U64(line_model_byte_ps(&model), 2500000);
}

int main(void)
{
	RUN(test_rates_and_divisors);
	RUN(test_set_baud_changes_the_modelled_wire);
	RUN(test_byte_times);
	RUN(test_fifo_level_at_every_boundary);
	RUN(test_back_to_back_bursts_do_not_drift);
	RUN(test_gaps_and_continuations);
	RUN(test_overruns_are_counted);
	RUN(test_random_against_reference);
	RUN(test_thre_and_temt_through_the_ops);
	RUN(test_tx_interrupt_drives_a_transfer);
	RUN(test_enable_on_empty_fifo_raises_at_once);
	RUN(test_acknowledge_passes_rx_and_takes_due_thre);
	RUN(test_event_moves_while_timer_is_armed);
	RUN(test_no_handler_does_not_spin);
	RUN(test_fifo_depth_and_bad_shapes);
	RUN(test_level_reached_against_reference);
	RUN(test_threshold_interrupt_refills_before_empty);
	RUN(test_baud_error);
	RUN(test_wire_trace_records);
	return check_summary();
}
