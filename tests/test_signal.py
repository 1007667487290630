"""System tests of signals (issue #25, "Signals delivered for real"): user/test_signal.c
makes its checks through raw system calls (Linux's numbers and structures) and through
the C library's API, built with picolibc for the hard-float ABI (/bin/test_signal) and
with glibc (/bin/glibc/test_signal), so glibc's own sigaction/sigreturn path runs too.
Both builds must pass the same checks, on 1 and on 4 harts.

What the checks cover (each is one "ok NAME" line): handler arguments and siginfo, the
signal frame (alignment, the return trampoline, uc_sigmask), every integer and FP
register and fcsr back after sigreturn, masks and pending, sigsuspend, EINTR versus
SA_RESTART for nanosleep and wait4, EINTR from a console read (both backends), SA_RESETHAND, SA_NODEFER, sa_mask, sigaltstack,
SIGSEGV/SIGTRAP handlers with si_addr and si_code, kills by faults with the signal
blocked and by corrupt or unreadable sigreturn frames, kill/tkill/tgkill errno rules,
default actions (terminate, ignore, stop and continue), SIGCHLD with si_pid/si_status,
rt_sigtimedwait.
"""

import re

import pytest

import duplex_qemu

# test_signal makes this many checks on every run, with either libc.
TEST_SIGNAL_CHECKS = 106


def boot(image, request, program, smp, console):
    name = duplex_qemu.sanitize_name(f"{request.node.name}-{program}")
    return duplex_qemu.run_to_exit(image, append=f"console={console} init=/bin/{program}",
                                   smp=smp, icount=True, timeout=180, name=name)


CONFIGS = [(1, "async"), (4, "async"), (4, "polling")]


@pytest.mark.parametrize("smp,console", CONFIGS, ids=[f"{s}harts-{c}" for s, c in CONFIGS])
def test_signal_checks_pass_with_both_libcs(image, request, smp, console):
    results = {}
    for program in ("test_signal", "glibc/test_signal"):
        status, text = boot(image, request, program, smp, console)
        failures = [line for line in text.splitlines() if line.startswith("FAIL ")]
        assert failures == [], text[-3000:]
        assert f"test_signal: {TEST_SIGNAL_CHECKS} passed, 0 failed" in text, text[-3000:]
        assert status == 0
        results[program] = re.findall(r"^(ok|FAIL) ([^:\r\n]*)", text, re.M)
        # The children killed on purpose, each with the kernel's one-line report; the
        # kernel itself goes on (the run ends with status 0, not a panic).
        assert re.search(r"test_signal\[\d+\]: killed by SIGSEGV: store page fault at pc "
                         r"0x[0-9a-f]+, address 0x20", text), text[-3000:]
        assert re.search(r"killed by SIGSEGV: corrupt signal frame at sp 0x3f", text)
        assert "killed by SIGSEGV: unreadable signal frame at sp 0x10" in text
        assert len(re.findall(r"killed by SIGTERM \(signal 15\)", text)) == 2, text
        for name, number in (("SIGTERM", 15), ("SIGKILL", 9), ("SIGUSR1", 10)):
            assert re.search(rf"killed by {name} \(signal {number}\) from pid \d+", text), text
        assert "survived" not in text
    assert results["test_signal"] == results["glibc/test_signal"]


def test_signal_round_trip_numbers(image, request):
    # The benchmark mode reports, under -icount on one hart, the time and the
    # instructions from kill(self) to the handler's first instruction and for the whole
    # round trip back through rt_sigreturn. Asserted: the four lines, their sample count
    # and ordered percentiles; the numbers themselves are printed (docs/design.md,
    # "Signals", quotes them).
    name = duplex_qemu.sanitize_name(request.node.name)
    status, text = duplex_qemu.run_to_exit(
        image, append="console=async init=/bin/test_signal -- bench 1000", smp=1,
        icount=True, timeout=120, name=name)
    assert status == 0, text[-2000:]
    lines = re.findall(r"SIGNAL-BENCH what=(\w+) unit=(\w+) n=(\d+) p50=(\d+) p90=(\d+) "
                       r"p99=(\d+) max=(\d+)", text)
    assert [(what, unit) for what, unit, *_ in lines] == [
        ("kill_to_handler", "ns"), ("round_trip", "ns"),
        ("kill_to_handler", "instructions"), ("round_trip", "instructions")], text[-2000:]
    for what, unit, n, *percentiles in lines:
        values = [int(v) for v in percentiles]
        assert int(n) == 1000
        assert 0 < values[0] <= values[1] <= values[2] <= values[3]
        print(f"signal {what}: p50 {values[0]} {unit}, p99 {values[2]} {unit}")
    # The whole trip includes the way to the handler.
    assert int(lines[1][3]) > int(lines[0][3]) and int(lines[3][3]) > int(lines[2][3])
