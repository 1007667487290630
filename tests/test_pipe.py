"""System tests of pipes and descriptors (issue #24): user/test_pipe.c's checks of pipe2
(PIPE_BUF atomicity, blocking and EAGAIN, end of file, EPIPE, FIONREAD, S_IFIFO), dup3 and
fcntl's descriptor commands with close-on-exec, EMFILE at the table's end, ppoll and
pselect6 on every kind of file, and no descriptor or page leaked; a reader and a writer in
two processes on two harts. Built with picolibc and with glibc; 1 and 4 harts, under
QEMU -icount. Also Duplex's sh running pipelines and redirections.
"""

import re

import pytest

import duplex_qemu

# test_pipe makes this many checks on every run; a different count means a check was
# skipped or added without updating this number.
TEST_PIPE_CHECKS = 131


def boot(image, request, append, smp, timeout=180):
    name = duplex_qemu.sanitize_name(request.node.name)
    return duplex_qemu.run_to_exit(image, append=append, smp=smp, icount=True,
                                   timeout=timeout, name=name)


@pytest.mark.parametrize("smp", [1, 4])
@pytest.mark.parametrize("program", ["/bin/test_pipe", "/bin/glibc/test_pipe"])
def test_pipe_checks_all_pass(image, request, program, smp):
    status, text = boot(image, request, f"init={program}", smp)
    failures = [line for line in text.splitlines() if line.startswith("FAIL ")]
    assert failures == []
    summary = re.search(r"test_pipe: (\d+) passed, (\d+) failed", text)
    assert summary, text[-2000:]
    assert (int(summary.group(1)), int(summary.group(2))) == (TEST_PIPE_CHECKS, 0)
    assert status == 0


# Duplex's sh: pipelines and redirections over pipe2, dup3 and spawn. Each case is one
# `sh -c` line as the first program: (line, the console lines it must print, exit status).
SHELL_CASES = [
    ("echo hi | cat", ["hi"], 0),
    ("echo a|cat|cat|cat", ["a"], 0),
    ("cat < /etc/motd | cat | cat", ["Duplex — type help"], 0),
    ("echo gone > /dev/null", [], 0),
    ("echo gone >> /dev/null", [], 0),
    ("cat /no/such > /dev/null 2>&1", [], 1),
    ("cat /no/such 2>&1 > /dev/null", ["cat: /no/such: No such file or directory"], 1),
    ("cat /no/such 2>&1 | cat", ["cat: /no/such: No such file or directory"], 0),
    ("cat /no/such 2> /dev/null", [], 1),
    ("true | false", [], 1),
    ("false | true", [], 0),
    ("nosuch | cat", ["sh: nosuch: command not found"], 0),
    ("| cat", ["sh: syntax error: | without a command on each side"], 2),
    ("cat <", ["sh: syntax error: a redirection without a file"], 2),
    ("help > /dev/null", [], 0),
]


@pytest.mark.parametrize("smp", [1, 4])
@pytest.mark.parametrize("line,lines,status", SHELL_CASES, ids=[c[0] for c in SHELL_CASES])
def test_sh_pipelines_and_redirections(image, request, line, lines, status, smp):
    got_status, text = boot(image, request, f'init=/bin/sh -- -c "{line}"', smp, timeout=60)
    after = text.split("starting /bin/sh", 1)[1].splitlines()[1:]
    output = [entry.rstrip("\r") for entry in after if not re.match(r"\[\s*\d+\.\d+\] ", entry)]
    while output and output[-1] == "":
        output.pop()
    assert output == lines, text[-1500:]
    assert got_status == status


@pytest.mark.parametrize("backend", ["polling", "async"])
def test_ppoll_and_pselect6_wait_for_console_input(image, guest_factory, backend):
    """ppoll and pselect6 with no timeout on the console: not ready before anything is
    typed; a typed byte ends the wait (the async backend wakes the poller from its input
    queue, polling is looked at again every millisecond) and reads back."""
    guest = guest_factory(image, smp=2, icount=True,
                          append=f"console={backend} init=/bin/test_pipe -- console").start()
    guest.wait_for(rb"console: before input ppoll 0 revents 0\r\n", timeout=60)
    guest.wait_for(rb"console: waiting \(ppoll\)\r\n", timeout=60)
    guest.send("p")
    guest.wait_for(rb"console: ppoll 1 revents 0x1 read 1 'p'\r\n", timeout=60)
    guest.wait_for(rb"console: waiting \(pselect6\)\r\n", timeout=60)
    guest.send("s")
    guest.wait_for(rb"console: pselect6 1 set 0x1 read 1 's'\r\n", timeout=60)
    assert guest.wait_exit(timeout=60) == 0


def test_ppoll_console_pollout_waits_for_room(image, request):
    """POLLOUT on the console: with the line model at 115200 baud and an 8 KiB ring, O_NONBLOCK
    writes fill the async backend's ring until EAGAIN; ppoll then says not writable, and a
    ppoll without timeout returns POLLOUT once the ring has drained (woken by the backend's
    room queue)."""
    status, text = boot(image, request,
                        "uart.line=115200 console=async,ring=8192 init=/bin/test_pipe -- "
                        "console-out", 2, timeout=120)
    assert ("console-out: write -11 (EAGAIN), full ppoll 0 revents 0, later ppoll 1 "
            "revents 0x4") in text, text[-1000:]
    assert status == 0
