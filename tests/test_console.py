"""QEMU system tests of the console (issue: polling and async backends over one
16550-family UART driver). Every test runs on each backend and option. Output is
checked byte-for-byte on the host; no timing thresholds.
"""

import re
import subprocess

import pytest

import duplex_qemu

BACKENDS = ["polling", "polling,byte", "async", "async,ring=8192", "async,thread"]
PATTERN_BYTES = 4 * 1024 * 1024


def pattern(length):
    """The bytes user/conpattern.c writes: pattern_byte(i) for i in 0..length-1."""
    return bytes(((i * 7 + (i >> 8) * 13 + (i >> 16)) & 0xFF) for i in range(length))


def boot(image, request, append, smp=4, timeout=300):
    name = duplex_qemu.sanitize_name(request.node.name)
    with duplex_qemu.Guest(image, smp=smp, append=append, name=name,
                           interactive=False) as guest:
        status = guest.wait_exit(timeout)
        return status, guest.output


@pytest.mark.parametrize("backend", BACKENDS)
def test_pattern_arrives_byte_exact(image, request, backend):
    status, output = boot(image, request,
                          f"console={backend} init=/bin/conpattern -- both {PATTERN_BYTES}")
    assert status == 0
    assert f"console: {backend.split(',')[0]}".encode() in output
    start = output.index(b"PATTERN-BEGIN\n") + len(b"PATTERN-BEGIN\n")
    end = output.index(b"\r\nPATTERN-END")
    received = output[start:end]
    assert len(received) == PATTERN_BYTES
    assert received == pattern(PATTERN_BYTES)
    # tcdrain returned only once the UART was idle: nothing left queued after it.
    assert re.search(rb"PATTERN-END bytes=%d queued-after-drain=0" % PATTERN_BYTES, output)


@pytest.mark.parametrize("backend", BACKENDS)
def test_concurrent_writers_records_stay_whole(image, request, backend):
    writers, records = 8, 150
    status, output = boot(image, request,
                          f"console={backend} init=/bin/conrecords -- {writers} {records}")
    assert status == 0
    text = output.decode("latin-1")
    assert f"RECORDS-DONE writers={writers} failures=0" in text
    found = re.findall(r"<(\d+):(\d+):(\d+):([a-z]*):([0-9a-f]+)>", text)
    by_writer = {}
    for writer, sequence, length, payload, checksum in found:
        assert len(payload) == int(length)
        assert sum(payload.encode()) == int(checksum, 16)
        by_writer.setdefault(int(writer), []).append(int(sequence))
    # Every record of every writer, whole, in order, none duplicated.
    assert sorted(by_writer) == list(range(writers))
    for sequences in by_writer.values():
        assert sequences == list(range(records))


@pytest.mark.parametrize("backend", BACKENDS)
def test_shell_reads_typed_input(image, guest_factory, backend):
    guest = guest_factory(image, smp=4, append=f"console={backend}").start()
    guest.wait_for(r"\$ ")
    guest.send("cat\n")
    guest.wait_for(r"cat\r?\n")
    guest.send("hello through the console\n")
    guest.wait_for(r"hello through the console")
    guest.send("\x04")
    guest.wait_for(r"\$ ")
    guest.send("consolestat\n")
    stats = guest.wait_for(rb"rx_bytes\s+(\d+)\r?\n")  # the whole number, not a prefix
    assert int(stats.group(1)) >= len("hello through the console\n")
    guest.wait_for(r"\$ ")
    guest.send("exit 5\n")
    assert guest.wait_exit(timeout=60) == 5


@pytest.mark.parametrize("backend", ["polling", "async", "async,thread"])
def test_telemetry_counts_what_each_backend_does(image, guest_factory, backend):
    guest = guest_factory(image, smp=2, append=f"console={backend}").start()
    guest.wait_for(r"\$ ")
    guest.send("consolestat -r\n")
    guest.wait_for(r"tx_busy_polls\s+\d+")
    guest.wait_for(r"\$ ")
    guest.send("echo 0123456789\n")
    guest.wait_for(r"\$ ")
    guest.send("consolestat\n")
    counters = {}
    for _ in range(17):
        match = guest.wait_for(rb"([a-z_]+)\s+(\d+)\r?\n")
        counters[match.group(1).decode()] = int(match.group(2))
    assert counters["write_calls"] >= 1
    assert counters["thr_bytes"] >= counters["bytes_written"] > 0
    if backend == "async":
        # Short writes to an idle console go straight into the FIFO; the rest
        # through the ring, started by an idle kick and refilled by the interrupt.
        assert counters["direct_writes"] > 0
        assert counters["direct_writes"] + counters["ring_pushes"] >= counters["write_calls"]
    elif backend == "async,thread":
        # Everything goes through the ring and the copier, woken by the interrupt.
        assert counters["direct_writes"] == 0
        assert counters["ring_pushes"] >= counters["write_calls"]
        assert counters["thre_interrupts"] > 0
        assert counters["idle_kicks"] > 0
        assert counters["ring_high_water"] > 0
    else:
        assert counters["thre_interrupts"] == 0
        assert counters["ring_pushes"] == 0
    guest.wait_for(r"\$ ")
    guest.send("exit 0\n")
    assert guest.wait_exit(timeout=60) == 0


def test_unknown_backend_falls_back_to_polling(image, request):
    status, output = boot(image, request, "console=carrier-pigeon init=/bin/true", smp=1)
    assert status == 0
    assert b"console: no backend named 'carrier-pigeon'" in output
    assert b"console: falling back to polling" in output
    assert b"console: polling,fifo" in output


@pytest.mark.parametrize("console,policy", [("ttyS0", "async,ring="),
                                            ("ttyS0,115200n8,polling", "polling,fifo"),
                                            ("ttyS0,async,thread", "async,thread")])
def test_console_names_its_port_as_linux_does(image, request, console, policy):
    # console=ttyS0[,BAUD][,policy]: the port by its Linux name, the rate Linux would
    # give after it, then Duplex's policy (async when none is named). /dev/ttyS0 is the
    # same terminal as /dev/console: a line written to it arrives whole.
    status, output = boot(image, request,
                          f'console={console} init=/bin/sh -- -c "echo via-ttyS0 > /dev/ttyS0"',
                          smp=1)
    assert status == 0
    assert f"console: {policy}".encode() in output
    assert b"no port" not in output and b"bad options" not in output
    assert b"via-ttyS0\r\n" in output


def test_console_on_a_port_that_is_not_there_keeps_ttyS0(image, request):
    status, output = boot(image, request, "console=ttyS3,polling init=/bin/true", smp=1)
    assert status == 0
    assert b"console: no port ttyS3 (ttyS0 is the only console port); using ttyS0" in output
    assert b"console: polling,fifo" in output


# ------------------------------------------------------------------ the console's node
# Which UART is the console, as Linux picks it (drivers/base/console_uart.c): console=ttySN
# names the serialN alias's node, else /chosen stdout-path's, else the serial0 alias's,
# else the first UART a driver takes; the boot log names the step that found it. QEMU's
# own tree has stdout-path and no aliases, so these boot a dump of it, changed with
# fdtput (device-tree-compiler).

def virt_tree(tmp_path, stdout_path=True, aliases=()):
    dtb = tmp_path / "virt.dtb"
    subprocess.run([duplex_qemu.QEMU_BINARY, "-M", f"virt,dumpdtb={dtb}", "-m", "256M",
                    "-smp", "1", "-nographic"], check=True, capture_output=True)
    if not stdout_path:
        subprocess.run(["fdtput", "-d", str(dtb), "/chosen", "stdout-path"], check=True)
    if aliases:
        subprocess.run(["fdtput", "-c", str(dtb), "/aliases"], check=True)
    for alias in aliases:
        subprocess.run(["fdtput", "-t", "s", str(dtb), "/aliases", alias,
                        "/soc/serial@10000000"], check=True)
    return dtb


def boot_tree(image, request, dtb, append):
    name = duplex_qemu.sanitize_name(request.node.name)
    return duplex_qemu.run_to_exit(image, append=append, smp=1, icount=True, timeout=120,
                                   name=name, extra=["-dtb", str(dtb)])


@pytest.mark.parametrize("aliases,found_by", [
    ((), "the first UART a driver takes (no stdout-path, no serial0 alias)"),
    (("serial0",), "the serial0 alias (/chosen has no usable stdout-path)")])
def test_a_tree_without_stdout_path_still_has_a_console(image, request, tmp_path, aliases,
                                                        found_by):
    status, text = boot_tree(image, request, virt_tree(tmp_path, False, aliases),
                             'init=/bin/sh -- -c "echo shell-up > /dev/ttyS0"')
    assert status == 0, text[-2000:]
    assert f"console: ttyS0, found by {found_by}" in text
    assert "shell-up\r\n" in text


def test_console_ttyS1_is_the_serial1_alias(image, request, tmp_path):
    status, text = boot_tree(image, request, virt_tree(tmp_path, True, ("serial1",)),
                             'console=ttyS1 init=/bin/sh -- -c "echo on-ttyS1 > /dev/ttyS1"')
    assert status == 0, text[-2000:]
    assert "console: ttyS1, found by /chosen stdout-path" in text
    assert "no port" not in text and "on-ttyS1\r\n" in text


def test_console_naming_a_port_without_an_alias_is_said(image, request, tmp_path):
    status, text = boot_tree(image, request, virt_tree(tmp_path), "console=ttyS3 init=/bin/true")
    assert status == 0, text[-2000:]
    assert "console=ttyS3: the device tree has no serial3 alias" in text
    assert "console: no port ttyS3 (ttyS0 is the only console port); using ttyS0" in text


def test_options_longer_than_any_policy_reads_are_refused(image, request):
    # Longer than the 64 bytes console_init keeps for a policy's options: refused with
    # the usual message and the usual fall-back, never cut short and taken.
    options = "ring=" + "0" * 70 + "8192"
    status, output = boot(image, request, f"console=async,{options} init=/bin/true", smp=1)
    assert status == 0
    assert f"console: async: bad options '{options}'".encode() in output
    assert b"console: falling back to polling" in output
