"""Grading for lab polling-fifo (docs/teaching/labs/polling-fifo.md): the polling
backend's load_once() in drivers/console/backend/polling.c.

In `fifo` mode one wait for THRE must be followed by a whole FIFO's worth of bytes (16 on
QEMU's 16550), in `byte` mode by one byte, and every byte must arrive, in order. Counted
by the backend's own telemetry under -icount, over the line model at 115200 baud, so the
FIFO really takes wire time to empty.
"""

import pytest

from labrun import bench, pattern_run, workload

LINE = 115200


def test_fifo_mode_loads_a_whole_fifo(request, image, record_property):
    results = bench(request, image, "polling,fifo", "S40", line=LINE)
    burst = workload(results, "S40", workload="burst")
    drain_each = workload(results, "S40", workload="drain_each")
    record_property("burst_bytes_per_fifo_load", burst["bytes_per_fifo_load"])
    record_property("drain_each_fifo_loads", drain_each["fifo_loads"])
    # 10 writes of 256 bytes: 16 loads each; 10 of 64 bytes: 4 each.
    assert burst["thr_bytes"] == 2560 and burst["fifo_loads"] == 160, burst
    assert drain_each["thr_bytes"] == 640 and drain_each["fifo_loads"] == 40, drain_each


def test_byte_mode_loads_one_byte_per_wait(request, image, record_property):
    results = bench(request, image, "polling,byte", "S40", line=LINE)
    burst = workload(results, "S40", workload="burst")
    record_property("burst_bytes_per_fifo_load", burst["bytes_per_fifo_load"])
    assert burst["thr_bytes"] == 2560 and burst["fifo_loads"] == 2560, burst


def test_fifo_mode_keeps_the_wire_busy(request, image, record_property):
    results = bench(request, image, "polling,fifo", "S10", line=LINE)
    rates = {r["size"]: r["line_rate_pct"] for r in results["S10"]}
    record_property("line_rate_pct_by_size", rates)
    # Polling refills the FIFO as soon as it is empty: the wire never waits for software
    # by more than a few instructions, whatever the write size.
    assert rates and all(rate >= 99.0 for rate in rates.values()), rates


@pytest.mark.parametrize("mode", ["polling,fifo", "polling,byte"])
def test_every_byte_arrives_in_order(request, image, mode):
    received, queued = pattern_run(request, image, mode, 256 * 1024)
    assert queued == 0
