"""Grading for lab tx-refill (docs/teaching/labs/tx-refill.md): refill_fifo() in
drivers/console/backend/async.c, which the TX interrupt (and the copier of console=async,thread,
and the idle kick) calls to move bytes from the ring into the UART.

One refill must move as much as the UART takes: a whole FIFO (16 bytes on QEMU's 16550)
per THRE, so a KiB costs 64 interrupts, not 1024. Counted by the backend's telemetry
(bench S40) under -icount over the line model at 115200 baud.
"""

import pytest

from labrun import bench, pattern_run, workload

LINE = 115200


def test_each_interrupt_refills_a_whole_fifo(request, image, record_property):
    burst = workload(bench(request, image, "async", "S40", line=LINE), "S40",
                     workload="burst")
    per_kib = 1024 * burst["thre_interrupts"] / burst["thr_bytes"]
    record_property("burst_fifo_loads", burst["fifo_loads"])
    record_property("burst_thre_interrupts", burst["thre_interrupts"])
    record_property("thre_interrupts_per_kib", f"{per_kib:.1f}")
    # 10 writes of 256 bytes back to back: 2560 bytes in 160 loads of 16, the first
    # straight from the write (the direct path), every other one from an interrupt; the
    # last interrupt finds the ring empty and turns TX off.
    assert burst["thr_bytes"] == 2560 and burst["fifo_loads"] == 160, burst
    assert burst["thre_interrupts"] <= 161, burst


def test_short_writes_take_four_loads(request, image, record_property):
    drain_each = workload(bench(request, image, "async", "S40", line=LINE), "S40",
                          workload="drain_each")
    record_property("drain_each_fifo_loads", drain_each["fifo_loads"])
    # 10 x (64 bytes, tcdrain): 16 go straight in, 48 through the ring in 3 loads.
    assert drain_each["thr_bytes"] == 640 and drain_each["fifo_loads"] == 40, drain_each


def test_the_copier_refills_a_whole_fifo(request, image, record_property):
    burst = workload(bench(request, image, "async,thread", "S40", line=LINE), "S40",
                     workload="burst")
    record_property("burst_fifo_loads", burst["fifo_loads"])
    record_property("burst_wakeups", burst["wakeups"])
    assert burst["thr_bytes"] == 2560 and burst["fifo_loads"] == 160, burst


def test_wire_stays_busy(request, image, record_property):
    s10 = bench(request, image, "async", "S10", line=LINE)["S10"]
    rates = {r["size"]: r["line_rate_pct"] for r in s10}
    record_property("line_rate_pct_by_size", rates)
    # A 1024-byte write is 64 FIFO loads: the refill must keep up with the wire.
    assert rates.get(1024, 0) >= 99.0, rates


@pytest.mark.parametrize("console", ["async", "async,thread"])
def test_every_byte_arrives_in_order(request, image, console):
    received, queued = pattern_run(request, image, console, 256 * 1024)
    assert queued == 0
