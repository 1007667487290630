"""Grading for lab polling-fifo (docs/teaching/labs/polling-fifo.md): the polling
backend's load_once() in drivers/console/policy/polling.c.

In `fifo` mode one wait for THRE must be followed by a whole FIFO's worth of bytes (16 on
QEMU's 16550), in `byte` mode by one byte, and the wait itself must happen with the
spinlock let go, so that the writing hart's interrupts are on between looks: another
hart's sleeper must wake on time while the console writes (bench S43). Counted and timed
by the benchmark under -icount, over the line model at 115200 baud, so the FIFO really
takes wire time to empty. One boot per mode measures S40 and S43 (labrun shares it
between the tests; the fifo-mode tests come first, so that a grade stopping at the first
failure boots once); the byte-integrity tests run at 1.5 Mbaud, where the FIFO fills.

The core tests (labs/polling-fifo/lab.toml) are the lab's property; the others score only
once those pass.
"""

import pytest

from labrun import bench, expect, expect_at_least, expect_at_most, pattern_run, workload

LINE = 115200
CHARACTER_US = 10 * 1e6 / LINE  # 86.8 us per 8N1 character
FAST_LINE = 1500000             # 6.7 us per character: the FIFO fills at once
SECTIONS = "S40,S43"


def measure(request, image, mode):
    return bench(request, image, f"polling,{mode}", SECTIONS, line=LINE)


def test_fifo_mode_loads_a_whole_fifo(request, image, record_property):
    run, results = measure(request, image, "fifo")
    burst = workload(run, results, "S40", workload="burst")
    drain_each = workload(run, results, "S40", workload="drain_each")
    record_property("burst_bytes_per_fifo_load", burst["bytes_per_fifo_load"])
    record_property("drain_each_fifo_loads", drain_each["fifo_loads"])
    expect(run, "S40 burst thr_bytes", burst["thr_bytes"], 2560, "10 writes x 256 B")
    expect(run, "S40 burst fifo_loads", burst["fifo_loads"], 160,
           "10 writes x 256 B / 16 per load: one load per THRE wait in fifo mode")
    expect(run, "S40 drain_each fifo_loads", drain_each["fifo_loads"], 40,
           "10 writes x 64 B / 16 per load")


@pytest.mark.parametrize("mode", ["fifo", "byte"])
def test_other_harts_wake_on_time(request, image, mode, record_property):
    run, results = measure(request, image, mode)
    other = workload(run, results, "S43", load="writer_other_hart")
    record_property("writer_other_hart_late_p99_us", other["late_p99_us"])
    # A sleeper on the benchmark's hart while a child on the other hart writes at the
    # line rate. Correct: its timer is a few microseconds late (1.6 us). A writer that
    # waits for THRE holding the spinlock keeps its hart's interrupts masked for a
    # FIFO's drain (1.4 ms) or a whole write: timer interrupts wait that long.
    expect_at_most(run, "S43 writer_other_hart late_p99_us", other["late_p99_us"],
                   round(CHARACTER_US, 1),
                   "one character time; a hart spinning for THRE with the spinlock held "
                   "keeps interrupts masked and timers late: wait with the lock let go")


def test_byte_mode_loads_one_byte_per_wait(request, image, record_property):
    run, results = measure(request, image, "byte")
    burst = workload(run, results, "S40", workload="burst")
    record_property("burst_bytes_per_fifo_load", burst["bytes_per_fifo_load"])
    expect(run, "S40 burst thr_bytes", burst["thr_bytes"], 2560, "10 writes x 256 B")
    expect(run, "S40 burst fifo_loads (console=polling,byte)", burst["fifo_loads"], 2560,
           "byte mode: one load per byte, looking for room before each")


def test_fifo_mode_keeps_the_wire_busy(request, image, record_property):
    run, results = bench(request, image, "polling,fifo", "S10", line=LINE)
    rates = {r["size"]: r["line_rate_pct"] for r in results.get("S10", [])}
    record_property("line_rate_pct_by_size", rates)
    # Polling refills the FIFO as soon as it is empty: the wire never waits for software
    # by more than a few instructions, whatever the write size.
    expect(run, "S10 write sizes measured", sorted(rates), [64, 256, 1024])
    expect_at_least(run, "S10 lowest line_rate_pct", min(rates.values()), 99.0,
                    "the FIFO refilled as soon as THRE is seen")


@pytest.mark.parametrize("mode", ["polling,fifo", "polling,byte"])
def test_every_byte_arrives_in_order(request, image, mode):
    pattern_run(request, image, mode, 16 * 1024, line=FAST_LINE)
