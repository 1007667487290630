"""Grading for lab async-drain (docs/teaching/labs/async-drain.md): drain_wait() in
drivers/console/policy/ring_queue.c, the part of tcdrain that has to wait.

tcdrain must return 0 only once the last stop bit has left: the ring empty (an
interrupt-driven event, so park for it), then TEMT, which has no interrupt (so sleep
until the last load should be on the wire, then look a few times per character time),
and it must sleep while it waits, not spin. Measured over the line model at 115200 baud
under -icount: virtual time, the same on every machine; a drain that returns early,
polls with a coarse sleep, spins, or needs an interrupt for TEMT shows in the numbers.
One linetest boot serves the two timing tests, one bench boot (S20, S40) the CPU and
interrupt tests (labrun shares them).

The core tests (labs/async-drain/lab.toml) are the lab's property; until they all pass
the lab scores 0.
"""

import re

from labrun import bench, boot, expect, expect_at_least, expect_at_most, workload

LINE = 115200
BYTE_NS = 10 * 10**9 / LINE           # 86 806 ns per 8N1 character
LOOK_NS = BYTE_NS / 8                  # the drain looks 8 times per character time
SOFTWARE_NS = 25_000                   # a write's own path, as tests/test_line_model.py


def linetest(request, image):
    """linetest over the line model: one 2880-byte write + tcdrain, then 10 x (1 byte,
    tcdrain), each timed. Returns (run, {kind: {field: value}})."""
    run = boot(request, image, f"console=async uart.line={LINE} init=/bin/linetest "
               f"-- 2880 0 10")
    results = {}
    for kind, fields in re.findall(r"LINETEST (\w+) ([^\r\n]*)", run.text):
        results[kind] = {k: int(v) if v.isdigit() else v
                         for k, v in (f.split("=", 1) for f in fields.split())}
    missing = [kind for kind in ("send", "one_byte", "done") if kind not in results]
    if missing:
        raise AssertionError(f"linetest's results: expected LINETEST lines send, one_byte "
                             f"and done, got none for {', '.join(missing)} (exit status "
                             f"{run.status}): did a tcdrain fail or hang?{run.where()}")
    return run, results


def test_one_byte_drain_waits_for_the_stop_bit(request, image, record_property):
    run, results = linetest(request, image)
    one = results["one_byte"]
    record_property("one_byte_min_ns", one["min_ns"])
    record_property("one_byte_max_ns", one["max_ns"])
    expect(run, "one_byte n", one["n"], 10)
    # Never before the wire is done; at most one look late (plus the write's own path).
    expect_at_least(run, "one_byte_min_ns", one["min_ns"], round(BYTE_NS),
                    "write 1 byte + tcdrain: the byte's 10 bits take 86 806 ns at 115200; "
                    "returning sooner means tcdrain did not wait for TEMT")
    expect_at_most(run, "one_byte_max_ns", one["max_ns"],
                   round(BYTE_NS + LOOK_NS + SOFTWARE_NS),
                   "the byte time + one look (1/8 character) + 25 us of software: "
                   "look for TEMT every eighth of a character, not coarser")


def test_drain_sleeps_while_it_waits(request, image, record_property):
    # One hart: there -icount repeats a run byte for byte, so the busy time is the same
    # number every time (on two it varied by 2 %, and results.md quotes it).
    run, results = bench(request, image, "async", "S20,S40", line=LINE, smp=1)
    s20 = results.get("S20", [{}])[0]
    busy = s20.get("busy_ns_per_byte")
    record_property("s20_busy_ns_per_byte", busy)
    # S20: 1-byte write + tcdrain, the CPU time of the writing hart per byte. Correct:
    # about 4 200 ns (the write, a sleep, a few looks). Spinning on tx_idle() burns the
    # whole byte time, 86 806 ns.
    expect_at_most(run, "S20 busy_ns_per_byte", busy, round(BYTE_NS / 4),
                   "a quarter of the 86 806 ns byte time: tcdrain must sleep until TEMT "
                   "is due, not spin on tx_idle()")


def test_long_write_drain_follows_the_wire(request, image, record_property):
    run, results = linetest(request, image)
    send = results["send"]
    wire_ns = send["bytes"] * BYTE_NS
    record_property("send_bytes", send["bytes"])
    record_property("send_ns", send["ns"])
    record_property("wire_ns", round(wire_ns))
    expect_at_least(run, "send ns (2880 B + tcdrain)", send["ns"], round(wire_ns),
                    "2880 byte times")
    expect_at_most(run, "send ns (2880 B + tcdrain)", send["ns"],
                   round(wire_ns + BYTE_NS + SOFTWARE_NS),
                   "2880 byte times + one character + 25 us")


def test_drain_needs_no_interrupt(request, image, record_property):
    run, results = bench(request, image, "async", "S20,S40", line=LINE, smp=1)
    byte_drain = workload(run, results, "S40", workload="byte_drain")
    record_property("byte_drain_thre_interrupts", byte_drain["thre_interrupts"])
    # 10 x (write 1 byte, tcdrain): each byte goes straight into the idle FIFO, and
    # waiting for TEMT must not take a TX interrupt (there is none for TEMT).
    expect(run, "S40 byte_drain thr_bytes", byte_drain["thr_bytes"], 10, "10 x 1 byte")
    expect(run, "S40 byte_drain thre_interrupts", byte_drain["thre_interrupts"], 0,
           "TEMT has no interrupt: enabling THRE to wait for it only costs interrupts")


def test_drain_succeeds_while_others_write(request, image):
    # 4 writers on 2 harts, each draining after every record while the others refill
    # the ring: every drain must return 0 (loadwriter reports any that did not).
    run = boot(request, image, f"console=async uart.line=1500000 "
               f"init=/bin/loadwriter -- -d 4 32768 11", smp=2, icount=False)
    if "LOADWRITER-DRAIN-FAILED" in run.text or \
            "LOADWRITER-DONE writers=4 failures=0" not in run.text:
        failed = re.search(r"LOADWRITER-DRAIN-FAILED[^\r\n]*", run.text)
        raise AssertionError(
            "a tcdrain failed while other writers kept the ring full: "
            f"{failed.group() if failed else 'loadwriter did not finish clean'}"
            f"{run.where()}")
    expect(run, "loadwriter's exit status", run.status, 0)
