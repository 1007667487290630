"""System tests of processes the POSIX way (issue #24): clone with fork and vfork
semantics, execve of ELF programs and `#!` scripts with Linux's errno values, wait4
statuses, orphans adopted by init, the process limit, and no page, process or
descriptor lost over 200 fork + execve + wait rounds.

user/test_fork.c does the checking and prints one "ok NAME" / "FAIL NAME: DETAIL" line
per check; it runs as the first program (init, pid 1), with picolibc and with glibc, on
1 and 4 harts, under QEMU -icount.
"""

import re

import pytest

import duplex_qemu

# test_fork makes this many checks (three more with glibc: the FPU registers, lp64d only,
# and posix_spawn);
# a different count means a check was skipped or added without updating this number.
TEST_FORK_CHECKS = 55


def boot(image, request, program, smp):
    name = duplex_qemu.sanitize_name(f"{request.node.name}")
    return duplex_qemu.run_to_exit(image, append=f"init=/bin/{program}", smp=smp, icount=True,
                                   timeout=300, name=name)


@pytest.mark.parametrize("smp", [1, 4])
@pytest.mark.parametrize("program,checks", [("test_fork", TEST_FORK_CHECKS),
                                            ("glibc/test_fork", TEST_FORK_CHECKS + 3)])
def test_fork_all_pass(image, request, program, checks, smp):
    status, text = boot(image, request, program, smp)
    failures = re.findall(r"^FAIL .*$", text, re.M)
    summary = re.search(r"test_fork: (\d+) passed, (\d+) failed", text)
    assert summary, text[-3000:]
    assert failures == [] and summary.group(2) == "0", failures
    assert int(summary.group(1)) == checks, text[-3000:]
    assert status == 0, text[-3000:]
    # The child killed on purpose is reported once, with its signal; nothing else is.
    kills = re.findall(r"test_fork\[\d+\]: killed by (\w+)", text)
    assert kills == ["SIGSEGV"], kills
    assert "panic" not in text.lower()


# The D1 kernel on QEMU's T-Head C906 (one hart, not -icount): its page-table attribute
# bits (MAEE off) in the copied and new address spaces, and fence.i after an execve
# wrote new code (a separate instruction cache on the real chip).
from test_c906 import boot_c906, c906_qemu, d1_image  # noqa: E402,F401  (fixtures)


def test_fork_on_the_c906(c906_qemu, d1_image, request):
    status, text = boot_c906(c906_qemu, d1_image, request, "init=/bin/test_fork")
    assert re.findall(r"^FAIL .*$", text, re.M) == []
    summary = re.search(r"test_fork: (\d+) passed, (\d+) failed", text)
    assert summary, text[-2000:]
    assert (int(summary.group(1)), int(summary.group(2))) == (TEST_FORK_CHECKS, 0)
    assert status == 0
