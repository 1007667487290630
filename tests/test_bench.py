"""System tests of /bin/bench (issue 5): `bench --quick` on each backend (and on the line
model when it exists) under QEMU -icount. They check that the BENCH lines parse and are
sane — every section present, counts as requested, no errors, bytes accounted for,
percentiles ordered, every S44 record whole — and that two runs of the same build give
identical numbers. No timing thresholds: what the numbers are is the report's business.
"""

import importlib.machinery
import importlib.util
import re
from pathlib import Path

import pytest

import duplex_qemu

REPO = Path(__file__).resolve().parent.parent
LINE_MODEL = (REPO / "drivers" / "uart" / "line_model.c").is_file()


def _load_benchreport():
    loader = importlib.machinery.SourceFileLoader("benchreport", str(REPO / "tools" / "benchreport"))
    spec = importlib.util.spec_from_loader("benchreport", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


benchreport = _load_benchreport()

# bench's --quick counts (user/bench/main.c, the sections table)
QUICK = {"S10": 5, "S11": 10, "S12": 16, "S13": 5, "S14": 5, "S15": 16, "S20": 20, "S21": 10,
         "S30": 5,
         "S40": 10, "S41": 8, "S42": 10, "S43": 10, "S44": 10, "S45": 4, "S50": 10, "S51": 16}
ALL_SECTIONS = set(QUICK)
S21_SIZES_FIFO16 = [1, 15, 16, 17, 31, 32, 33, 48, 49]
RECORD = re.compile(rb"<S44:(\d+):(\d+):(\d+):([a-z]*):([0-9a-f]{6})>\r?\n")

_runs = {}


def run_bench(image, backend, line=False, extra="", name=None, smp=4):
    """Boot bench once per distinct configuration (cached for the module); returns
    (status, output bytes, the parsed run)."""
    key = (backend, line, extra, name, smp)
    if key not in _runs:
        env = "qemu+line" if line else "qemu"
        append = (f"console={backend} {'uart.line=115200 ' if line else ''}"
                  f"init=/bin/bench -- --icount --backend {backend} --env {env} {extra}")
        label = name or duplex_qemu.sanitize_name(f"bench-{env}-{backend}-{extra}")
        with duplex_qemu.Guest(image, smp=smp, append=append, icount=True, name=label,
                               interactive=False) as guest:
            status = guest.wait_exit(timeout=300)
            output = guest.output
        runs = benchreport.parse_text(output.decode("utf-8", "replace"), str(guest.log_path))
        assert len(runs) == 1, f"expected one bench run in {guest.log_path}"
        _runs[key] = (status, output, runs[0])
    return _runs[key]


def bench_lines(output):
    return [line for line in output.decode("utf-8", "replace").splitlines() if "BENCH {" in line]


def check_percentiles(record):
    for prefix in ("", "write_", "late_", "blocked_", "read_"):
        keys = [f"{prefix}{q}_us" for q in ("min", "p50", "p90", "p99", "max")]
        if all(k in record for k in keys):
            values = [record[k] for k in keys]
            assert values == sorted(values), f"{record['section']} {prefix} percentiles {values}"


def check_run(run, output, backend, env, full=True):
    header = run.header
    assert header["env"] == env
    assert header["backend"] == backend
    assert header["backend_detected"] == (backend if backend != "polling" else "polling,fifo")
    assert header["icount"] is True and header["percentiles"] == "nearest-rank"
    assert run.end is not None and run.end["failures"] == 0, run.end
    sections = {r["section"] for r in run.results}
    if full:
        assert sections == ALL_SECTIONS
    for record in run.results:
        assert record.get("errors", 0) == 0, record
        assert record.get("short_writes", 0) == 0, record
        check_percentiles(record)

    def group(section, count, sizes):
        rows = run.lines(section)
        assert [r["size"] for r in rows] == sizes, section
        for r in rows:
            assert r["n"] == count, (section, r["size"])
            assert r["bytes"] == r["n"] * r["size"], (section, r["size"])
    if not full:
        return
    group("S10", QUICK["S10"], [64, 256, 1024])
    group("S11", QUICK["S11"], [64, 256, 1024])
    group("S12", QUICK["S12"], [64, 256, 1024])
    group("S13", QUICK["S13"], [256])
    group("S14", QUICK["S14"], [64, 128, 256])
    group("S51", QUICK["S51"], [65536])
    group("S20", QUICK["S20"], [1])
    # S15: QUICK["S15"] KiB in 4 KiB writes; the telemetry saw every byte go to the UART
    s15 = run.one("S15")
    assert s15["size"] == 4096 and s15["n"] == QUICK["S15"] // 4
    assert s15["bytes"] == QUICK["S15"] * 1024 and s15["telemetry"] is True
    assert s15["thr_bytes"] >= s15["bytes"] and s15["fifo_loads"] > 0
    group("S21", QUICK["S21"], S21_SIZES_FIFO16)
    assert [r["drains"] for r in run.lines("S12")] == [2, 2, 2]
    s30 = run.one("S30")
    assert s30["result"] == "PASS" and s30["eagain"] == QUICK["S30"] and s30["fionbio_eagain"]
    # S50: one line per kind of round, every child exited 0 (errors 0, checked above)
    s50 = run.lines("S50")
    assert [r["round"] for r in s50] == ["fork_wait", "fork_execve_wait", "vfork_execve_wait",
                                         "spawn_wait"]
    assert all(r["n"] == QUICK["S50"] and r["fork_pages"] > 0 for r in s50), s50
    s40 = run.lines("S40")
    assert [r["workload"] for r in s40] == ["drain_each", "burst", "byte_drain"]
    for r in s40:
        assert r["telemetry"] is True and r["n"] == QUICK["S40"]
        assert r["bytes"] == r["n"] * r["size"] == r["bytes_written"]
        assert r["thr_bytes"] >= r["bytes_written"]
        assert r["write_calls"] == r["n"]
    assert [(r["size"], r["n"]) for r in run.lines("S41")] == [(1, 8), (64, 8), (1024, 2)]
    for r in run.lines("S41"):
        assert r["bytes"] == r["n"] * r["size"]
        assert r["busy_ns_per_byte"] > 0
        assert r["telemetry"] is True and r["thr_bytes"] >= r["bytes"]
    s42 = run.one("S42")
    assert s42["n"] == QUICK["S42"] and s42["bytes"] == 64 * QUICK["S42"]
    assert 0 <= s42["overlap_pct"] <= 101
    loads = {r["load"]: r for r in run.lines("S43")}
    assert set(loads) == {"idle", "burst", "writer_other_hart", "compute_other_harts"}
    for load, r in loads.items():
        if load == "burst":
            assert r["n"] <= QUICK["S43"]  # 0 where write() returns only when sent
        else:
            assert r["n"] == QUICK["S43"], load
    # S44: 1, 2 and 4 writers, each n records of 64 bytes, every one whole on the console
    for harts in (1, 2, 4):
        workers = run.lines("S44", role="worker", harts=harts)
        assert sorted(w["hart"] for w in workers) == list(range(harts))
        for w in workers:
            assert w["n"] == w["records"] == QUICK["S44"]
            assert w["bytes"] == 64 * w["records"]
        summary = run.one("S44", role="summary", harts=harts)
        assert summary["failed_workers"] == 0
        assert summary["bytes_expected"] == sum(w["bytes"] for w in workers)
    seen = {}
    for match in RECORD.finditer(output):
        harts, writer, seq, letters, checksum = match.groups()
        assert len(match.group(0).rstrip(b"\r\n")) + 1 == 64, match.group(0)
        assert sum(letters) & 0xFFFFFF == int(checksum, 16)
        seen.setdefault((int(harts), int(writer)), []).append(int(seq))
    expected = {(h, w) for h in (1, 2, 4) for w in range(h)}
    assert set(seen) == expected
    for sequences in seen.values():
        assert sequences == list(range(QUICK["S44"])), "records lost, repeated or reordered"
    # S45: the writer's line per phase, one compute child per hart it used
    for phase, children in (("others_compute", 3), ("all_compute", 4),
                            ("writer_hart_only", 1)):
        writer = run.one("S45", role="writer", phase=phase)
        assert writer["compute_workers"] == children and writer["failed_workers"] == 0
        assert writer["bytes"] == writer["transfers"] * writer["size"] == \
            writer["transfers"] * QUICK["S45"] * 1024
        assert len(writer["busy_pct"]) == 4
        assert all(0 <= b <= 100 for b in writer["busy_pct"])
        assert len(run.lines("S45", role="compute", phase=phase)) == children


@pytest.mark.parametrize("backend", ["polling", "async"])
def test_bench_quick_is_sane(image, backend):
    status, output, run = run_bench(image, backend, extra="--quick")
    assert status == 0
    check_run(run, output, backend, "qemu")


@pytest.mark.skipif(not LINE_MODEL, reason="no line model (drivers/uart/line_model.c)")
def test_bench_quick_on_the_line_model_async(image):
    status, output, run = run_bench(image, "async", line=True, extra="--quick")
    assert status == 0
    check_run(run, output, "async", "qemu+line")
    assert run.header["line_model"] is True and run.end["line_overruns"] == 0
    # on the modelled wire nothing beats the line rate
    for r in run.lines("S10") + run.lines("S12"):
        assert r["line_rate_pct"] <= 100.0


@pytest.mark.skipif(not LINE_MODEL, reason="no line model (drivers/uart/line_model.c)")
def test_bench_on_the_line_model_polling(image):
    # polling spins on the modelled line, which costs host time under -icount: a few
    # sections with 3 iterations each
    status, output, run = run_bench(image, "polling", line=True,
                                    extra="--iters 3 --sections S10,S20,S21,S40")
    assert status == 0
    check_run(run, output, "polling", "qemu+line", full=False)
    assert {r["section"] for r in run.results} == {"S10", "S20", "S21", "S40"}
    assert all(r["n"] == 3 for r in run.results)
    for r in run.lines("S10"):
        assert r["bytes"] == 3 * r["size"] and r["line_rate_pct"] <= 100.0


def test_two_runs_give_identical_numbers(image):
    # One hart: byte-identical numbers are QEMU -icount's promise for one instruction
    # stream; on several harts the round-robin turns can move a time by a tick
    # (docs/design.md, "Determinism"; a clean-clone run saw S44's drained_ns differ).
    _, first, _ = run_bench(image, "async", extra="--quick", name="bench-determinism-1",
                            smp=1)
    status, second, _ = run_bench(image, "async", extra="--quick", name="bench-determinism-2",
                                  smp=1)
    assert status == 0
    a, b = bench_lines(first), bench_lines(second)
    assert len(a) == len(b) > 50
    for x, y in zip(a, b):
        assert x == y


@pytest.mark.skipif(not LINE_MODEL, reason="no line model (drivers/uart/line_model.c)")
def test_header_says_the_real_baud(image, request):
    # uart.line=3000000 on QEMU's 3.6864 MHz clock runs at 230400 (divisor 1): the boot
    # log warns, and bench's header carries what the console runs at beside what was
    # asked for, even when --baud labels the run otherwise.
    append = ("console=async uart.line=3000000 init=/bin/bench -- --icount "
              "--sections S20 --iters 3 --baud 3000000")
    with duplex_qemu.Guest(image, smp=1, append=append, icount=True,
                           name=duplex_qemu.sanitize_name(request.node.name),
                           interactive=False) as guest:
        status = guest.wait_exit(timeout=120)
        output = guest.output.decode("utf-8", "replace")
    assert status == 0
    assert "line model: WARNING: 3000000 baud cannot be made from a 3686400 Hz" in output
    assert "# bench: --baud 3000000, but the console runs at 230400 baud" in output
    run = benchreport.parse_text(output, "header-test")[0]
    assert run.header["baud"] == 3000000  # the label --baud gave
    assert run.header["baud_actual"] == 230400
    assert run.header["baud_requested"] == 3000000
    assert run.header["tx_threshold"] == 0
