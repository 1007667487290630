"""Grading for lab line-edit (docs/teaching/labs/line-edit.md): erase() in
drivers/console/line_discipline.c, canonical mode's VERASE, VWERASE and VKILL with their
echo (ECHOE's rubout, ECHOK and ECHOKE for the kill) and counters.edits.

Two levels. The host tests run the pure line discipline (tests/host/test_line_edit.c,
one group of cases per test): bytes typed, then the line read() gets, the echo byte for
byte, and the edits counted. The guest tests type the same kind of lines over the serial
line into /bin/test_line_edit (user/test_line_edit.c) on each backend and check the line
each read() returned, the echo bytes that came back on TX before it, and the counters
consolestat prints at the end (lines, edits, echoed), which count exactly what was typed.
Nothing here depends on timing: each line is typed only once the previous one was read.
"""

import subprocess
from pathlib import Path

import pytest

import duplex_qemu
from labrun import HANG_TIMEOUT, Run, consolestat, expect

REPO = Path(__file__).resolve().parent.parent.parent
HOST_BINARY = REPO / "build" / "host" / "test_line_edit"
HOST_HANG_TIMEOUT = 60  # seconds: only a hung run gets near it (a correct one takes ms)


def host_group(group):
    """Run one group of tests/host/test_line_edit.c; fail with its messages."""
    if not HOST_BINARY.is_file():
        raise AssertionError(f"{HOST_BINARY} is missing, expected the host test built by "
                             f"make check-host-build")
    try:
        result = subprocess.run([str(HOST_BINARY), group], cwd=REPO, capture_output=True,
                                text=True, timeout=HOST_HANG_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError(
            f"build/host/test_line_edit {group} did not finish within {HOST_HANG_TIMEOUT} s, "
            f"expected it to finish at once (its cases take microseconds: an erase loop "
            f"that passes the start of the line goes round the whole buffer)") from None
    if result.returncode != 0:
        said = [line for line in result.stderr.splitlines()
                if line.strip() and not line.startswith("FAIL ")]
        raise AssertionError("\n".join(said) + f"\n(build/host/test_line_edit {group} exited "
                             f"with status {result.returncode}, expected 0)")


def test_erase_rubs_out_one_character():
    host_group("erase")


def test_erase_stops_at_the_start_of_the_line():
    host_group("start")


def test_word_erase_takes_the_last_word():
    host_group("word")


def test_kill_rubs_out_the_line():
    host_group("kill")


def test_kill_without_echoke_shows_the_kill_character():
    host_group("echok")


def test_erase_without_echoe_or_echo():
    host_group("quiet")


RUBOUT = b"\b \b"

# (typed, the line read() returns, the echo before it, edits it counts, why). Enter
# sends \r, which ICRNL makes \n; ONLCR makes the echoed \n "\r\n".
TYPED = [
    (b"helo\x7flo\r", b"hello\n", b"helo" + RUBOUT + b"lo\r\n", 1,
     "VERASE removes the character before it, ECHOE rubs it out"),
    (b"\x7fok\r", b"ok\n", b"ok\r\n", 0,
     "VERASE at the start of a line, after the line before was read, erases nothing"),
    (b"one two\x17three\r", b"one three\n", b"one two" + RUBOUT * 3 + b"three\r\n", 1,
     "VWERASE removes the last word, not the blank before it"),
    (b"junk\x15world\r", b"world\n", b"junk" + RUBOUT * 4 + b"world\r\n", 1,
     "VKILL removes the line, ECHOKE rubs it out character by character"),
    (b"ab\x7f\x7f\x7fc\r", b"c\n", b"ab" + RUBOUT * 2 + b"c\r\n", 2,
     "the third VERASE finds the line empty"),
]


@pytest.mark.parametrize("console", ["polling", "async"])
def test_typed_lines_over_the_serial(request, record_property, image, console):
    name = duplex_qemu.sanitize_name(request.node.name)
    with duplex_qemu.Guest(image, smp=2, icount=True, name=name,
                           append=f"console={console} init=/bin/test_line_edit") as guest:
        run = Run(None, "", guest.log_path)

        def wait(pattern, what):
            try:
                return guest.wait_for(pattern, timeout=HANG_TIMEOUT)
            except duplex_qemu.GuestTimeout:
                run.text = guest.output.decode("latin-1")
                tail = "\n".join("    " + line for line in run.text.strip().splitlines()[-3:])
                raise AssertionError(f"console={console}: {what} never came, expected it "
                                     f"(the guest's output ends with\n{tail}){run.where()}") \
                    from None

        wait(rb"EDIT-READY\r\n", "test_line_edit's EDIT-READY")
        for typed, line, echo, _, why in TYPED:
            mark = len(guest.output)
            guest.send(typed)
            found = wait(rb"EDIT-LINE n=(\d+) hex=([0-9a-f]*)\r\n",
                         f"a line back after typing {typed!r}")
            run.text = guest.output.decode("latin-1")
            got = bytes.fromhex(found.group(2).decode())
            expect(run, f"console={console}, typed {typed!r}: the line read", got, line, why)
            echoed = guest.output[mark:found.start()]
            expect(run, f"console={console}, typed {typed!r}: the echo", echoed, echo,
                   "the bytes sent back before the line was read: " + why)
        guest.send(b"\x04")  # ^D at the start of a line: end of file
        wait(rb"EDIT-EOF\r\n", "end of file after ^D")
        wait(rb"breaks_sent +\d+\r\n", "consolestat's table")
        status = guest.wait_exit(timeout=HANG_TIMEOUT)
        run.status, run.text = status, guest.output.decode("latin-1")
    counters = consolestat(run.text)
    for counter in ("lines", "edits", "echoed", "rx_bytes"):
        record_property(counter, counters.get(counter))
    expect(run, f"console={console}: edits", counters.get("edits"),
           sum(t[3] for t in TYPED), "one per VERASE, VWERASE, VKILL that erased something")
    expect(run, f"console={console}: lines", counters.get("lines"), len(TYPED) + 1,
           "each line ended by Enter, and the ^D")
    expect(run, f"console={console}: echoed", counters.get("echoed"),
           sum(len(t[2]) for t in TYPED), "every echo byte, rubouts included")
    expect(run, f"console={console}: rx_bytes", counters.get("rx_bytes"),
           sum(len(t[0]) for t in TYPED) + 1, "every byte typed, the ^D included")
    expect(run, f"console={console}: echo_dropped", counters.get("echo_dropped"), 0)
    expect(run, f"console={console}: input_dropped", counters.get("input_dropped"), 0,
           "no typed byte lost")
    expect(run, f"console={console}: test_line_edit's exit status", status, 0)
