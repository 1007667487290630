"""The acceptance test of issue #25: Debian's `busybox sh` (ash) used interactively over
the serial line, as a person at a terminal would, on both console backends.

The kernel starts `/bin/sh -c "sh -i; echo shell-ended"`: the interactive shell is not
init (pid 1), so its jobs' groups are not orphaned and ^Z can stop them (POSIX; Linux
does not count init as a parent that keeps a group alive), and ^D at its prompt hands
back to the outer shell, which says so and ends the run.

Checked: busybox's line editor (type, erase, kill the line, retype); the line
discipline's own canonical editing under `read x` (erase, kill); ^C ending `yes >
/dev/null` (the kernel's kill report names SIGINT) with the prompt back; ^Z stopping a
job, `jobs` listing it, `fg` resuming it in the foreground (it reads the terminal
again), ^C ending it; `stty -a` showing Linux's default settings and 80x24; `stty
-echo` hiding typed text and `stty echo` bringing it back; ^S holding output and ^Q
releasing it; ^D at an empty prompt ending the shell. Deadlines are host guards only:
nothing asserts how long anything took.
"""

import re
import time

import pytest

from test_busybox import busybox_image  # noqa: F401  (the module fixture: fetch + build)

PROMPT = rb"~ # "
BACKENDS = ["async", "polling"]


@pytest.fixture(params=BACKENDS)
def shell(request, busybox_image, guest_factory):  # noqa: F811
    guest = guest_factory(busybox_image, smp=2, icount=True,
                          append=f'console={request.param} console.rx_watch init=/bin/sh -- '
                                 f'-c "sh -i; echo shell-ended"').start()
    guest.wait_for(rb"built-in shell \(ash\)", timeout=120)
    guest.wait_for(PROMPT, timeout=60)
    return guest


def run(guest, line, expect, timeout=60):
    """Type `line`, wait for `expect`, then for the next prompt; the match."""
    guest.send(line)
    match = guest.wait_for(expect, timeout=timeout)
    guest.wait_for(PROMPT, timeout=timeout)
    return match


def test_line_editing(shell):
    # busybox's editor (the terminal raw): DEL erases, ^U kills the line.
    run(shell, b"echo abX\x7fc\n", rb"\r\nabc\r\n")
    run(shell, b"echo junk\x15echo fresh\n", rb"\r\nfresh\r\n")
    # The line discipline's canonical editing, for `read`: erase and kill. "go" says
    # that the shell has put the terminal back in canonical mode (text typed ahead
    # while its editor still had it raw would not be edited, as on Linux).
    shell.send(b"echo go; read x; echo got=$x.\n")
    shell.wait_for(rb"\r\ngo\r\n")
    shell.send(b"ab\x7fc\n")
    shell.wait_for(rb"ab\x08 \x08c\r\ngot=ac\.\r\n")  # ECHOE: backspace, space, backspace
    shell.wait_for(PROMPT)
    shell.send(b"echo go; read x; echo got=$x.\n")
    shell.wait_for(rb"\r\ngo\r\n")
    shell.send(b"junk\x15good line\n")
    shell.wait_for(rb"got=good line\.\r\n")
    shell.wait_for(PROMPT)


def interrupt_until_killed(guest, program):
    """^C until the kernel reports `program` killed by SIGINT: a ^C typed before the
    shell has made the job the foreground reaches the shell instead, so it is typed
    again (at most a few times)."""
    for _ in range(5):
        guest.send(b"\x03")
        try:
            return guest.wait_for(rb"%s\[\d+\]: killed by SIGINT" % program, timeout=10)
        except Exception:  # GuestTimeout: the job was not in the foreground yet
            continue
    raise AssertionError(f"{program} was never killed by a typed ^C:\n{guest.text[-2000:]}")


def test_ctrl_c_ends_the_foreground_job(shell):
    # The job says when it runs: ash's child takes the terminal (tcsetpgrp) before it
    # execs. A ^C typed before that reaches ash, which stops waiting for the job and
    # leaves it running unseen, so later ^Cs reach only ash (a loaded run saw yes never
    # killed after the command line's echo).
    shell.send(b"sh -c 'echo started; exec yes > /dev/null'\n")
    shell.wait_for(rb"\r\nstarted\r\n")
    interrupt_until_killed(shell, rb"(?:sh|yes)")  # sh until its exec, then yes
    shell.wait_for(PROMPT)
    run(shell, b"echo status $?\n", rb"\r\nstatus 130\r\n")  # 128 + SIGINT


def test_ctrl_z_jobs_fg(shell):
    # The job says when it runs (in the foreground), then reads the terminal as cat.
    shell.send(b"sh -c 'echo ready; exec cat'\n")
    shell.wait_for(rb"\r\nready\r\n")
    shell.send(b"one\n")
    shell.wait_for(rb"one\r\none\r\n")  # the echo, then cat's copy
    shell.send(b"\x1a")
    shell.wait_for(rb"\^Z\[1\]\+\s+Stopped\s+sh -c \"echo ready; exec cat\"\r\n")
    shell.wait_for(PROMPT)
    run(shell, b"jobs\n", rb"jobs\r\n\[1\]\+\s+Stopped\s+sh -c")
    shell.send(b"fg\n")
    shell.wait_for(rb"fg\r\nsh -c \"echo ready; exec cat\"\r\n")
    shell.send(b"two\n")  # read by the resumed job: it is in the foreground again
    shell.wait_for(rb"two\r\ntwo\r\n")
    interrupt_until_killed(shell, b"cat")
    shell.wait_for(PROMPT)
    run(shell, b"jobs; echo none-left\n", rb"jobs; echo none-left\r\nnone-left\r\n")


def test_stty_shows_linux_defaults(shell):
    shell.send(b"stty -a\n")
    text = shell.wait_for(rb"stty -a\r\n([\s\S]*?)" + PROMPT).group(1).decode()
    assert "rows 24; columns 80" in text, text
    for setting in ["speed 115200 baud", "intr = ^C", "quit = ^\\", "erase = ^?",
                    "kill = ^U", "eof = ^D", "start = ^Q", "stop = ^S", "susp = ^Z",
                    "rprnt = ^R", "werase = ^W", "lnext = ^V", "min = 1", "time = 0"]:
        assert setting in text, (setting, text)
    words = text.split()
    for flag in ["icrnl", "ixon", "-ixoff", "opost", "onlcr", "isig", "icanon", "iexten",
                 "echo", "echoe", "echok", "-echonl", "-noflsh", "-tostop", "echoctl",
                 "echoke", "cs8", "cread", "-parenb", "-istrip", "-inlcr", "-igncr"]:
        assert flag in words, (flag, text)
    run(shell, b"stty size\n", rb"\r\n24 80\r\n")


def test_stty_echo_off_hides_typed_text(shell):
    run(shell, b"stty -echo\n", rb"stty -echo\r\n")
    mark = len(shell.output)
    shell.send(b"echo hid''den\n")  # typed, not shown; its output is
    shell.wait_for(rb"hidden\r\n")
    shell.wait_for(PROMPT)
    assert b"echo hid" not in shell.output[mark:], shell.output[mark:]
    shell.send(b"stty echo\n")
    shell.wait_for(PROMPT)
    assert b"stty echo" not in shell.output[mark:]
    run(shell, b"echo shown\n", rb"echo shown\r\nshown\r\n")


def test_ctrl_s_holds_output_ctrl_q_releases_it(shell):
    shell.send(b"echo go; read x; echo after=$x\n")
    shell.wait_for(rb"\r\ngo\r\n")
    shell.send(b"\x13")  # ^S: output stops
    shell.send(b"abc\n")
    time.sleep(1.0)  # guard only: nothing may appear while stopped, whatever the time
    assert b"after=abc" not in shell.output
    shell.send(b"\x11")  # ^Q
    shell.wait_for(rb"after=abc\r\n")
    shell.wait_for(PROMPT)


def test_ctrl_d_at_an_empty_prompt_exits(shell):
    shell.send(b"\x04")
    shell.wait_for(rb"shell-ended\r\n")
    assert shell.wait_exit(timeout=60) == 0
    assert "PANIC" not in shell.text
