"""System tests of bench's typed sections (issue #25): S22, the echo round trip
(canonical and raw), and S23, ^C to the SIGINT handler's first instruction with every
hart busy, under QEMU -icount on the line model at 115200, with the host typist that
answers bench's requests (tools/bench_typist.py; user/bench/terminal.c). They check
that the lines are well formed and complete — both modes, every placement, n as asked,
every sample counted, nothing missing, the workers killed as planned — and that the
report's terminal targets table finds them. Counts only: what the times are is the
report's business."""

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

import pytest

import duplex_qemu

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
import bench_typist  # noqa: E402

N = 5  # bench --quick's count for S22 and S23 (user/bench/main.c)


def _load_benchreport():
    loader = importlib.machinery.SourceFileLoader("benchreport",
                                                  str(REPO / "tools" / "benchreport"))
    spec = importlib.util.spec_from_loader("benchreport", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


benchreport = _load_benchreport()


def typed_run(image, backend, sections):
    append = (f"console={backend} uart.line=115200 init=/bin/bench -- --icount "
              f"--backend {backend} --env qemu+line --quick --sections {sections}")
    name = duplex_qemu.sanitize_name(f"bench-typed-{backend}-{sections}")
    with duplex_qemu.Guest(image, smp=4, append=append, icount=True, name=name,
                           interactive=True) as guest:
        typist = bench_typist.Typist(guest)
        typist.start()
        status = guest.wait_exit(timeout=600)
        typed = typist.stop()
        output = guest.output
    runs = benchreport.parse_text(output.decode("utf-8", "replace"), str(guest.log_path))
    assert len(runs) == 1
    return status, typed, runs[0]


def check_common(row):
    assert row["errors"] == 0, row
    assert row["n"] == N, row
    assert row["missing"] == 0, row
    assert row["discarded"] >= 0
    values = [row[f"{q}_us"] for q in ("min", "p50", "p90", "p99", "max")]
    assert values == sorted(values), row


@pytest.mark.parametrize("backend", ["async", "polling"])
def test_echo_round_trip_lines(image, backend):
    status, typed, run = typed_run(image, backend, "S22")
    assert status == 0 and run.end["failures"] == 0
    rows = run.lines("S22")
    assert [r["mode"] for r in rows] == ["canonical", "raw"]
    for row in rows:
        check_common(row)
        assert row["line_model"] is True
        assert row["rx_clock"] == ("poll" if backend == "polling" else "interrupt")
        assert row["size"] == 1
    # one typed byte per sample, and one more for each discarded sample
    assert typed == sum(r["n"] + r["discarded"] for r in rows)
    targets = benchreport.terminal_targets([run])
    assert len(targets[0][2]) == 2  # both modes reach the targets table


def test_interrupt_to_handler_lines(image):
    status, typed, run = typed_run(image, "async", "S23")
    assert status == 0 and run.end["failures"] == 0
    rows = run.lines("S23")
    assert [(r["target"], r["target_hart"], r["busy_harts"]) for r in rows] == \
        [("irq_hart", 0, 4), ("other_hart", 1, 4), ("irq_hart_others_idle", 0, 1)]
    for row in rows:
        check_common(row)
        assert row["failed_workers"] == 0
        assert row["rx_clock"] == "interrupt"
    assert typed == sum(r["n"] + r["discarded"] for r in rows)
    targets = benchreport.terminal_targets([run])
    assert [item[0] for item in targets[1][2]] == \
        ["qemu+line · async irq_hart", "qemu+line · async other_hart"]
