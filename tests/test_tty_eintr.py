"""write() and tcdrain() on the console, blocked on the async backend's full TX ring over a
slow modelled line, end with EINTR when a signal with a handler arrives, or restart under
SA_RESTART, a write that had queued some bytes returning their count (POSIX write;
user/test_tty_eintr.c). The polling backend's spinning write and drain do the same
(user/test_tty_eintr_polling.c, in both of its modes), and a ^C typed during a long
`seq` in busybox sh ends it on both backends. -icount: the waits and the signal's 20 ms
are guest time; the assertions are on results, errno values and bytes on the wire."""

import re

import pytest

from test_busybox import busybox_image  # noqa: F401  (the module fixture: fetch + build)

CASES = ["write_eintr", "write_partial", "write_restart", "drain_eintr", "drain_restart"]


def test_console_write_and_drain_are_interruptible(image, guest_factory):
    guest = guest_factory(image, smp=4, icount=True, interactive=False,
                          append="console=async,ring=8192 uart.line=115200 "
                                 "init=/bin/test_tty_eintr").start()
    status = guest.wait_exit(300)
    lines = re.findall(rb"EINTR-CASE (\w+) result=(-?\d+) errno=(\d+) handled=(\d+) (\w+)",
                       guest.output)
    assert [name.decode() for name, *_ in lines] == CASES, guest.output[-2000:]
    results = {name.decode(): (int(r), int(e), int(h)) for name, r, e, h, _ in lines}
    assert results["write_eintr"] == (-1, 4, 1)
    assert results["drain_eintr"] == (-1, 4, 1)
    assert results["drain_restart"][0::2] == (0, 1)
    assert results["write_restart"][0::2] == (64, 1)
    partial, _, handled = results["write_partial"]
    assert 0 < partial < 4 * 8192 and partial % 4096 == 0 and handled == 1
    assert b"EINTR-DONE failures=0" in guest.output
    assert status == 0


POLLING_CASES = ["write_eintr", "write_restart", "write_partial", "write_resume",
                 "drain_eintr", "drain_restart"]
POLLING_LETTERS = {"write_eintr": b"e", "write_restart": b"r", "write_partial": b"p",
                   "drain_eintr": b"d", "drain_restart": b"D"}


@pytest.mark.parametrize("mode", ["fifo", "byte"])
def test_polling_console_write_and_drain_are_interruptible(image, guest_factory, mode):
    """The polling backend spins on the UART; a signal still ends its write (EINTR with
    nothing sent, else the count in the UART) and its tcdrain, or restarts them under
    SA_RESTART (user/test_tty_eintr_polling.c). A 256-byte modelled FIFO at 9600 baud keeps
    each wait 267 ms of guest time, long after the signal's 20 ms. What each case put on
    the wire is counted between its BEGIN and CASE lines. polling,byte loads one byte per
    wait, so its FIFO never fills and its drains are not checked (nor long enough)."""
    drains = mode == "fifo"
    cases = POLLING_CASES if drains else POLLING_CASES[:4]
    guest = guest_factory(image, smp=2, icount=True, interactive=False,
                          append=f"console=polling,{mode} uart.line=9600 uart.line.fifo=256 "
                                 f"init=/bin/test_tty_eintr_polling"
                                 f"{'' if drains else ' -- writes'}").start()
    status = guest.wait_exit(300)
    output = guest.output
    lines = re.findall(rb"EINTR-CASE (\w+) result=(-?\d+) errno=(\d+) handled=(\d+) (\w+)",
                       output)
    assert [name.decode() for name, *_ in lines] == cases, output[-2000:]
    results = {name.decode(): (int(r), int(e), int(h)) for name, r, e, h, _ in lines}
    wire = {name.decode(): body for name, body in
            re.findall(rb"EINTR-BEGIN (\w+)\r\n(.*?)\r\nEINTR-CASE", output, re.S)}
    assert sorted(wire) == sorted(cases), output[-2000:]

    assert results["write_eintr"] == (-1, 4, 1)
    assert wire["write_eintr"].count(b"e") == 0  # nothing of it went
    assert results["write_restart"][0::2] == (64, 1)
    assert wire["write_restart"].count(b"r") == 64  # restarted: every byte once
    partial, _, handled = results["write_partial"]
    assert 0 < partial < 4 * 256 and handled == 1
    assert wire["write_partial"].count(b"p") == partial  # the count is what went
    first, _, handled = results["write_resume"]
    expected = b"".join(b"%05d\n" % i for i in range(200))
    assert 0 < first < len(expected) and handled == 1
    # Every line exactly once and in order; a "\r" of ONLCR's "\r\n" may be sent twice
    # when the signal cut between the two (the newline counted as not written).
    assert wire["write_resume"].replace(b"\r", b"") == expected
    if drains:
        assert results["drain_eintr"] == (-1, 4, 1)
        assert results["drain_restart"][0::2] == (0, 1)
        for name in ("drain_eintr", "drain_restart"):
            assert wire[name].count(POLLING_LETTERS[name]) == 256
    assert b"EINTR-DONE failures=0" in output
    assert status == 0


@pytest.mark.parametrize("backend", ["polling", "async"])
def test_typed_ctrl_c_ends_a_long_console_write(busybox_image, guest_factory, backend):  # noqa: F811
    """^C typed on the line while `busybox seq` writes 588 894 bytes to the console (51 s
    of wire at 115200) ends it: SIGINT to the foreground job, whose write stops at the next
    wait for room. On polling no one else looks at the receiver (no console.rx_watch):
    the spinning writer looks once per FIFO it waits for. Checked by counts: seq is
    killed by SIGINT, the shell says 130, and the last number seq printed is far from
    its end."""
    guest = guest_factory(busybox_image, smp=2, icount=True,
                          append=f"console={backend} uart.line=115200 init=/bin/sh -- "
                                 f'-c "sh -i; echo shell-ended"').start()
    guest.wait_for(rb"built-in shell \(ash\)", timeout=120)
    guest.wait_for(rb"~ # ", timeout=60)
    guest.send(b"seq 100000\n")
    guest.wait_for(rb"\r\n1000\r\n", timeout=120)  # well into the write
    for _ in range(5):  # a ^C before seq is the foreground job reaches the shell
        guest.send(b"\x03")
        try:
            guest.wait_for(rb"seq\[\d+\]: killed by SIGINT", timeout=30)
            break
        except Exception:  # GuestTimeout
            continue
    else:
        raise AssertionError(f"seq was never killed by ^C:\n{guest.text[-2000:]}")
    guest.wait_for(rb"~ # ", timeout=60)
    guest.send(b"echo status $?\n")
    guest.wait_for(rb"\r\nstatus 130\r\n", timeout=60)
    numbers = [int(n) for n in re.findall(rb"\r\n(\d+)(?=\r\n)", guest.output)]
    assert numbers and max(numbers) < 100000, numbers[-5:]


@pytest.mark.parametrize("backend", ["polling", "async"])
def test_a_wait_for_another_writer_or_reader_ends_for_a_signal(image, guest_factory, backend):
    """A write that waits for another process's write (for the backend's writer lock, or
    the core's OPOST buffer when it has a newline) and a read that waits for another's
    read end with EINTR when a signal with a handler comes, nothing of the write sent;
    under SA_RESTART the write restarts and goes after the one it waited for
    (user/test_lock_eintr.c). Checked by results and by the bytes on the wire: the
    holder's 500 lines once each and in order, no byte of the interrupted writes, the
    restarted one's 64 bytes after the lines. On async the ring is full first (its '.'
    bytes lead), so that the holder's write waits for room."""
    options = ("async,ring=8192", " -- fill") if backend == "async" else ("polling", "")
    guest = guest_factory(image, smp=2, icount=True, interactive=False,
                          append=f"console={options[0]} uart.line=115200 "
                                 f"init=/bin/test_lock_eintr{options[1]}").start()
    status = guest.wait_exit(300)
    output = guest.output
    cases = re.findall(rb"LOCK-CASE (\w+) (.*?) (ok|WRONG)\r\n", output)
    assert [(name, verdict) for name, _, verdict in cases] == [
        (b"write_queued", b"ok"), (b"read_queued", b"ok")], output[-2000:]
    wire = dict(re.findall(rb"LOCK-BEGIN (\w+)\r\n(.*?)\r\nLOCK-CASE", output, re.S))
    written = wire[b"write_queued"]
    lines = b"".join(b"%05d\r\n" % i for i in range(500))
    assert b"q" not in written and b"Q" not in written
    assert written.lstrip(b".") == lines + b"r" * 64, written[-300:]
    assert b"console: async,ring=8192" in output or backend == "polling"
    assert b"LOCK-DONE failures=0" in output
    assert status == 0
