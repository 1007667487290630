"""Every unit-bearing field bench prints (`_us`, `_ms`, `_ns`, `_ns_per_byte`, `_pct`,
`_kB_per_s`, `_per_s`, `_per_kib`, `_ps`) agrees with the fields it is computed from, for
one `bench --quick` run on plain QEMU and one on the line model (QEMU -icount).

This is arithmetic, not timing: each check recomputes a field from the printed inputs
and allows only the rounding of the printed digits (the `tol` of each check says which
digits). A field holding nanoseconds under a microsecond name is off by a factor of
1000 and fails. The runs are the ones tests/test_bench.py makes (shared when both files
run in one session).
"""

import pytest

from test_bench import LINE_MODEL, benchreport, run_bench

# 8N1: bench, the kernel's byte_ps and tools/benchreport count 10 bits per byte.
BITS_PER_BYTE = 10


def close(value, expected, tol, what):
    assert value is not None and expected is not None, what
    assert abs(value - expected) <= tol, f"{what}: printed {value}, from its inputs {expected}"


def half(decimals):
    """Half a unit in the last printed digit."""
    return 0.5 * 10 ** -decimals


def quotient(a, da, b, db, what, value, decimals, scale=1):
    """`value` (printed with `decimals` decimals) is scale × a / b, where a and b are known
    to ±da and ±db (their own printed rounding): it lies in the range those allow."""
    assert value is not None, what
    lo = scale * max(a - da, 0) / (b + db)
    hi = scale * (a + da) / (b - db) if b - db > 0 else float("inf")
    slack = half(decimals) + 1e-9
    assert lo - slack <= value <= hi + slack, \
        f"{what}: printed {value}, from its inputs {scale * a / b} ({lo} to {hi})"


def check_rate(r, baud):
    """json_rate: elapsed_ms, bytes_per_s, line_rate_pct from bytes and the elapsed time."""
    what = f"{r['section']} size {r['size']}"
    quotient(r["bytes"], 0, r["elapsed_ms"], half(3), f"{what} bytes_per_s", r["bytes_per_s"],
             1, scale=1000)
    # line_rate_pct = bytes/s ÷ (baud / 10 bits) × 100
    close(r["line_rate_pct"], r["bytes_per_s"] / (baud / BITS_PER_BYTE) * 100,
          half(1) / (baud / BITS_PER_BYTE) * 100 + half(2), f"{what} line_rate_pct")


def check_stats(r, prefix, samples=None):
    """PREFIX{min,p50,p90,p99,max,mean}_us: µs, and with the group's samples (ns) exactly
    the nearest-rank values of them."""
    what = f"{r['section']} size {r['size']} {prefix}"
    keys = [f"{prefix}{q}_us" for q in ("min", "p50", "p90", "p99", "max")]
    values = [r[k] for k in keys]
    assert values == sorted(values), what
    assert values[0] - half(3) <= r[f"{prefix}mean_us"] <= values[-1] + half(3), what
    if samples is None:
        return
    assert len(samples) == r["n"], what
    for q, key in zip((0, 50, 90, 99, 100), keys):
        expected = min(samples) if q == 0 else benchreport.nearest_rank(samples, q)
        close(r[key], expected, 1e-9, f"{what} {key} (samples in us)")
    close(r[f"{prefix}mean_us"], sum(samples) / len(samples), half(3) + 1e-9,
          f"{what} mean_us")


def check_byte_time(r, baud):
    """byte_time_us: 10 bits at the baud, in µs (86.806 at 115200)."""
    close(r["byte_time_us"], BITS_PER_BYTE * 1e6 / baud, half(3),
          f"{r['section']} size {r['size']} byte_time_us")


def check_cpu_per_byte(r):
    """busy_ns_per_byte (1 decimal) against busy_pct_of_byte_time (3 decimals):
    busy ns per byte ÷ the byte time in ns × 100."""
    what = f"{r['section']} size {r['size']}"
    byte_time_ns = r["byte_time_us"] * 1000
    quotient(r["busy_ns_per_byte"], half(1), byte_time_ns, half(3) * 1000,
             f"{what} busy_pct_of_byte_time", r["busy_pct_of_byte_time"], 3, scale=100)


def check_tx_counts(r):
    """TX interrupts and FIFO loads per KiB of bytes put into the UART (2 decimals)."""
    what = f"{r['section']} size {r['size']}"
    close(r["tx_interrupts_per_kib"], r["thre_interrupts"] * 1024 / r["thr_bytes"], half(2),
          f"{what} tx_interrupts_per_kib")
    close(r["fifo_loads_per_kib"], r["fifo_loads"] * 1024 / r["thr_bytes"], half(2),
          f"{what} fifo_loads_per_kib")


def check_run(run):
    header = run.header
    baud = header["baud"]  # the baud bench computes with (--baud, else the console's)
    close(header["line_bytes_per_s"], baud / BITS_PER_BYTE, half(1), "line_bytes_per_s")
    # byte_ps: the console's own byte time at the baud it runs at, picoseconds rounded down
    assert header["byte_ps"] == BITS_PER_BYTE * 10**12 // header["baud_actual"]
    checked = set()

    for r in run.lines("S10") + run.lines("S11") + run.lines("S12") + run.lines("S13") + \
            run.lines("S14") + run.lines("S15") + run.lines("S20") + run.lines("S21") + \
            run.lines("S41") + run.lines("S42") + run.lines("S45", role="writer"):
        check_rate(r, baud)
        checked.add(r["section"])
    for section in ("S10", "S13", "S14", "S20", "S21", "S41"):
        for r in run.lines(section):
            check_stats(r, "", run.all_samples(section, r["size"])
                        if section in ("S20", "S21") else None)
    for r in run.lines("S11"):
        check_stats(r, "write_")
        # kB/s is bytes per ms; the whole run is the enqueueing and the drain
        quotient(r["bytes"], 0, r["enqueue_ms"], half(3), f"S11 size {r['size']} enqueue_kB_per_s",
                 r["enqueue_kB_per_s"], 1)
        close(r["elapsed_ms"], r["enqueue_ms"] + r["drain_ms"], 3 * half(3),
              f"S11 size {r['size']} elapsed_ms")
    s20 = run.one("S20")
    check_stats(s20, "write_")
    check_byte_time(s20, baud)
    quotient(s20["p50_us"], 0, s20["byte_time_us"], half(3), "S20 p50_over_byte_time",
             s20["p50_over_byte_time"], 3)
    for r in run.lines("S21"):
        quotient(r["p99_us"], 0, r["p50_us"], 0, f"S21 size {r['size']} p99_over_p50",
                 r["p99_over_p50"], 3)
    for r in run.lines("S15") + run.lines("S41"):
        check_tx_counts(r)
    for r in run.lines("S41"):
        check_byte_time(r, baud)
        check_cpu_per_byte(r)
    for r in run.lines("S40"):
        assert r["fifo_loads"] > 0 and r["write_calls"] > 0, r
        close(r["bytes_per_fifo_load"], r["thr_bytes"] / r["fifo_loads"], half(2),
              f"S40 {r['workload']} bytes_per_fifo_load")
        close(r["bytes_per_write_call"], r["bytes_written"] / r["write_calls"], half(2),
              f"S40 {r['workload']} bytes_per_write_call")
        if r["thr_bytes"]:
            close(r["busy_polls_per_byte"], r["tx_busy_polls"] / r["thr_bytes"], half(2),
                  f"S40 {r['workload']} busy_polls_per_byte")
    s42 = run.one("S42")
    # the window is the burst's wire time; overlap is compute chunks over idle chunks
    close(s42["wire_ms"], s42["bytes"] * BITS_PER_BYTE / baud * 1000, half(3), "S42 wire_ms")
    close(s42["overlap_pct"], s42["compute_chunks"] / s42["idle_chunks"] * 100, half(2),
          "S42 overlap_pct")
    assert 0 <= s42["writer_busy_pct"] <= 100
    for r in run.lines("S30"):
        check_stats(r, "read_")
    for r in run.lines("S43"):
        check_stats(r, "late_")
        assert r["step_ms"] == 5
    for w in run.lines("S44", role="worker"):
        check_stats(w, "blocked_")
        # from its start time to its last write returning, in ns
        window_ms = (w["end_ns"] - w["start_ns"]) / 1e6
        close(w["enqueue_kB_per_s"], w["bytes"] / window_ms, half(1),
              f"S44 {w['harts']} harts, hart {w['hart']} enqueue_kB_per_s")
        assert w["start_ns"] <= w["first_write_ns"] <= w["end_ns"] <= w["drained_ns"]
    plain = header["env"] == "qemu"
    for w in run.lines("S45", role="writer"):
        what = f"S45 {w['phase']}"
        # plain QEMU: a fixed window (100 ms, 40 with --quick); else the size's wire time
        expected = (40 if header["quick"] else 100) if plain else \
            w["size"] * BITS_PER_BYTE / baud * 1000
        close(w["window_ms"], expected, half(3), f"{what} window_ms")
        busy = w["busy_pct"]
        assert len(busy) == header["harts"] and all(0 <= b <= 100 for b in busy), what
        close(w["writer_busy_pct"], busy[w["writer_hart"]], half(2), f"{what} writer_busy_pct")
    for c in run.lines("S45", role="compute"):
        what = f"S45 {c['phase']} hart {c['hart']}"
        close(c["window_ms"], run.one("S45", role="writer", phase=c["phase"])["window_ms"],
              1e-9, f"{what} window_ms")
        if c["baseline_chunks"] and c["compute_left_pct"] is not None:
            # chunk rate in the window over the rate in the baseline, in %
            quotient(c["chunks"] * c["baseline_ms"], c["chunks"] * half(3),
                     c["baseline_chunks"] * c["window_ms"], c["baseline_chunks"] * half(3),
                     f"{what} compute_left_pct", c["compute_left_pct"], 2, scale=100)
    assert checked == {"S10", "S11", "S12", "S13", "S14", "S15", "S20", "S21", "S41", "S42",
                       "S45"}


def test_units_agree_on_plain_qemu(image):
    status, _, run = run_bench(image, "async", extra="--quick")
    assert status == 0
    check_run(run)


@pytest.mark.skipif(not LINE_MODEL, reason="no line model (drivers/uart/line_model.c)")
def test_units_agree_on_the_line_model(image):
    status, _, run = run_bench(image, "async", line=True, extra="--quick")
    assert status == 0
    check_run(run)
