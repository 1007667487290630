"""Job control in busybox's shell as `make run USERLAND=busybox` starts it (issue #41):
the kernel starts `/bin/sh -c /etc/init.sh` (user/busybox/init.sh), which runs the
interactive shell with `setsid -c`, in a session of its own that has the console as its
controlling terminal, and waits as pid 1. The shell's jobs then have the shell as
parent in another group of their session, so they are not orphaned and ^Z stops them
(an orphaned group's SIGTSTP is discarded, as on Linux).

Typed over the serial line as a person would, on both console backends: `ids` (user/ids.c)
shows the shell leads its own session and is not pid 1; `sleep 100`, ^Z stops it,
`jobs` lists it, `bg` continues it (`jobs`: Running), `fg` brings it back and ^C ends it
(status 130, no job left); `exit` ends the run with the shell's status.

Under -icount (sleep=off) an idle guest skips ahead in time, so a lone `sleep 100` would
end before anyone could type ^Z: `spin 1` first leaves a spinner on hart 0 (outside the
shell's jobs), so that guest time passes only as instructions run and `sleep 100` lasts
10^11 of them, far longer than the typing. Under
console=polling the receiver is looked at while `sleep` does not read only with
`console.rx_watch` (drivers/console/input.c), which both backends are given here.
Deadlines are host guards only: nothing asserts how long anything took.
"""

import re

import pytest

from test_busybox import busybox_image  # noqa: F401  (the module fixture: fetch + build)
from test_interactive import PROMPT, run  # ash's "~ # " prompt, typing a line

BACKENDS = ["async", "polling"]


@pytest.fixture(params=BACKENDS)
def shell(request, busybox_image, guest_factory):  # noqa: F811
    guest = guest_factory(busybox_image, smp=2, icount=True,
                          append=f"console={request.param} console.rx_watch "
                                 f"init=/bin/sh -- -c /etc/init.sh").start()
    guest.wait_for(rb"Duplex: busybox userland, /etc/init.sh", timeout=120)
    guest.wait_for(PROMPT, timeout=60)
    return guest


def jobs_listing(guest):
    """What `jobs` prints, and the status of the line before it."""
    match = run(guest, b"echo status $?; jobs; echo end-$((6 * 7))\n",
                rb"\r\nstatus (\d+)\r\n([\s\S]*?)end-42\r\n")
    return int(match.group(1)), match.group(2)


def stop_with_ctrl_z(guest):
    """^Z until ash reports the job stopped: a ^Z typed before ash's child has taken the
    terminal reaches ash, which ignores it, so it is typed again (a few times at most)."""
    for _ in range(5):
        guest.send(b"\x1a")
        try:
            return guest.wait_for(rb"\[1\]\+\s+Stopped\s+sleep 100\r\n", timeout=10)
        except Exception:  # GuestTimeout: the job did not have the terminal yet
            continue
    raise AssertionError(f"sleep 100 was never stopped by ^Z:\n{guest.text[-2000:]}")


def test_sleep_ctrl_z_jobs_bg_fg_ctrl_c(shell):
    ids = run(shell, b"ids\n", rb"ids pid (\d+) pgid (\d+) sid (\d+) foreground (\d+) "
                               rb"parent (\d+) parent-pgid (\d+)\r\n")
    pid, pgid, sid, foreground, parent, parent_pgid = (int(v) for v in ids.groups())
    assert parent != 1 and sid == parent == parent_pgid  # the shell leads its session
    assert pgid == pid == foreground != parent_pgid      # the job has the terminal
    run(shell, b"spin 1\n", rb"SPIN-STARTED 1\r\n")

    shell.send(b"sleep 100\n")
    shell.wait_for(rb"sleep 100\r\n")
    stop_with_ctrl_z(shell)
    shell.wait_for(PROMPT)
    status, listing = jobs_listing(shell)
    assert status == 128 + 20  # SIGTSTP
    assert re.fullmatch(rb"\[1\]\+\s+Stopped\s+sleep 100\r\n", listing), listing

    run(shell, b"bg\n", rb"bg\r\n\[1\] sleep 100\r\n")
    status, listing = jobs_listing(shell)
    assert re.fullmatch(rb"\[1\]\+\s+Running\s+sleep 100\r\n", listing), listing

    # fg: ash names the job, gives it the terminal, continues it and waits. A ^C typed
    # before ash has handed over the terminal reaches ash, which then stops waiting and
    # leaves the job running: `jobs` still lists it, and it is brought back again.
    for _ in range(5):
        shell.send(b"fg\n")
        shell.wait_for(rb"fg\r\nsleep 100\r\n")
        shell.send(b"\x03")
        shell.wait_for(PROMPT)
        status, listing = jobs_listing(shell)
        if listing == b"":
            break
    assert (status, listing) == (128 + 2, b"")  # ended by SIGINT, no job left
    shell.send(b"exit 5\n")
    assert shell.wait_exit(timeout=60) == 5  # pid 1 ends the run with the shell's status
    assert "PANIC" not in shell.text
