"""System tests of the event tracer (kernel/trace/, user/trace.c, tools/timeline).

One traced write of 64 bytes + tcdrain on the 115200-baud line model per backend
(`trace write 64`, QEMU -icount), decoded by tools/timeline's parser: the events' order
and counts must be each backend's design, and every byte written must be on the wire.
A damaged dump must be refused. With tracing off, nothing is recorded and the console's
bytes are the same as with it on. Counts, orders and states only; no times."""

import importlib.machinery
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import duplex_qemu

REPO = Path(__file__).resolve().parent.parent
SIZE = 64
FIFO = 16


def _load_timeline():
    loader = importlib.machinery.SourceFileLoader("timeline", str(REPO / "tools" / "timeline"))
    spec = importlib.util.spec_from_loader("timeline", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


timeline = _load_timeline()
_logs = {}


def traced_write(image, request, backend):
    """Boot, run `trace write 64`, return (log text, decoded dump); one boot per backend."""
    if backend not in _logs:
        append = timeline.scenario_append(backend, 115200, SIZE)
        status, text = duplex_qemu.run_to_exit(
            image, append=append, smp=timeline.DOCS_HARTS, icount=True, timeout=120,
            name=duplex_qemu.sanitize_name(f"trace-write-{backend}"))
        assert status == 0, f"trace write exited with {status}"
        _logs[backend] = text
    text = _logs[backend]
    return text, timeline.parse_dump(text, source=backend)


def names(dump, *wanted):
    return [r for r in dump.records if r.name in wanted]


def first_index(dump, name):
    return next(i for i, r in enumerate(dump.records) if r.name == name)


def check_common(dump):
    """What every backend shares: one write of 64 bytes, drained, all 64 on the wire."""
    assert dump.written == SIZE and dump.write_size == SIZE
    assert sum(dump.dropped) == 0
    writes = names(dump, "write_enter")
    assert [r.a for r in writes] == [SIZE]
    wire = names(dump, "wire_load")
    assert sum(r.a & 0xffff for r in wire) == SIZE  # bytes on the wire == bytes written
    assert all((r.a & 0xffff) <= FIFO for r in wire)
    loads = names(dump, "fifo_load")
    assert sum(r.a for r in loads) == SIZE
    order = [first_index(dump, n) for n in
             ("write_enter", "fifo_load", "write_exit", "drain_enter", "temt_seen", "drain_exit")]
    if dump.backend.startswith("async"):
        assert order == sorted(order), "write, load, return, drain, TEMT, drain done"
    else:
        # polling: every load happens before write() returns
        assert order[0] < order[1] and all(i < order[2] for i in
                                           (dump.records.index(r) for r in loads))
    # The wire's bytes leave back to back: each load starts where the one before ends.
    for before, after in zip(wire, wire[1:]):
        assert after.c >= before.d - 1
    return loads, wire


def test_polling_fifo_loads_four_fifos_without_interrupts(image, request):
    _text, dump = traced_write(image, request, "polling,fifo")
    loads, wire = check_common(dump)
    assert [r.a for r in loads] == [FIFO] * 4
    assert {timeline.LOAD_PATHS[r.b] for r in loads} == {"poll"}
    assert len(wire) == 4
    assert not names(dump, "uart_irq", "ring_push", "ring_pop", "drain_park")


def test_polling_byte_loads_byte_by_byte(image, request):
    _text, dump = traced_write(image, request, "polling,byte")
    loads, wire = check_common(dump)
    assert len(wire) == SIZE  # one THR write per byte
    assert {timeline.LOAD_PATHS[r.b] for r in loads} == {"poll,byte"}
    assert not names(dump, "uart_irq", "ring_push")


def test_async_one_direct_load_then_tx_interrupts_refill(image, request):
    _text, dump = traced_write(image, request, "async")
    loads, wire = check_common(dump)
    paths = [timeline.LOAD_PATHS[r.b] for r in loads]
    assert paths == ["direct", "irq", "irq", "irq"]
    assert [r.a for r in loads] == [FIFO] * 4
    pushes = names(dump, "ring_push")
    assert [r.a for r in pushes] == [SIZE - FIFO]
    # write() returns once the rest is queued, before any interrupt refill
    assert first_index(dump, "write_exit") < first_index(dump, "uart_irq")
    # each refill comes from a TX-ready UART interrupt just before it
    for load in loads[1:]:
        i = dump.records.index(load)
        irq = [r for r in dump.records[:i] if r.name == "uart_irq"][-1]
        assert irq.a & timeline.UART_EVENT_TX_READY and irq.hart == load.hart
    assert [r.b for r in names(dump, "ring_pop")] == [32, 16, 0]  # ring fill after each pop


def test_async_thread_copier_loads_every_fifo(image, request):
    _text, dump = traced_write(image, request, "async,thread")
    loads, _wire = check_common(dump)
    assert [timeline.LOAD_PATHS[r.b] for r in loads] == ["copier"] * 4
    assert [r.a for r in names(dump, "ring_push")] == [SIZE]
    wakes = names(dump, "copier_wake")
    assert len(wakes) >= 4
    # every load is made by the copier after it woke, never inside an interrupt
    for load in loads:
        i = dump.records.index(load)
        assert [r for r in dump.records[:i] if r.hart == load.hart and
                r.name in ("copier_wake", "copier_sleep")][-1].name == "copier_wake"
    switches_to_copier = [r for r in names(dump, "switch") if r.d.to_bytes(8, "little")
                          .startswith(b"console ")]
    assert len(switches_to_copier) >= 4


def test_summary_counts(image, request):
    _text, dump = traced_write(image, request, "async")
    s = timeline.summarize(dump)
    assert s["wire_bytes"] == SIZE and s["wire_loads"] == 4 and s["wire_gaps"] == 0
    assert s["uart_tx_interrupts"] >= 3 and s["fifo_loads"] == {"direct": 1, "irq": 3}


def test_committed_timeline_summary_is_regenerated(image, request):
    """docs/timeline/summary.txt is what `make timeline TIMELINE_OUT=docs/timeline` prints
    for this build: the same scenario (2 harts, -icount, whose runs on two harts repeat
    their events and times), summarised by the same code, must give the same text. The
    runs are the ones the tests above made, so this costs no boot. Stale after a change
    to the console, the scheduler or the tracer: regenerate it (a few seconds)."""
    text = "".join(timeline.summary_text(timeline.summarize(traced_write(image, request, b)[1]))
                   for b in timeline.BACKENDS)
    committed = (REPO / "docs" / "timeline" / "summary.txt").read_text()
    if text != committed:
        import difflib
        diff = "".join(difflib.unified_diff(committed.splitlines(True), text.splitlines(True),
                                            "docs/timeline/summary.txt", "this build"))
        pytest.fail("docs/timeline/summary.txt is stale: run `make timeline "
                    f"TIMELINE_OUT=docs/timeline` and commit it\n{diff}", pytrace=False)


def corrupt(text, how):
    lines = text.split("\n")
    begin = max(i for i, line in enumerate(lines) if line.startswith("TRACE-BEGIN"))
    record = begin + 5
    if how == "digit":
        first, rest = lines[record].split(" ", 1)
        lines[record] = f"{int(first, 16) ^ 1:x} {rest}"
    elif how == "lost line":
        del lines[record]
    elif how == "cut":
        lines = lines[:record]
    elif how == "crc":
        end = max(i for i, line in enumerate(lines) if line.startswith("TRACE-END"))
        lines[end] = re.sub(r"crc32=\w+", "crc32=00000000", lines[end])
    return "\n".join(lines)


@pytest.mark.parametrize("how,message", [("digit", "CRC-32"), ("lost line", "record lines"),
                                         ("cut", "cut short"), ("crc", "CRC-32")])
def test_damaged_dump_is_refused(image, request, tmp_path, how, message):
    text, _dump = traced_write(image, request, "async")
    damaged = corrupt(text, how)
    with pytest.raises(timeline.DumpError, match=message):
        timeline.parse_dump(damaged)
    log = tmp_path / "damaged.log"
    log.write_text(damaged)
    result = subprocess.run([sys.executable, str(REPO / "tools" / "timeline"), "check", str(log)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "refus" in result.stderr + "cut short" * (how == "cut")
    assert message in result.stderr


def test_tracing_off_records_nothing_and_changes_no_byte(image, guest_factory):
    guest = guest_factory(image, smp=2).start()
    guest.wait_for(rb"\$ ", timeout=60)

    def run(command):
        before = len(guest.output)
        guest.send(command + "\n")
        guest.wait_for(rb"\n\$ ", timeout=60)  # (a lazy [\s\S]*? here is quadratic)
        return guest.output[before:].rsplit(b"\n$ ", 1)[0].decode("latin-1")

    status = run("trace status")
    assert "mask 0, 0 records per hart" in status  # never switched on: no rings at all
    plain = run("conpattern write 3000")
    assert "PATTERN-END bytes=3000" in plain
    traced = run("trace run -e all conpattern write 3000")
    assert traced.split("TRACE-BEGIN")[0].split("conpattern write 3000", 1)[1].strip() == \
        plain.split("conpattern write 3000", 1)[1].strip()
    counts = re.findall(r"hart (\d+): (\d+) records", run("trace status"))
    assert sum(int(n) for _h, n in counts) > 0
    run("echo more output")  # off after `trace run`: nothing more is recorded
    assert re.findall(r"hart (\d+): (\d+) records", run("trace status")) == counts


def test_strace_prints_one_line_per_call(image):
    status, text = duplex_qemu.run_to_exit(
        image, append='init=/bin/trace -- strace sh -c "echo hi"', smp=2, icount=True,
        timeout=60, name="trace-strace")
    assert status == 0
    lines = [line for line in text.replace("\r", "").split("\n") if re.match(r"\d+ \w+\(", line)]
    # sh forks (clone with SIGCHLD, 17) and waits for any child (-1, WUNTRACED = 2); the
    # child's execve may come before the clone's return, where trace starts following it.
    sh_pid = int(re.match(r"(\d+) clone\(17, .*\) = (\d+)", lines[0]).group(1))
    echo_pid = int(re.match(r"(\d+) clone\(17, .*\) = (\d+)", lines[0]).group(2))
    assert f"{echo_pid} write(1, " in text and re.search(rf"{echo_pid} write\(1, \w+, 3\) = 3", text)
    assert lines[-1] == f"{sh_pid} exit_group(0) = ?"
    assert re.search(rf"{sh_pid} wait4\(-1, \w+, 2, 0\) = {echo_pid}", text)
