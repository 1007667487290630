"""write() and tcdrain() on the console, blocked on the async backend's full TX ring over a
slow modelled line, end with EINTR when a signal with a handler arrives, or restart under
SA_RESTART, a write that had queued some bytes returning their count (POSIX write;
user/test_tty_eintr.c). -icount: the waits and the signal's 20 ms are guest time."""

import re

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
