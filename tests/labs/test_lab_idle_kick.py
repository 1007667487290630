"""Grading for lab idle-kick (docs/teaching/labs/idle-kick.md): kick_if_idle() in
drivers/console/policy/async.c and kick_tx in the Spin model tests/model/async_tx.pml (graded
by tests/test_model.py's default configuration, listed in labs/idle-kick/lab.toml).

Whoever puts bytes into the TX ring while the transmitter is idle must start it:
load the FIFO and enable the TX interrupt, whose THRE then refills the rest. Without it
the boot log's first line after the console starts, and everything after it, stays in
the ring: the guest's output stops and the test's hang timeout fails it.
"""

from labrun import bench, expect, pattern_run, workload

LINE = 115200


def test_writes_after_the_boot_log_arrive(request, image):
    # The kernel log goes through the ring from the moment the console starts; then
    # conpattern's 16 KiB, over the line model, so that every FIFO takes wire time.
    pattern_run(request, image, "async", 16 * 1024, line=LINE)


def test_one_kick_per_idle_start(request, image, record_property):
    run, results = bench(request, image, "async", "S40", line=LINE)
    burst = workload(run, results, "S40", workload="burst")
    drain_each = workload(run, results, "S40", workload="drain_each")
    record_property("burst_idle_kicks", burst["idle_kicks"])
    record_property("drain_each_idle_kicks", drain_each["idle_kicks"])
    # burst: one start (the writes follow each other while TX runs). drain_each: every
    # write finds the line idle (drained), goes 16 bytes direct, kicks for the rest.
    expect(run, "S40 burst thr_bytes", burst["thr_bytes"], 2560, "10 writes x 256 B")
    expect(run, "S40 burst idle_kicks", burst["idle_kicks"], 1,
           "one start: the writes follow each other while TX runs (tx_running)")
    expect(run, "S40 drain_each thr_bytes", drain_each["thr_bytes"], 640, "10 x 64 B")
    expect(run, "S40 drain_each idle_kicks", drain_each["idle_kicks"], 10,
           "each write after a tcdrain finds TX idle: one kick each")
