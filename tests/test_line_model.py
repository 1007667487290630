"""QEMU system tests of the UART line model (issue: the line model), counting virtual time.

Every run boots with `-icount shift=0,sleep=off`, so time in the guest is virtual (1 ns
per instruction, idle skipped) and the numbers user/linetest prints are deterministic.
Asserting on time is allowed here because what is checked is the model's arithmetic as
the console backends experience it, not the speed of the host:

  (a) one write of N bytes + tcdrain takes N x 10 / baud, within one byte time, at
      9600, 115200 and 1500000 baud (each N is 250 ms of wire);
  (b) polling drain-each at 1024 B runs at 99.0 .. 100.0 % of the line rate, and no
      run of either backend is ever faster than the wire;
  (c) a 1-byte write + tcdrain takes at least one byte time;
  (d) two runs of the same configuration give identical output;
  (e) the D1 shape (64-byte FIFO, TX interrupt at 16 queued): async refills ~48 bytes
      per interrupt and even the copier thread keeps the wire busy;
for both console backends. 1500000 baud is modelled from the D1's 24 MHz UART clock
(uart.line.clock=24000000): QEMU's 3.6864 MHz clock cannot go above 230400 baud.
"""

import re

import pytest

import duplex_qemu

BACKENDS = ["polling", "async", "async,thread"]

# baud -> (extra command line, bytes for (a): 250 ms of wire, drain-each iterations)
RUNS = {
    9600: ("", 240, 0),
    115200: ("", 2880, 5),
    1500000: ("uart.line.clock=24000000", 37500, 5),
}
ONE_BYTE_ITERS = 10
DRAIN_EACH_SIZE = 1024
NS_PER_SECOND = 10**9

# The async backend's software path costs a few microseconds that the line model rightly
# counts: write() copies a whole 4 KiB chunk (twice: from user space, then into the TX
# ring) before the first byte is kicked, and tcdrain looks for TEMT once per byte time,
# so it returns up to one byte time plus a look late. At 9600 and 115200 that fits in a
# byte time; at 1.5 Mbaud a byte takes only 6.67 us, and it does not. The allowance is
# the measured cost (about 15 us) with room to spare: a broken model is off by whole
# FIFOs, never by microseconds. (Shrinking it is the console's job, not the model's.)
# async,thread loads each FIFO from a task the TX interrupt wakes: at 1.5 Mbaud the last
# byte leaves the shift register 6.7 us after THRE, sooner than the copier runs, so the
# wire idles a little at every FIFO load (about 0.04 % here). That is the cost the
# variant exists to show (bench's S10 measures it); this test is about the model.
SOFTWARE_ALLOWANCE_NS = {"polling": 0, "async": 25_000, "async,thread": 2_500_000}


def linetest(image, request, backend, baud, suffix="", shape="", smp=2):
    """Boot with the line model at `baud` (plus `shape`: more uart.line.* keys), run
    linetest, return (output, parsed lines)."""
    extra, send_bytes, drain_iters = RUNS[baud]
    extra = f"{extra} {shape}".strip()
    append = (f"console={backend} uart.line={baud} {extra} "
              f"init=/bin/linetest -- {send_bytes} {drain_iters} {ONE_BYTE_ITERS}")
    name = duplex_qemu.sanitize_name(request.node.name + suffix)
    with duplex_qemu.Guest(image, smp=smp, append=append, icount=True, name=name,
                           interactive=False) as guest:
        status = guest.wait_exit(timeout=120)
        output = guest.output
    assert status == 0, f"linetest exited with {status}"
    results = {}
    for kind, fields in re.findall(rb"LINETEST (\w+) ([^\r\n]*)", output):
        results[kind.decode()] = {
            key: (int(value) if value.isdigit() else value)
            for key, value in (field.split("=", 1) for field in fields.decode().split())
        }
    return output, results


def byte_ns(baud):
    return 10 * NS_PER_SECOND / baud


@pytest.mark.parametrize("baud", sorted(RUNS))
@pytest.mark.parametrize("backend", BACKENDS)
def test_wire_time_follows_the_model(image, request, backend, baud):
    output, results = linetest(image, request, backend, baud)
    info = results["info"]
    assert info["backend"] == backend.split(",")[0]
    assert info["line_model"] == 1
    assert info["baud"] == baud
    assert info["fifo"] == 16
    assert info["byte_ps"] == 10 * 10**12 // baud
    assert re.search(rb"line model: %d baud \(actual %d, clock \d+ Hz, divisor \d+\), "
                     rb"10 bits/byte, fifo 16, byte \d+\.\d{3} ns" % (baud, baud), output)

    # (a) N bytes take N x 10 / baud, within one byte time (never less).
    send = results["send"]
    wire_ns = send["bytes"] * byte_ns(baud)
    took = send["ns"]
    assert took >= wire_ns, f"{took} ns is faster than the wire ({wire_ns:.0f} ns)"
    assert took <= wire_ns + byte_ns(baud) + SOFTWARE_ALLOWANCE_NS[backend], \
        f"{took} ns for {send['bytes']} bytes, wire time {wire_ns:.0f} ns"

    # (b) drain-each at 1024 B: never above the line rate; polling within 1 %.
    if "drain_each" in results:
        drain = results["drain_each"]
        rate_pct = 100 * drain["bytes"] * byte_ns(baud) / drain["ns"]
        assert rate_pct <= 100.0
        if backend == "polling":
            assert rate_pct >= 99.0, f"polling drain-each at {rate_pct:.3f} % of the line"

    # (c) one byte + drain takes at least one byte time.
    one = results["one_byte"]
    assert one["n"] == ONE_BYTE_ITERS
    assert one["min_ns"] >= byte_ns(baud)

    # The backends kept to the modelled FIFO; only async used the TX interrupt.
    done = results["done"]
    assert done["overruns"] == 0
    if backend.startswith("async"):
        assert done["tx_events"] > 0
    else:
        assert done["tx_events"] == 0


# The D1's UART0 as the model presents it: 24 MHz clock, 64-byte FIFO, and the
# DesignWare programmable THRE interrupt at 16 bytes or fewer queued.
D1_SHAPE = "uart.line.fifo=64 uart.line.threshold=16"


@pytest.mark.parametrize("backend", BACKENDS)
def test_d1_shape_refills_at_the_threshold(image, request, backend):
    output, results = linetest(image, request, backend, 1500000, shape=D1_SHAPE)
    assert b"line model: TX interrupt at 16 bytes or fewer in the FIFO (PTIME)" in output
    assert results["info"]["fifo"] == 64
    done = results["done"]
    assert done["overruns"] == 0
    sent = (results["send"]["bytes"] + results["drain_each"]["bytes"]
            + results["one_byte"]["n"])
    if backend.startswith("async"):
        # Refills of up to 48 bytes (64 - 16) per interrupt: over 40 on average even
        # with the short writes' interrupts that find nothing (16-byte loads at THRE
        # would take over 2600 here).
        assert 0 < done["tx_events"] <= sent // 40, done
        assert b"queued" in output  # the backend describes the threshold it uses
    else:
        assert done["tx_events"] == 0
    # The refill lands while 16 bytes are still queued, so even the copier thread keeps
    # the wire busy: the 37 500-byte send ends within 0.1 ms of its wire time (without
    # the threshold async,thread needs up to 2.5 ms more; see SOFTWARE_ALLOWANCE_NS).
    send = results["send"]
    wire_ns = send["bytes"] * byte_ns(1500000)
    assert wire_ns <= send["ns"] <= wire_ns + 100_000, send


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_runs_are_identical(image, request, backend):
    # One hart, -icount: every byte, count and line repeats; the times (time stamps and
    # the measured ns) agree to within a warp of idle time, which QEMU computes in its
    # main-loop thread (seen once on a loaded host: 300 ns). Byte-identical is what
    # record/replay promises (tests/test_replay.py; docs/design.md, "Determinism").
    first, _ = linetest(image, request, backend, 115200, suffix="-1", smp=1)
    second, _ = linetest(image, request, backend, 115200, suffix="-2", smp=1)
    assert b"LINETEST done" in first
    times = re.compile(rb"^\[\s*\d+\.\d{6}\] |\bns=\d+", re.MULTILINE)
    assert times.sub(b"<time>", first) == times.sub(b"<time>", second)


def test_line_model_is_off_by_default_and_uart_line_1_models_the_uart(image, request):
    status, text = duplex_qemu.run_to_exit(
        image, append="console=async init=/bin/linetest -- 0 0 0", smp=1, icount=True,
        name=duplex_qemu.sanitize_name(request.node.name + "-off"))
    assert status == 0
    assert "line model" not in text
    assert re.search(r"LINETEST info backend=async options=- line_model=0 baud=115200", text)

    status, text = duplex_qemu.run_to_exit(
        image, append="console=polling,byte uart.line=1 init=/bin/linetest -- 0 0 0", smp=1,
        icount=True, name=duplex_qemu.sanitize_name(request.node.name + "-own"))
    assert status == 0
    assert "line model: 115200 baud (actual 115200, clock 3686400 Hz, divisor 2), " \
        "10 bits/byte, fifo 16, byte 86805.555 ns" in text
    assert re.search(r"LINETEST info backend=polling options=byte line_model=1 baud=115200 "
                     r"fifo=16 byte_ps=86805555", text)


def test_unreachable_baud_is_reported_as_the_actual_one(image, request):
    # QEMU's UART clock (3.6864 MHz) divides down to 230400 at most: the model says so.
    status, text = duplex_qemu.run_to_exit(
        image, append="console=async uart.line=1500000 init=/bin/linetest -- 0 0 0", smp=1,
        icount=True, name=duplex_qemu.sanitize_name(request.node.name))
    assert status == 0
    assert "line model: 1500000 baud (actual 230400, clock 3686400 Hz, divisor 1)" in text
    assert "baud=230400" in text
    # ... and says why, with the way out.
    assert ("line model: WARNING: 1500000 baud cannot be made from a 3686400 Hz UART "
            "clock: the nearest divisor, 1, gives clock / (16 x 1) = 230400 baud, 84.6 % "
            "off (over 2 %); running at 230400. uart.line.clock=0 models 1500000 "
            "exactly") in text
    # A divisor that is merely close (24 MHz / (16 x 13) = 115384.6, +0.16 %) is no
    # warning.
    status, text = duplex_qemu.run_to_exit(
        image, append="console=async uart.line=115200 uart.line.clock=24000000 "
        "init=/bin/true", smp=1, icount=True,
        name=duplex_qemu.sanitize_name(request.node.name + "-close"))
    assert status == 0
    assert "actual 115384, clock 24000000 Hz, divisor 13" in text
    assert "WARNING" not in text


def test_bad_value_leaves_the_model_off(image, request):
    status, text = duplex_qemu.run_to_exit(
        image, append="console=async uart.line=fast init=/bin/true", smp=1, icount=True,
        name=duplex_qemu.sanitize_name(request.node.name))
    assert status == 0
    assert "uart.line: not a baud rate: line model off" in text
    status, text = duplex_qemu.run_to_exit(
        image, append="console=async uart.line=115200 uart.line.threshold=16 init=/bin/true",
        smp=1, icount=True, name=duplex_qemu.sanitize_name(request.node.name + "-shape"))
    assert status == 0
    assert ("uart.line.fifo must be 1-256 and uart.line.threshold below it: line model "
            "off") in text
