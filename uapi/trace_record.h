/* The event tracer's records and its system call, shared with user space: /bin/trace
 * (user/trace.c) includes this file and reads records through trace_control(), and
 * tools/timeline decodes the same layout from a dump. Plain C, no kernel types.
 *
 * A record is 40 bytes: when (raw `time` CSR ticks), what (event id), where (hart
 * index), and four arguments whose meaning depends on the event (the table below).
 * Event ids are grouped by class, 16 to a class: the class bit of event E is
 * 1 << (E >> 4), which is what trace=CLASS,... and the mask switch on. */
#ifndef DUPLEX_TRACE_RECORD_H
#define DUPLEX_TRACE_RECORD_H

#include <stdint.h>

struct trace_record {
	uint64_t ticks; /* `time` CSR at the event (timebase in struct trace_status) */
	uint16_t event; /* enum trace_event */
	uint16_t hart;  /* hart index (0 = the boot hart) */
	uint32_t a;     /* small argument */
	uint64_t b, c, d;
};

/* Classes: the bits of the mask. */
#define TRACE_CONSOLE (1u << 0) /* console core and backends */
#define TRACE_SCHED   (1u << 1) /* context switches, wake-ups, idle */
#define TRACE_IRQ     (1u << 2) /* trap-level interrupts, the UART interrupt's causes */
#define TRACE_SYSCALL (1u << 3) /* system call entry and exit */
#define TRACE_WIRE    (1u << 4) /* the line model's wire (drivers/uart/line_model.c) */
#define TRACE_ALL     0x1fu

#define TRACE_CLASS_OF(event) (1u << ((event) >> 4))

/* Events and their arguments (a, b, c, d; unnamed ones are 0). */
enum trace_event {
	/* console: the core */
	TRACE_WRITE_ENTER = 0x01, /* a = bytes the backend is asked to write */
	TRACE_WRITE_EXIT = 0x02,  /* b = result (bytes or -errno) */
	TRACE_DRAIN_ENTER = 0x03, /* tcdrain starts */
	TRACE_DRAIN_EXIT = 0x04,  /* b = result */
	/* console: the backends */
	TRACE_RING_PUSH = 0x05,    /* a = bytes pushed, b = bytes in the TX ring after */
	TRACE_RING_POP = 0x06,     /* a = bytes popped, b = bytes in the TX ring after */
	TRACE_FIFO_LOAD = 0x07,    /* a = bytes put into the UART, b = enum trace_load_path */
	TRACE_COPIER_SLEEP = 0x08, /* async,thread: the copier parks */
	TRACE_COPIER_WAKE = 0x09,  /* async,thread: the copier runs again */
	TRACE_DRAIN_PARK = 0x0a,   /* a = enum trace_drain_wait: what the drainer waits for */
	TRACE_DRAIN_WAKE = 0x0b,   /* the drainer runs again */
	TRACE_TEMT_SEEN = 0x0c,    /* a drain saw the transmitter empty; a = looks it took */
	/* sched */
	TRACE_SWITCH = 0x10,     /* a = enum trace_task_kind of the next task, b = previous task id,
	                          * c = next task id, d = next task's name, first 8 bytes */
	TRACE_WAKEUP = 0x11,     /* b = id of the task made runnable */
	TRACE_IDLE_ENTER = 0x12, /* the idle loop enters wfi */
	TRACE_IDLE_EXIT = 0x13,  /* ... and leaves it */
	/* irq */
	TRACE_IRQ_ENTER = 0x20, /* a = scause's interrupt number (1 IPI, 5 timer, 9 external) */
	TRACE_IRQ_EXIT = 0x21,  /* a = the same */
	TRACE_UART_IRQ = 0x22,  /* a = the UART's events (UART_EVENT_* in drivers/uart/uart.h) */
	/* syscall */
	TRACE_SYSCALL_ENTER = 0x30, /* a = number, b..d = arguments 0..2 */
	TRACE_SYSCALL_ARGS = 0x31,  /* right after ENTER: a = pid, b..d = arguments 3..5 */
	TRACE_SYSCALL_EXIT = 0x32,  /* a = number, b = result, c = pid */
	/* wire: one record per load of the modelled FIFO. Its bytes leave back to back, so
	 * byte k of the load is on the wire from c + k * (d - c) / (a & 0xffff) on. */
	TRACE_WIRE_LOAD = 0x40, /* a = bytes | FIFO level after << 16, b = when loaded (ns),
	                         * c = first byte's start (ns), d = last byte's end (ns) */
};

/* TRACE_FIFO_LOAD's b: who loaded the FIFO. */
enum trace_load_path {
	TRACE_LOAD_DIRECT = 0,    /* async: a write straight into an idle FIFO */
	TRACE_LOAD_IRQ = 1,       /* async: the TX interrupt's refill */
	TRACE_LOAD_COPIER = 2,    /* async,thread: the copier */
	TRACE_LOAD_KICK = 3,      /* async: a writer starting an idle transmitter */
	TRACE_LOAD_POLL = 4,      /* polling,fifo: a writer that waited for THRE */
	TRACE_LOAD_POLL_BYTE = 5, /* polling,byte: a writer's bytes, each after its own look */
};

/* TRACE_DRAIN_PARK's a. */
enum trace_drain_wait {
	TRACE_DRAIN_RING = 0, /* asleep until the TX ring is empty */
	TRACE_DRAIN_WIRE = 1, /* asleep until the last load should have left the wire */
	TRACE_DRAIN_LOOK = 2, /* asleep for one TEMT look */
};

/* TRACE_SWITCH's a. */
enum trace_task_kind {
	TRACE_TASK_KERNEL = 0,
	TRACE_TASK_USER = 1,
	TRACE_TASK_IDLE = 2,
};

/* trace_control(op, argument, buffer, size) = system call 502. */
#define TRACE_OP_SET_MASK 0 /* argument = new mask; returns the old one (-ENOMEM, -EINVAL) */
#define TRACE_OP_RESET    1 /* forget every record and drop count; returns 0 */
#define TRACE_OP_STATUS   2 /* buffer = struct trace_status, size >= its size; returns 0 */
#define TRACE_OP_READ                                                                              \
	3 /* argument = hart << 32 | first record; buffer gets up to                               \
	   * size / 40 records from there; returns how many */

#define TRACE_MAX_HARTS 8

struct trace_status {
	uint32_t mask;        /* classes being recorded now */
	uint32_t harts;       /* rings in use (one per hart) */
	uint32_t capacity;    /* records per ring; 0 until tracing was first switched on */
	uint32_t timebase_hz; /* `time` CSR ticks per second */
	uint64_t records[TRACE_MAX_HARTS]; /* records held, per hart */
	uint64_t dropped[TRACE_MAX_HARTS]; /* events lost because that hart's ring was full */
};

#endif
