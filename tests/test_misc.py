"""System tests of the calls a Linux userland asks for beyond files and processes
(user/test_misc.c): uid/gid (every process is root), the coarse clocks, the wall clock
from QEMU's Goldfish RTC, prctl's process name, sendfile, rseq, riscv_hwprobe, and the
kernel's report of every missing call a program tries, each once, by name.

The wall-clock check passes the kernel image's modification time (its build) to the
program, which must find CLOCK_REALTIME past it: the clock came from the RTC, not from 0.
"""

import re

import pytest

import duplex_qemu

# test_misc makes this many checks on every run; a different count means a check was
# skipped or added without updating this number.
TEST_MISC_CHECKS = 62

# The twelve missing calls test_misc tries twice each (riscv64 Linux's numbers 0..11).
MISSING = ["io_setup", "io_destroy", "io_submit", "io_cancel", "io_getevents", "setxattr",
           "lsetxattr", "fsetxattr", "getxattr", "lgetxattr", "fgetxattr", "listxattr"]


def run_test_misc(image, request, program, smp):
    build_seconds = int(image.stat().st_mtime)
    name = duplex_qemu.sanitize_name(f"{request.node.name}")
    status, text = duplex_qemu.run_to_exit(
        image, append=f"init=/bin/{program} -- {build_seconds}", smp=smp, icount=True,
        timeout=120, name=name)
    return status, text


@pytest.mark.parametrize("program", ["test_misc", "glibc/test_misc"])
@pytest.mark.parametrize("smp", [1, 4])
def test_misc_all_pass(image, request, program, smp):
    status, text = run_test_misc(image, request, program, smp)
    failures = [line for line in text.splitlines() if line.startswith("FAIL ")]
    assert not failures, "\n".join(failures)
    summary = re.search(r"test_misc: (\d+) passed, (\d+) failed", text)
    assert summary, text[-2000:]
    assert (int(summary.group(1)), int(summary.group(2))) == (TEST_MISC_CHECKS, 0)
    assert status == 0
    # The RTC set the wall clock at boot, from the device tree's node.
    assert "rtc: google,goldfish-rtc at 0x101000 sets the wall clock" in text
    # sendfile's bytes reached the console: /etc/motd, after its label.
    assert "sendfile to stdout: Duplex — type help" in text


@pytest.mark.parametrize("program", ["test_misc", "glibc/test_misc"])
def test_every_missing_call_is_reported_once(image, request, program):
    status, text = run_test_misc(image, request, program, 2)
    assert status == 0, text[-2000:]
    reports = re.findall(r"test_misc\[\d+\]: system call (\d+) \((\w+)\) not implemented: "
                         r"ENOSYS", text)
    # All twelve, more than the 8 the kernel once stopped at, each once, in order.
    assert reports == [(str(number), name) for number, name in enumerate(MISSING)], reports
    # Nothing else is reported: the calls Duplex answers itself (glibc's start-up rseq
    # and riscv_hwprobe, and everything else test_misc calls) are not among them.
    assert len(re.findall(r"not implemented: ENOSYS", text)) == len(MISSING), text[-3000:]
