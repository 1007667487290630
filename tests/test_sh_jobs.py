"""Job control in Duplex's own sh (user/sh/, issue #25), typed over the serial line as a
person at a terminal would, on both console backends.

The kernel starts `/bin/sh` as `make run` does. The interactive shell is then not init
(pid 1): sh as pid 1 forks it and only waits, since a job whose parent is init counts
as orphaned and could not be stopped by ^Z (POSIX; Linux does not count init as a
parent that keeps a group alive); when the shell exits, pid 1 ends the run with its
status.

Checked: ^C ends the foreground program and the shell goes on ("[killed by signal 2
(SIGINT)]", "[exit 1]"); ^Z stops `spin` ("[1]+ Stopped  spin -s 0"), `jobs` lists it,
`fg` continues it in the foreground (a ^C then ends it), `bg` in the background while
the prompt answers (`jobs`: Running); `cmd &` starts a background job ("[1] PID") whose
end is reported once before a later prompt ("Done", "Exit 1"); a background read stops
a job with SIGTTIN and `fg` lets it read; a job (each process of a pipeline) runs in a
process group of its own that has the terminal, not the shell's (user/ids.c prints the
ids), and a background job leaves the terminal to the shell; `exit` after a ^Z leaves
with 128 + SIGTSTP (148, Linux's number). Deadlines are host guards only: nothing
asserts how long anything took.
"""

import re

import pytest

PROMPT = rb"\$ "
BACKENDS = ["async", "polling"]


@pytest.fixture(params=BACKENDS)
def shell(request, image, guest_factory):
    guest = guest_factory(image, smp=2, icount=True,
                          append=f"console={request.param} console.rx_watch "
                                 f"init=/bin/sh").start()
    guest.wait_for("Duplex \u2014 type help", timeout=120)
    guest.wait_for(PROMPT, timeout=60)
    return guest


def run(guest, line, expect, timeout=60):
    """Type `line`, wait for `expect`, then for the next prompt; the match."""
    guest.send(line)
    match = guest.wait_for(expect, timeout=timeout)
    guest.wait_for(PROMPT, timeout=timeout)
    return match


def type_until(guest, key, expect, attempts=5):
    """Type control key `key` until `expect` appears: a ^C or ^Z typed before the shell
    has handed the terminal to the job reaches the shell's group, which ignores it, so
    it is typed again (at most a few times). The match."""
    for _ in range(attempts):
        guest.send(key)
        try:
            return guest.wait_for(expect, timeout=10)
        except Exception:  # GuestTimeout: the job was not in the foreground yet
            continue
    raise AssertionError(f"{expect!r} never appeared after typing {key!r}:\n"
                         f"{guest.text[-2000:]}")


def until_seen(guest, mark, patterns, attempts=30):
    """Run `sleep 0.2` in the foreground (so that guest time passes) until every regex
    of `patterns` appears in the output after byte `mark`: a background job's output and
    the report of its end come when they come, before or after the next prompt. Returns
    the output after `mark`."""
    for _ in range(attempts):
        if all(re.search(pattern, guest.output[mark:]) for pattern in patterns):
            return guest.output[mark:]
        run(guest, b"sleep 0.2\r", rb"sleep 0\.2\r\n")
    raise AssertionError(f"{patterns!r} not all seen:\n{guest.text[-2000:]}")


def ids(guest, line):
    """Run `line` (which runs user/ids.c) and return its numbers as a dict."""
    match = run(guest, line, rb"ids pid (-?\d+) pgid (-?\d+) sid (-?\d+) foreground (-?\d+) "
                             rb"parent (-?\d+) parent-pgid (-?\d+)\r\n")
    names = ["pid", "pgid", "sid", "foreground", "parent", "parent_pgid"]
    return dict(zip(names, (int(value) for value in match.groups())))


def test_ctrl_c_ends_the_program_and_the_shell_goes_on(shell):
    for _ in range(2):
        shell.send(b"cat\r")
        shell.wait_for(rb"cat\r\n")
        shell.send(b"line\r")
        shell.wait_for(rb"line\r\nline\r\n")  # the echo, then cat's copy: cat reads
        shell.send(b"\x03")  # cat is in the foreground: it can read
        shell.wait_for(rb"\^C")  # the echo; the kernel's kill report may come next
        shell.wait_for(rb"\n\[killed by signal 2 \(SIGINT\)\]\r\n")
        shell.wait_for(PROMPT)
    assert re.search(r"cat\[\d+\]: killed by SIGINT", shell.text)
    # The busy program never reads: ^C until the kernel reports it.
    shell.send(b"spin -s 0\r")
    shell.wait_for(rb"spin -s 0\r\n")
    type_until(shell, b"\x03", rb"\[killed by signal 2 \(SIGINT\)\]\r\n")
    shell.wait_for(PROMPT)
    run(shell, b"echo alive\r", rb"\r\nalive\r\n")
    run(shell, b"false\r", rb"\r\n\[exit 1\]\r\n")
    shell.send(b"\x04")  # ^D at an empty prompt: the shell exits, the run ends
    assert shell.wait_exit(timeout=60) == 0
    assert "PANIC" not in shell.text


def test_jobs_have_process_groups_of_their_own(shell):
    foreground = ids(shell, b"ids\r")
    assert foreground["pgid"] == foreground["pid"]          # it leads its group
    assert foreground["foreground"] == foreground["pgid"]   # which has the terminal
    assert foreground["parent_pgid"] == foreground["parent"]  # the shell leads its own
    assert foreground["pgid"] != foreground["parent_pgid"]
    assert foreground["sid"] != foreground["pgid"]
    assert foreground["sid"] == 1 != foreground["parent"]  # pid 1 only waits for the shell
    # A pipeline is one group: the second process joins the first one's group, which
    # has the terminal.
    piped = ids(shell, b"echo x | ids\r")
    assert piped["pgid"] != piped["pid"]
    assert piped["foreground"] == piped["pgid"] != piped["parent_pgid"]
    assert piped["parent_pgid"] == foreground["parent_pgid"]
    # In the background the terminal stays with the shell.
    mark = len(shell.output)
    shell.send(b"ids &\r")
    ids_line = rb"ids pid (\d+) pgid (\d+) sid \d+ foreground (\d+) parent \d+ parent-pgid (\d+)"
    # Nothing else runs in the foreground before ids has printed (the wait is for its line
    # wherever it comes, before or after "[1] PID").
    pid, pgid, terminal, shell_group = (int(v) for v in shell.wait_for(ids_line).groups())
    after = until_seen(shell, mark, [rb"\[1\] \d+\r\n", rb"\[1\]\+ Done  ids\r\n"])
    started = int(re.search(rb"\[1\] (\d+)\r\n", after).group(1))
    assert started == pid == pgid
    assert terminal == shell_group == foreground["parent_pgid"] != pgid
    assert len(re.findall(rb"\[1\]\+ Done  ids", after)) == 1


def test_ctrl_z_jobs_fg_bg(shell):
    shell.send(b"spin -s 0\r")
    shell.wait_for(rb"spin -s 0\r\n")
    type_until(shell, b"\x1a", rb"\[1\]\+ Stopped  spin -s 0\r\n")
    shell.wait_for(PROMPT)
    run(shell, b"jobs\r", rb"jobs\r\n\[1\]\+ Stopped  spin -s 0\r\n")
    # fg: in the foreground again, where a ^C reaches it.
    shell.send(b"fg\r")
    shell.wait_for(rb"fg\r\nspin -s 0\r\n")
    type_until(shell, b"\x03", rb"\[killed by signal 2 \(SIGINT\)\]\r\n")
    shell.wait_for(PROMPT)
    shell.send(b"jobs\r")
    assert shell.wait_for(rb"jobs\r\n(.*?)\$ ").group(1) == b""  # no job left
    # Stopped again, then bg: it runs on while the shell answers.
    shell.send(b"spin -s 0\r")
    shell.wait_for(rb"spin -s 0\r\n")
    type_until(shell, b"\x1a", rb"\[1\]\+ Stopped  spin -s 0\r\n")
    shell.wait_for(PROMPT)
    run(shell, b"bg\r", rb"bg\r\n\[1\]\+ spin -s 0 &\r\n")
    run(shell, b"echo answered\r", rb"\r\nanswered\r\n")
    run(shell, b"jobs\r", rb"jobs\r\n\[1\]\+ Running  spin -s 0\r\n")
    shell.send(b"fg %1\r")
    shell.wait_for(rb"fg %1\r\nspin -s 0\r\n")
    type_until(shell, b"\x03", rb"\[killed by signal 2 \(SIGINT\)\]\r\n")
    shell.wait_for(PROMPT)
    assert len(re.findall(r"spin\[\d+\]: killed by SIGINT", shell.text)) == 2
    run(shell, b"fg\r", rb"sh: fg: current: no such job\r\n")


def test_background_jobs_and_their_reports(shell):
    mark = len(shell.output)
    run(shell, b"sleep 1 &\r", rb"\r\n\[1\] \d+\r\n")
    run(shell, b"false &\r", rb"\r\n\[2\] \d+\r\n")
    # Each is reported once, after it ended, before a prompt.
    after = until_seen(shell, mark, [rb"\[1\][+ -] Done  sleep 1\r\n",
                                     rb"\[2\][+ -] Exit 1  false\r\n"])
    reports = re.findall(rb"\[(\d)\][+ -] ((?:Done|Exit|Killed|Stopped|Running)[^\r\n]*)", after)
    assert sorted(reports) == [(b"1", b"Done  sleep 1"), (b"2", b"Exit 1  false")], reports
    shell.send(b"jobs\r")
    assert shell.wait_for(rb"jobs\r\n(.*?)\$ ").group(1) == b""  # reported ones are gone
    # A background read from the terminal stops the job (SIGTTIN); fg continues it.
    mark = len(shell.output)
    shell.send(b"cat &\r")
    until_seen(shell, mark, [rb"\[1\] \d+\r\n", rb"\[1\]\+ Stopped \(SIGTTIN\)  cat\r\n"])
    run(shell, b"jobs\r", rb"jobs\r\n\[1\]\+ Stopped \(SIGTTIN\)  cat\r\n")
    shell.send(b"fg\r")
    shell.wait_for(rb"fg\r\ncat\r\n")
    shell.send(b"typed\r")
    shell.wait_for(rb"typed\r\ntyped\r\n")  # cat reads in the foreground now
    shell.send(b"\x04")  # end of file: cat exits 0
    shell.wait_for(PROMPT)
    run(shell, b"sh -c \"exit 3\"\r", rb"\r\n\[exit 3\]\r\n")


def test_exit_with_a_stopped_job(shell):
    shell.send(b"spin -s 0\r")
    shell.wait_for(rb"spin -s 0\r\n")
    type_until(shell, b"\x1a", rb"\[1\]\+ Stopped  spin -s 0\r\n")
    shell.wait_for(PROMPT)
    shell.send(b"exit\r")  # the last status: 128 + SIGTSTP (Linux's 20)
    assert shell.wait_exit(timeout=60) == 148


def test_ctrl_c_reaches_a_job_after_the_fallback_to_polling(image, guest_factory):
    """console=async whose TX interrupt check fails (uart.test.no_tx_irq=1, as on a board
    whose UART interrupt is not wired) carries on polled; with console.rx_watch the polled
    receiver is watched from then on as under console=polling, so a ^C typed while a job
    only computes (no read or write that would look at the receiver) still ends it."""
    guest = guest_factory(image, smp=2, icount=True,
                          append="console=async console.rx_watch uart.test.no_tx_irq=1 "
                                 "init=/bin/sh").start()
    guest.wait_for("Duplex \u2014 type help", timeout=120)
    guest.wait_for(PROMPT, timeout=60)
    assert b"TX interrupt check: FAIL" in guest.output
    assert b"console: polling" in guest.output
    guest.send(b"spin -s 0\r")
    guest.wait_for(rb"spin -s 0\r\n")
    type_until(guest, b"\x03", rb"\[killed by signal 2 \(SIGINT\)\]\r\n")
    guest.wait_for(PROMPT)
