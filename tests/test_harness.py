"""Tests of the QEMU harness (tools/duplex_qemu.py) itself; no Duplex kernel needed.

Guests here boot OpenSBI with a tiny hand-encoded "kernel" instead: OpenSBI prints its
banner on the serial port and then jumps to it. Kept fast (a few seconds).
"""

import os
import random
import re
import signal
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import duplex_qemu
from duplex_qemu import Guest, GuestError, GuestExited, GuestTimeout

REPO_ROOT = Path(__file__).resolve().parent.parent

# `j .` -- spin forever.
LOOP_PROGRAM = bytes([0x6F, 0x00, 0x00, 0x00])
# Write (3 << 16) | 0x3333 to the sifive test finisher at 0x100000 (QEMU exits with 3):
#   lui t0,0x100; lui t1,0x33; addi t1,t1,0x333; sw t1,0(t0); j .
EXIT3_PROGRAM = struct.pack("<5I", 0x001002B7, 0x00033337, 0x33330313, 0x0062A023, 0x0000006F)


@pytest.fixture
def loop_image(tmp_path):
    path = tmp_path / "loop.bin"
    path.write_bytes(LOOP_PROGRAM)
    return path


@pytest.fixture
def exit3_image(tmp_path):
    path = tmp_path / "exit3.bin"
    path.write_bytes(EXIT3_PROGRAM)
    return path


def _arg_after(command, flag):
    return command[command.index(flag) + 1]


# -- board settings and command line ----------------------------------------------------

def test_load_board_values():
    board = duplex_qemu.load_board("qemu-virt")
    assert board["QEMU_MACHINE"] == "virt"
    assert board["QEMU_MEMORY"] == "256M"
    assert board["QEMU_BIOS"] == "/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf"
    assert board["DEFAULT_SMP"] == "4"
    assert all("#" not in value for value in board.values())


def test_load_board_unknown():
    with pytest.raises(GuestError, match="unknown board 'no-such-board'"):
        duplex_qemu.load_board("no-such-board")


def test_qemu_command_defaults():
    command = duplex_qemu.qemu_command("qemu-virt", "build/qemu-virt/Image", append="a=1 b")
    assert command[0] == "qemu-system-riscv64"
    assert _arg_after(command, "-M") == "virt"
    assert _arg_after(command, "-m") == "256M"
    assert _arg_after(command, "-smp") == "4"  # board DEFAULT_SMP
    assert _arg_after(command, "-bios").endswith("opensbi/generic/fw_jump.elf")
    assert _arg_after(command, "-kernel") == "build/qemu-virt/Image"
    assert _arg_after(command, "-append") == "a=1 b"
    assert "-nographic" in command
    assert "-icount" not in command
    assert "-s" not in command and "-S" not in command


def test_qemu_command_smp_icount_gdb_extra():
    board = duplex_qemu.load_board("qemu-virt")
    command = duplex_qemu.qemu_command(board, "img", smp=2, append="", icount=True, gdb=True,
                                       extra=["-d", "int"])
    assert _arg_after(command, "-smp") == "2"
    assert _arg_after(command, "-icount") == "shift=0,sleep=off"
    assert "-s" in command and "-S" in command
    assert command[-2:] == ["-d", "int"]


def test_qemu_command_custom_serial():
    serial = ["-display", "none", "-serial", "file:/tmp/x"]
    command = duplex_qemu.qemu_command("qemu-virt", "img", smp=1, append="", serial=serial)
    assert "-nographic" not in command
    assert _arg_after(command, "-serial") == "file:/tmp/x"


# -- Guest ------------------------------------------------------------------------------

def test_missing_image_fails_cleanly(tmp_path):
    guest = Guest(tmp_path / "no-such-Image", name="missing", log_dir=tmp_path)
    with pytest.raises(GuestError, match=r"no-such-Image not found \(run `make` first\)"):
        guest.start()
    assert guest.proc is None
    guest.kill()  # harmless on a guest that never started


def test_opensbi_banner_cursor_timeout_and_kill(guest_factory, loop_image, tmp_path):
    guest = guest_factory(loop_image, smp=1, icount=True, log_dir=tmp_path).start()
    pid = guest.pid

    first = guest.wait_for("OpenSBI", timeout=10)
    later = guest.wait_for(rb"Boot HART ID\s*: (\d+)", timeout=10)
    assert later.start() >= first.end()
    assert later.group(1) == b"0"

    # The cursor is past the banner's first line, so it is not found again.
    with pytest.raises(GuestTimeout):
        guest.wait_for(r"OpenSBI v\d", timeout=0.5)

    with pytest.raises(GuestTimeout) as caught:
        guest.wait_for("never", timeout=2)
    message = str(caught.value)
    assert "'never'" in message
    assert "2 s" in message
    assert str(guest.log_path) in message
    assert "Boot HART" in message  # the output tail

    assert guest.log_path == tmp_path / "test_opensbi_banner_cursor_timeout_and_kill.log"
    assert guest.log_path.read_bytes() == guest.output
    assert any(line.startswith("OpenSBI v") for line in guest.lines())
    guest.send("ignored input\n")

    guest.kill()
    guest.kill()  # idempotent
    assert guest.proc.poll() is not None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert not guest._reader.is_alive()


# -- wait_for's incremental search ---------------------------------------------------------

# Patterns of the kinds the suites wait for: literal, bounded, unbounded with a literal
# ending, lazy across lines, ending in a repeat, and ones that look past their end.
SEARCH_PATTERNS = [
    rb"\$ ", rb"\n\$ ", rb"Boot HART ID\s*: (\d+)", rb"rx_bytes\s+(\d+)\r?\n",
    rb"LOADWRITER-DONE writers=(\d+) failures=(\d+)", rb"crash\[\d+\]: killed[^\n]*\n",
    re.compile(rb"true\r\n(.*?)\$ ", re.S), rb"x[\s\S]*?\$ ", rb"(ab)+", rb"a(?=b)",
    rb"\d+$", rb"ab\b", rb"(?i)done\r\n", rb"(x)(y|z)\r\n", rb"done (\d+)", rb"b\d+?",
    rb"(a[ab]*)", rb"x(a|b)+", rb"[\s\S]*?7", rb"(?:ab)*",
]
SEARCH_TOKENS = [b"$ ", b"\n", b"\r\n", b"a", b"b", b"x", b"7", b"42", b"true", b"done",
                 b"DONE", b"LOADWRITER-DONE writers=8 failures=0", b"rx_bytes  ",
                 b"Boot HART ID  : ", b"crash[3]: killed", b"y", b"z", b" "]


def test_incremental_search_finds_what_a_full_search_finds():
    """Fed the same output in random chunks, wait_for's search returns exactly the match
    a search of the whole buffer from the cursor returns, after every chunk."""
    rng = random.Random(1)
    for pattern in SEARCH_PATTERNS:
        regex = duplex_qemu._compile_pattern(pattern)
        for _ in range(200):
            output = b"".join(rng.choice(SEARCH_TOKENS) for _ in range(rng.randrange(1, 60)))
            buffer, cursor, position = bytearray(), 0, 0
            search = duplex_qemu._IncrementalSearch(regex)
            while position < len(output):
                step = rng.randrange(1, 12)
                buffer += output[position:position + step]
                position += step
                expected = regex.search(buffer, cursor)
                got = search.search(buffer, cursor)
                assert (got and (got.span(), got.groups())) == \
                    (expected and (expected.span(), expected.groups())), (pattern, output)
                if got:  # the next wait starts after this match
                    cursor = got.end()
                    search = duplex_qemu._IncrementalSearch(regex)


def test_incremental_search_skips_what_it_can():
    """Which patterns avoid the full search: bounded ones by width, unbounded ones by
    their literal ending; patterns that look past a match's end never do."""
    def shape(pattern):
        search = duplex_qemu._IncrementalSearch(duplex_qemu._compile_pattern(pattern))
        return search.width, search.ending
    assert shape(rb"\n\$ ") == (3, b"")
    assert shape(rb"LOADWRITER-DONE writers=(\d+) failures=0\r\n") == (None, b" failures=0\r\n")
    assert shape(re.compile(rb"true\r\n(.*?)\$ ", re.S)) == (None, b"$ ")
    assert shape(rb"RXCHECK-DONE bytes=(\d+) (reads)=") == (None, b" reads=")
    assert shape(rb"PATTERN-END bytes=(\d+)") == (19, b"")  # as if (\d)
    assert shape(rb"ticks=\d+?") == (7, b"")
    assert shape(rb"killed by (\S (\w+))") == (len(b"killed by S w"), b"")
    assert shape(rb"killed by (\S+ (\w+))") == (None, b"")  # only the last repeat is cut
    for looks_ahead in [rb"a(?=b)", rb"\d+$", rb"ab\b", rb"x+\Z"]:
        assert shape(looks_ahead) == (None, b"")
    assert shape(rb"(?i)done[\s\S]*\r\n") == (None, b"")


def test_wait_exit_returns_finisher_status(guest_factory, exit3_image, tmp_path):
    guest = guest_factory(exit3_image, smp=2, icount=True, log_dir=tmp_path).start()
    assert guest.wait_exit(timeout=10) == 3
    assert "OpenSBI" in guest.text  # output drained before returning
    assert not guest._reader.is_alive()
    with pytest.raises(GuestExited, match="status 3"):
        guest.wait_for("never", timeout=5)


def test_wait_exit_timeout_kills(guest_factory, loop_image, tmp_path):
    guest = guest_factory(loop_image, smp=1, log_dir=tmp_path).start()
    with pytest.raises(GuestTimeout, match="did not exit within 0.5 s") as caught:
        guest.wait_exit(timeout=0.5)
    assert str(guest.log_path) in str(caught.value)
    assert guest.proc.poll() is not None


def test_a_starved_qemu_is_the_host_too_slow_not_a_timeout(guest_factory, loop_image,
                                                           tmp_path, monkeypatch):
    # A stopped QEMU gets no CPU, as one starved by a loaded host: its waits end in
    # HostTooSlow after timeout x HOST_SLOW_STRETCH host seconds, saying so.
    monkeypatch.setattr(duplex_qemu, "HOST_SLOW_STRETCH", 2.0)
    monkeypatch.setattr(duplex_qemu, "_host_is_busy", lambda: True)
    guest = guest_factory(loop_image, smp=1, icount=True, log_dir=tmp_path).start()
    guest.wait_for("OpenSBI", timeout=60)
    os.kill(guest.pid, signal.SIGSTOP)
    with pytest.raises(duplex_qemu.HostTooSlow, match="the host was too slow") as caught:
        guest.wait_for("never", timeout=1)
    assert "not a test failure" in str(caught.value)
    assert "QEMU ran 0.0 s" in str(caught.value)
    with pytest.raises(duplex_qemu.HostTooSlow, match=r"the host was too slow \(2 s"):
        guest.wait_exit(timeout=1)
    assert guest.proc.poll() is not None  # killed, as on any wait_exit timeout


def test_an_idle_qemu_on_an_idle_host_is_the_guests_timeout(guest_factory, loop_image,
                                                           tmp_path, monkeypatch):
    # Little CPU used while the host had CPUs to spare: the guest sat idle by itself.
    monkeypatch.setattr(duplex_qemu, "_host_is_busy", lambda: False)
    guest = guest_factory(loop_image, smp=1, icount=True, log_dir=tmp_path).start()
    guest.wait_for("OpenSBI", timeout=60)
    os.kill(guest.pid, signal.SIGSTOP)
    with pytest.raises(GuestTimeout, match="timed out after 1 s") as caught:
        guest.wait_for("never", timeout=1)
    assert not isinstance(caught.value, duplex_qemu.HostTooSlow)


def test_host_program_deadline_counts_its_cpu_time(monkeypatch):
    # tests/test_host.py's binaries: output and status come back; a program that gets no
    # CPU (it stops itself, as one starved by a loaded host) ends in HostTooSlow after
    # timeout x HOST_SLOW_STRETCH; one that sits idle on an idle host is its own timeout.
    status, stdout, _ = duplex_qemu.run_host_program(["sh", "-c", "echo out; exit 3"], 10)
    assert (status, stdout) == (3, b"out\n")
    monkeypatch.setattr(duplex_qemu, "HOST_SLOW_STRETCH", 2.0)
    monkeypatch.setattr(duplex_qemu, "_host_is_busy", lambda: True)
    with pytest.raises(duplex_qemu.HostTooSlow, match=r"the host was too slow \(2 s") as caught:
        duplex_qemu.run_host_program(["sh", "-c", "echo before; kill -STOP $$"], 1)
    assert "not a test failure" in str(caught.value) and "before" in str(caught.value)
    monkeypatch.setattr(duplex_qemu, "_host_is_busy", lambda: False)
    with pytest.raises(GuestTimeout, match="did not finish within 1 s") as caught:
        duplex_qemu.run_host_program(["sleep", "30"], 1)
    assert not isinstance(caught.value, duplex_qemu.HostTooSlow)


def test_context_manager_always_kills(loop_image, tmp_path):
    with pytest.raises(RuntimeError, match="boom"):
        with Guest(loop_image, smp=1, icount=True, name="ctx", log_dir=tmp_path) as guest:
            guest.wait_for("OpenSBI", timeout=10)
            raise RuntimeError("boom")
    assert guest.proc.poll() is not None


def test_run_to_exit(exit3_image, tmp_path):
    status, text = duplex_qemu.run_to_exit(exit3_image, append="x", smp=1, icount=True,
                                           timeout=10, name="run", log_dir=tmp_path)
    assert status == 3
    assert "OpenSBI v" in text
    assert (tmp_path / "run.log").read_bytes().decode("utf-8", "replace") == text


def test_cli_run_exits_with_qemu_status(exit3_image):
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "tools" / "duplex_qemu.py"), "run",
         "--board", "qemu-virt", "--image", str(exit3_image), "--smp", "1",
         "--append", "console=async", "--icount"],
        stdin=subprocess.DEVNULL, capture_output=True, timeout=120)  # a guard for a loaded host
    assert result.returncode == 3
    first_line = result.stderr.decode().splitlines()[0]
    assert first_line.startswith("duplex_qemu: qemu-system-riscv64 ")
    assert "-icount shift=0,sleep=off" in first_line
    assert b"OpenSBI" in result.stdout


def test_cli_missing_image(tmp_path):
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "tools" / "duplex_qemu.py"), "run",
         "--image", str(tmp_path / "nope")],
        stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
    assert result.returncode == 2
    assert b"not found" in result.stderr
