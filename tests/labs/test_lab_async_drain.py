"""Grading for lab async-drain (docs/teaching/labs/async-drain.md): drain_wait() in
drivers/console/backend/async.c, the part of tcdrain that has to wait.

tcdrain must return 0 only once the last stop bit has left: the ring empty (an
interrupt-driven event, so park for it), then TEMT, which has no interrupt (so sleep
until the last load should be on the wire, then look a few times per character time).
Measured over the line model at 115200 baud under -icount: virtual time, the same on
every machine; a drain that returns early, polls with a coarse sleep, or needs an
interrupt for TEMT shows in the numbers.
"""

import re

from labrun import bench, boot, workload

LINE = 115200
BYTE_NS = 10 * 10**9 / LINE           # 86 806 ns per 8N1 character
LOOK_NS = BYTE_NS / 8                  # the drain looks 8 times per character time
SOFTWARE_NS = 25_000                   # a write's own path, as tests/test_line_model.py


def linetest(request, image, send_bytes, drain_iters, one_byte_iters):
    status, text = boot(request, image, f"console=async uart.line={LINE} init=/bin/linetest "
                        f"-- {send_bytes} {drain_iters} {one_byte_iters}")
    assert status == 0, f"linetest exited {status}"
    results = {}
    for kind, fields in re.findall(r"LINETEST (\w+) ([^\r\n]*)", text):
        results[kind] = {k: int(v) if v.isdigit() else v
                         for k, v in (f.split("=", 1) for f in fields.split())}
    for kind in ("send", "one_byte", "done"):
        assert kind in results, f"linetest printed no {kind} line:\n{text[-1500:]}"
    return results


def test_one_byte_drain_waits_for_the_stop_bit(request, image, record_property):
    one = linetest(request, image, 16, 0, 10)["one_byte"]
    record_property("one_byte_min_ns", one["min_ns"])
    record_property("one_byte_max_ns", one["max_ns"])
    assert one["n"] == 10
    # Never before the wire is done; at most one look late (plus the write's own path).
    assert one["min_ns"] >= BYTE_NS, one
    assert one["max_ns"] <= BYTE_NS + LOOK_NS + SOFTWARE_NS, one


def test_long_write_drain_follows_the_wire(request, image, record_property):
    send = linetest(request, image, 2880, 0, 1)["send"]
    wire_ns = send["bytes"] * BYTE_NS
    record_property("send_bytes", send["bytes"])
    record_property("send_ns", send["ns"])
    record_property("wire_ns", round(wire_ns))
    assert send["ns"] >= wire_ns, send
    assert send["ns"] <= wire_ns + BYTE_NS + SOFTWARE_NS, send


def test_drain_needs_no_interrupt(request, image, record_property):
    results = bench(request, image, "async", "S40", line=LINE)
    byte_drain = workload(results, "S40", workload="byte_drain")
    record_property("byte_drain_thre_interrupts", byte_drain["thre_interrupts"])
    # 10 x (write 1 byte, tcdrain): each byte goes straight into the idle FIFO, and
    # waiting for TEMT must not take a TX interrupt (there is none for TEMT).
    assert byte_drain["thr_bytes"] == 10 and byte_drain["thre_interrupts"] == 0, byte_drain


def test_drain_succeeds_while_others_write(request, image):
    # 4 writers on 2 harts, each draining after every record while the others refill
    # the ring: every drain must return 0 (loadwriter reports any that did not).
    status, text = boot(request, image, f"console=async uart.line=1500000 "
                        f"init=/bin/loadwriter -- -d 4 32768 11", smp=2, icount=False)
    assert "LOADWRITER-DRAIN-FAILED" not in text
    assert "LOADWRITER-DONE writers=4 failures=0" in text, text[-2000:]
    assert status == 0
