"""The sweep's short version (`tools/sweep --quick`, what `make sweep SWEEP=quick` runs):
115200 and 1.5 Mbaud, FIFO 16 (TX interrupt at empty) and 64 (TX interrupt at 16 queued),
polling,fifo and async, one hart, under QEMU -icount.

Asserted: the counts it reports, never times. Every byte written was delivered (bytes =
n x payload, the 16 KiB stream whole); polling takes no TX interrupt and, on a 16550-style
FIFO, one load per 16 bytes; async refills a whole 16-byte FIFO per interrupt, and with
the threshold at least 48 bytes per interrupt (the D1-shape target: at most one per 48
bytes sent), while a 64-byte write to the idle 64-byte FIFO takes none. The report, its
maps and its crossover statements are written.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
STREAM_KIB = 16  # tools/sweep bench_args(quick): --n S15=16


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    image = REPO / "build" / "qemu-virt" / "Image"
    if not image.is_file():
        pytest.fail(f"kernel image {image} not found: run make first", pytrace=False)
    out = tmp_path_factory.mktemp("sweep")
    result = subprocess.run([sys.executable, str(REPO / "tools" / "sweep"), "--quick",
                             "--image", str(image), "--out", str(out)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads((out / "sweep.json").read_text())
    return out, data, result.stdout


def rows(data, **match):
    return [r for r in data["rows"] if all(r.get(k) == v for k, v in match.items())]


def test_every_point_ran_and_every_byte_arrived(sweep):
    _, data, _ = sweep
    assert data["meta"]["points"] == 8 and not data["meta"]["problems"]
    assert len(data["rows"]) == 8 * 3  # one row per payload per boot
    for r in data["rows"]:
        assert r["baud_actual"] == r["baud"]  # uart.line.clock=0: exact
        assert r["bytes"] == r["n"] * r["payload"], r
        assert r["stream_bytes"] == STREAM_KIB * 1024, r
        assert (r["fifo_depth"], r["tx_threshold"]) == {16: (16, 0), 64: (64, 16)}[r["fifo"]]


def test_polling_takes_no_interrupts_and_loads_per_thre(sweep):
    _, data, _ = sweep
    for r in rows(data, backend="polling,fifo"):
        assert r["thre_interrupts"] == 0 and r["stream_thre_interrupts"] == 0
        if r["fifo"] == 16:
            # THRE rules: one load per FIFO's worth, each write on its own
            assert r["fifo_loads"] == r["n"] * -(-r["payload"] // 16), r
            assert r["stream_fifo_loads"] == STREAM_KIB * 1024 // 16


def test_async_refills_a_fifo_per_interrupt(sweep):
    _, data, _ = sweep
    for r in rows(data, backend="async", fifo=16):
        # TX interrupt at empty: the first 16 bytes go straight into the idle FIFO, every
        # other 16 come from an interrupt's refill, and the refill that empties the ring
        # turns the interrupt off (stop_tx): no interrupt finds nothing
        if r["payload"] == 4096:
            assert r["thre_interrupts"] == r["n"] * (4096 // 16 - 1), r
            assert r["interrupts_per_kib"] == 63.75
        assert r["stream_thre_interrupts"] == STREAM_KIB * 1024 // 16 - 1
    for r in rows(data, backend="async", fifo=64):
        # TX interrupt at 16 queued: 48-byte refills, so at most one per 48 bytes, and
        # more than loads of 64 would take
        assert r["stream_thre_interrupts"] * 48 <= r["stream_bytes"], r
        assert r["stream_thre_interrupts"] * 64 > r["stream_bytes"], r
        if r["payload"] == 4096:
            assert r["thre_interrupts"] * 48 <= r["bytes"], r
            assert r["interrupts_per_kib"] <= 1024 / 48
        if r["payload"] in (1, 64):
            # the whole write fits the idle FIFO: straight in, no interrupt at all
            assert r["thre_interrupts"] == 0 and r["fifo_loads"] == r["n"], r


def test_report_maps_and_crossovers(sweep):
    out, _, stdout = sweep
    report = (out / "report.md").read_text()
    assert "## Crossovers" in report
    for name in ("map-writer-cpu.png", "map-s20-latency.png", "map-stream-line-rate.png",
                 "map-interrupts.png"):
        assert (out / name).stat().st_size > 0 and f"]({name})" in report
    assert "1-byte write + tcdrain" in stdout
    assert "saving of writing-hart CPU per byte" in stdout
