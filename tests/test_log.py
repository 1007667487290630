"""QEMU system tests of the kernel log buffer (kernel/log/): nothing the kernel says is
lost.

* Kill reports under a console flood: three programs flood the console while five
  programs fault (user/logstorm.c); every "killed by SIGSEGV" report and init's
  "exited with status 0; powering off" line reach the wire, on both backends (async
  with an 8 KiB TX ring, so that the flood fills it; async with its copier thread;
  polling), with the line model on (115200 baud) and off, on 1 and 4 harts. Before
  the log buffer, a full async ring dropped kernel lines: the power-off line or a kill
  report was missing.
* A skipped range is announced: selftest=log-overflow overflows a 16-record buffer by
  five records while the console cannot print; the console prints the lines before,
  "** 5 kernel messages dropped **", then every later line, each once and in order.
* dmesg reads the buffer (syslog(2) READ_ALL): the boot lines and a kill report are in
  it; `dmesg -C` clears it for later reads.

Counts, orderings and states only; the timeouts only stop hung guests.
"""

import re

import pytest

PROMPT = rb"\$ "
FLOODERS, FLOOD_BYTES, FAULTERS = 3, 8192, 5
BACKENDS = ["async,ring=8192", "async,thread,ring=8192", "polling"]
KILL_REPORT = re.compile(r"\] h\d+ logstorm\[(\d+)\]: killed by SIGSEGV: load page fault")


@pytest.mark.parametrize("smp", [1, 4])
@pytest.mark.parametrize("line", [0, 115200], ids=["no-line", "line-115200"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_kill_reports_survive_a_console_flood(image, guest_factory, backend, line, smp):
    append = f"console={backend} init=/bin/logstorm -- {FLOODERS} {FLOOD_BYTES} {FAULTERS}"
    if line:
        append = f"uart.line={line} {append}"
    guest = guest_factory(image, smp=smp, icount=True, interactive=False,
                          append=append).start()
    assert guest.wait_exit(timeout=240) == 0
    text = guest.text
    assert (f"LOGSTORM faulters={FAULTERS} killed={FAULTERS} flooders={FLOODERS} "
            f"ok={FLOODERS}") in text
    pids = [int(m.group(1)) for m in KILL_REPORT.finditer(text)]
    assert len(pids) == FAULTERS and len(set(pids)) == FAULTERS, pids
    assert "dropped **" not in text
    lines = text.splitlines()
    assert re.search(r"\] h\d+ /bin/logstorm exited with status 0; powering off$", lines[-1]), \
        lines[-3:]
    # Every flood piece arrived too: the log lines went between pieces, not into them.
    pieces = re.findall(r"<flood (\d+):(\d+)>f+\r?$", text, re.MULTILINE)
    assert sorted(pieces, key=lambda p: (int(p[0]), int(p[1]))) == [
        (str(w), str(offset)) for w in range(FLOODERS) for offset in range(0, FLOOD_BYTES, 4096)]


def test_skipped_records_are_announced(image, guest_factory):
    guest = guest_factory(image, smp=4, icount=True, interactive=False,
                          append="console=async selftest=log-overflow log.records=16").start()
    assert guest.wait_exit(timeout=120) == 0
    lines = guest.text.splitlines()
    assert "selftest log-overflow: 16 records; filling the TX ring" in guest.text
    markers = [i for i, line in enumerate(lines) if line.endswith("kernel messages dropped **")]
    assert len(markers) == 1, markers
    assert lines[markers[0]] == "** 5 kernel messages dropped **"
    numbers = [(i, int(m.group(1))) for i, m in
               ((i, re.search(r"log-overflow: line (\d{6}) ", line)) for i, line in enumerate(lines))
               if m]
    before = [n for i, n in numbers if i < markers[0]]
    after = [n for i, n in numbers if i > markers[0]]
    # Lines 0 .. W-1 went into the ring; W .. W+4 were overwritten; the rest came out.
    assert before == list(range(len(before))) and len(before) > 0
    assert after == list(range(len(before) + 5, len(before) + 5 + len(after)))
    # The buffer held 16 records: the 16 newest waiting ones survived.
    assert len(after) == 16
    assert "selftest log-overflow: PASS" in guest.text


def crash_then_dmesg(guest):
    """At the prompt: kill a program (its report goes to the log), then run dmesg; returns
    what dmesg printed."""
    guest.send("crash null\n")
    guest.wait_for(rb"killed by SIGSEGV", timeout=30)
    guest.wait_for(PROMPT, timeout=30)
    start = len(guest.text)
    guest.send("dmesg\n")
    guest.wait_for(rb"crash\[\d+\]: killed by SIGSEGV[^\n]*\n", timeout=30)
    guest.wait_for(PROMPT, timeout=30)
    return guest.text[start:]


def test_dmesg_reads_the_log_buffer(image, guest_factory):
    guest = guest_factory(image, smp=2, append="console=async").start()
    guest.wait_for(PROMPT, timeout=60)
    listing = crash_then_dmesg(guest)
    assert re.search(r"\[\s*\d+\.\d{6}\] h\d+ Duplex booting on hart", listing)
    assert "program archive:" in listing
    # dmesg -C: later reads start after what the buffer held.
    guest.send("dmesg -C\n")
    guest.wait_for(PROMPT, timeout=30)
    listing = crash_then_dmesg(guest)
    assert "Duplex booting" not in listing
    assert len(re.findall(r"crash\[\d+\]: killed by SIGSEGV", listing)) == 1
