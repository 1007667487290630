/* async_tx.pml — a Promela model of the async console's transmit protocol, checked
 * exhaustively with Spin. tests/model/README.md explains it at length; in short:
 *
 * What is modelled (bytes are abstracted to counts, each process is a hart):
 *   writer          write(): pushes N chunks of CHUNK bytes into the TX ring (capacity
 *                   C); after each push it starts TX; when the ring is full it parks on
 *                   its waker until the TX interrupt frees room.
 *   tx_interrupt    the THRE interrupt handler: claims the interrupt (reads IIR), then,
 *                   under the console lock, refills an empty FIFO from the ring (the
 *                   refill wakes the writer when it makes room and the drain waiter when
 *                   it leaves the ring empty), and turns the TX interrupt off when the
 *                   refill leaves the ring empty (Linux's stop_tx in
 *                   serial8250_tx_chars): the bytes it loaded still drain, and the next
 *                   push's kick turns the interrupt on again.
 *   wire            the UART: moves FIFO -> shift register -> line, one byte at a time,
 *                   at whatever pace. THRE is an edge: it is latched when the FIFO drains
 *                   while the TX interrupt is enabled (or when the interrupt is enabled
 *                   with the FIFO already empty) and cleared by an IIR read or a THR
 *                   write.
 *   polled_printk   some other path that reads IIR (a polled printk, an RX-only
 *                   handler): whenever THRE is latched it may swallow it, any number
 *                   of times. It then runs the idle kick: whoever clears THRE must do
 *                   THRE's work.
 *   drain_waiter    tcdrain(): notes how many bytes have been written, parks until the
 *                   ring is empty (woken by whoever empties it), then polls TEMT (FIFO
 *                   and shift register empty; TEMT has no interrupt) with a bounded
 *                   number of sleeps, each at least one byte time long.
 * The idle kick (console_kick_tx in the kernel): under the console lock, if LSR.THRE says
 * the FIFO is empty the caller loads it from the ring itself instead of waiting for an
 * edge; whenever bytes are in the FIFO it makes sure the TX interrupt is on, so that
 * their drain raises THRE. The writer kicks after every push; so does every path that
 * reads IIR outside the interrupt handler, since it may have swallowed THRE.
 *
 * Checked:
 *   safety   (pan.c built with -DNOCLAIM; ./pan): no invalid end state (nobody stuck
 *            while the rest stop: deadlock or lost wake-up), no FIFO overrun, counts
 *            consistent, and tcdrain returns only after every byte written before it
 *            left the wire (its bounded TEMT wait is long enough, and it gives up only
 *            when later writes kept the UART busy).
 *   liveness (./pan -a -f, weak fairness): ltl `all_done`, eventually the writer and the
 *            drain waiter have both returned and every byte has been transmitted.
 *
 * Switches (spin -D...), each removing or changing one piece of the protocol:
 *   NO_IDLE_KICK     no idle kick anywhere: TX starts only through the interrupt-enable
 *                    edge (Linux-style start_tx) — hangs once an edge is swallowed.
 *   NO_PRINTK_KICK   the writer kicks but the path that swallows THRE does not — hangs:
 *                    the writer's last kick can come before the swallowed edge.
 *   NO_SWALLOW       nobody else reads IIR; with NO_IDLE_KICK this passes, showing the
 *                    hang needs both.
 *   NO_WAKE_PENDING  the waker loses a wake that arrives between the check and the park —
 *                    the writer or the drain waiter sleeps forever.
 *   STOP_ON_RECHECK  the handler stops TX interrupts on a second look at the ring, not on
 *                    what its refill found; with NO_IDLE_KICK and NO_SWALLOW it hangs (a
 *                    lock-free push slips in between); the idle kick covers for it.
 *   STOP_WHEN_IDLE   the handler stops TX interrupts only when a refill found nothing at
 *                    all to send (one more interrupt per burst, the protocol before
 *                    stop_tx); correct too.
 *
 * Run: spin -a [-DSWITCH] async_tx.pml && gcc -O1 -DNOCLAIM -o pan pan.c && ./pan
 *      gcc -O1 -DNFAIR=3 -o pan pan.c && ./pan -a -f   (tests/test_model.py does both)
 */

#ifndef N
#define N 3 /* chunks the writer writes */
#endif
#ifndef CHUNK
#define CHUNK 2 /* bytes per chunk */
#endif
#ifndef C
#define C 2 /* TX ring capacity */
#endif
#ifndef DEPTH
#define DEPTH 2 /* TX FIFO depth: most bytes one load may put in */
#endif
#define TOTAL (N * CHUNK)
/* After the ring is seen empty at most DEPTH + 1 bytes are still in the UART (FIFO and
 * shift register), and every sleep lasts at least one byte time. */
#ifndef TEMT_SLEEPS_MAX
#define TEMT_SLEEPS_MAX (DEPTH + 1)
#endif

/* ---------------------------------------------------------------- shared state */

byte ring = 0;          /* bytes queued in the software TX ring (head - tail) */
byte fifo = 0;          /* bytes in the UART's TX FIFO */
bool shift = false;     /* a byte is in the transmit shift register */
byte pushed = 0;        /* bytes the writer has put in the ring */
byte sent = 0;          /* bytes that have left on the wire */
bool tx_irq_on = false; /* IER: TX (THRE) interrupt enabled */
bool thre = false;      /* THRE interrupt latched, waiting for an IIR read */
bool locked = false;    /* the console spinlock */
bool writer_done = false;
bool drain_done = false;

typedef waker {
	bool wake_pending; /* a wake arrived since prepare */
	bool parked;       /* the owner is asleep */
};
waker writer_waker;
waker drain_waker;

/* ---------------------------------------------------------------- primitives */

inline lock()
{
	atomic { !locked -> locked = true }
}

inline unlock()
{
	locked = false
}

/* The park protocol: prepare, check the condition, park unless a wake is pending. A
 * wake makes the owner runnable if it is parked and otherwise leaves wake_pending set so
 * the coming park returns at once. Without wake_pending a wake that lands between the
 * check and the park is lost. */
inline prepare_park(w)
{
#ifndef NO_WAKE_PENDING
	w.wake_pending = false
#else
	skip
#endif
}

inline park(w)
{
	atomic {
#ifndef NO_WAKE_PENDING
		if
		:: !w.wake_pending -> w.parked = true
		:: else -> skip
		fi
#else
		w.parked = true
#endif
	};
	!w.parked /* asleep until a wake clears it */
}

inline wake(w)
{
	atomic { w.wake_pending = true; w.parked = false }
}

/* Enable the TX interrupt. A 16550 raises THRE at once if the FIFO is already empty
 * (the 0 -> 1 edge Linux's start_tx relies on); otherwise THRE comes when it drains. */
inline tx_irq_enable()
{
	atomic {
		if
		:: !tx_irq_on && fifo == 0 -> thre = true
		:: else -> skip
		fi;
		tx_irq_on = true
	}
}

/* Disable it; IIR no longer reports a latched THRE. */
inline tx_irq_disable()
{
	atomic { tx_irq_on = false; thre = false }
}

/* Caller holds the console lock and has seen THRE (FIFO empty) in LSR. Moves up to
 * DEPTH bytes ring -> FIFO (writing THR clears a latched THRE), wakes the writer if room
 * was made and the drain waiter if the ring is now empty. Leaves the count in the
 * caller's `moved`; the caller clears it. */
inline tx_fill()
{
	atomic {
		moved = (ring < DEPTH -> ring : DEPTH);
		ring = ring - moved;
		emptied = (ring == 0); /* what this refill left, not a second look */
		fifo = fifo + moved;
		if
		:: moved > 0 -> thre = false
		:: else -> skip
		fi;
		assert(fifo <= DEPTH) /* never overrun the FIFO */
	};
	if
	:: moved > 0 -> wake(writer_waker)
	:: else -> skip
	fi;
	if
	:: ring == 0 -> wake(drain_waker)
	:: else -> skip
	fi
}

/* The idle kick: whoever calls it gets TX going without depending on an edge that may
 * not come. It reads THRE once: if the FIFO is empty it loads it; either way, if bytes
 * went or are going out, it makes sure the TX interrupt is on so that their drain
 * raises THRE for whatever follows. (Reading THRE a second time to decide about the
 * interrupt races with the wire: busy at the first look, drained by the second, and
 * neither a load nor the interrupt.) */
inline kick_tx()
{
	lock();
	if
	:: fifo == 0 ->
		tx_fill();
		if
		:: moved > 0 -> tx_irq_enable()
		:: else -> skip /* nothing to send */
		fi;
		moved = 0; /* scratch: forget them, or they multiply the state space */
		emptied = false
	:: else -> tx_irq_enable()
	fi;
	unlock()
}

/* The writer's "start TX" after every push. */
inline start_tx()
{
#ifndef NO_IDLE_KICK
	kick_tx()
#else
	lock();
	tx_irq_enable();
	unlock()
#endif
}

/* ---------------------------------------------------------------- processes */

active proctype writer()
{
	byte chunk = 0, left, room, moved;
	bool emptied;
	do
	:: chunk < N ->
		left = CHUNK;
		do
		:: left > 0 ->
			/* ring_push: lock-free, takes what fits. */
			atomic {
				room = C - ring;
				moved = (left < room -> left : room);
				ring = ring + moved;
				pushed = pushed + moved;
				left = left - moved;
				room = 0;
				moved = 0
			};
			start_tx();
			if
			:: left > 0 ->
				/* The ring was full: wait for the interrupt to make room. */
				prepare_park(writer_waker);
				if
				:: ring < C -> skip
				:: else -> park(writer_waker)
				fi
			:: else -> skip
			fi
		:: else -> break
		od;
		chunk++
	:: else -> break
	od;
	writer_done = true
}

active proctype tx_interrupt()
{
	byte moved;
	bool emptied;
end_idle:
	do
	:: atomic { thre -> thre = false }; /* IIR read claims the interrupt */
		lock();
		if
		:: fifo == 0 ->
			tx_fill();
			/* Stop TX interrupts when this refill left the ring empty (stop_tx), from
			 * what the refill itself saw. Deciding on a second look at the ring
			 * (STOP_ON_RECHECK) races with a lock-free push: the ring is empty for the
			 * refill, a push lands, the second look keeps the interrupt on with an
			 * empty FIFO, and the pusher's start_tx, finding it on, raises no edge.
			 * Stopped with bytes still in the FIFO, the next push's kick turns the
			 * interrupt on again and their drain raises THRE. */
			if
#if defined(STOP_ON_RECHECK)
			:: ring == 0 -> tx_irq_disable()
#elif defined(STOP_WHEN_IDLE)
			:: moved == 0 -> tx_irq_disable()
#else
			:: emptied -> tx_irq_disable()
#endif
			:: else -> skip
			fi;
			moved = 0;
			emptied = false
		:: else -> skip /* a kick has loaded the FIFO already */
		fi;
		unlock()
	od
}

active proctype wire()
{
end_idle:
	do
	:: atomic {
		!shift && fifo > 0 ->
			fifo--;
			shift = true;
			if
			:: fifo == 0 && tx_irq_on -> thre = true /* THR empty: the edge */
			:: else -> skip
			fi
	}
	:: atomic { shift -> shift = false; sent++ }
	od
}

#ifndef NO_SWALLOW
active proctype polled_printk()
{
	byte moved;
	bool emptied;
end_idle:
	do
	:: atomic { thre -> thre = false }; /* its IIR read swallows the THRE interrupt */
#if !defined(NO_IDLE_KICK) && !defined(NO_PRINTK_KICK)
		kick_tx() /* so it does THRE's work itself */
#else
		skip
#endif
	od
}
#endif

active proctype drain_waiter()
{
	byte written, last_sent, sleeps = 0;
	written = pushed; /* tcdrain is called now: these bytes must be out on return */

	/* Phase 1: park until the ring is empty. */
	do
	:: prepare_park(drain_waker);
		if
		:: ring == 0 -> break
		:: else -> park(drain_waker)
		fi
	od;

	/* Phase 2: TEMT has no interrupt; poll it, sleeping, a bounded number of times. */
	do
	:: fifo == 0 && !shift -> break
	:: else ->
		if
		:: sleeps == TEMT_SLEEPS_MAX ->
			/* Give up. Only a writer that kept the UART busy after the call may make
			 * it: otherwise TEMT_SLEEPS_MAX sleeps always see TEMT. */
			assert(pushed > written);
			break
		:: else -> skip
		fi;
		/* Sleep for at least one byte time. */
		last_sent = sent;
		(sent != last_sent || (fifo == 0 && !shift));
		sleeps++
	od;
	assert(sent >= written); /* the bound was long enough for the bytes that counted */
	drain_done = true
}

/* A watchdog that only checks invariants. */
active proctype invariants()
{
end_watch:
	do
	:: atomic {
		(ring > C || fifo > DEPTH || pushed > TOTAL ||
		 ring + fifo + shift + sent != pushed) -> assert(false)
	}
	od
}

ltl all_done { <> (writer_done && drain_done && sent == TOTAL) }
