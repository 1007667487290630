"""System tests of ppoll's and pselect6's signal mask (kernel/syscall/sys_poll.c), as Linux
applies it: the blocked set for the wait only; a pending signal it unblocks is EINTR at
once with its handler run under the call's mask and the old mask back afterwards; a
signal it keeps blocked waits until the call returns; a signal interrupts an unmasked
wait; a bad mask size is EINVAL and changes nothing.

user/test_ppoll.c does the checking ("ok NAME" / "FAIL NAME: DETAIL" per check); it runs
as init with picolibc and with glibc, on 1 and 4 harts, under QEMU -icount.
"""

import re

import pytest

import duplex_qemu

# test_ppoll makes this many checks; a different count means one was skipped or added
# without updating this number.
TEST_PPOLL_CHECKS = 16


@pytest.mark.parametrize("smp", [1, 4])
@pytest.mark.parametrize("program", ["test_ppoll", "glibc/test_ppoll"])
def test_ppoll_all_pass(image, request, program, smp):
    name = duplex_qemu.sanitize_name(request.node.name)
    status, text = duplex_qemu.run_to_exit(image, append=f"init=/bin/{program}", smp=smp,
                                           icount=True, timeout=300, name=name)
    failures = re.findall(r"^FAIL .*$", text, re.M)
    summary = re.search(r"test_ppoll: (\d+) passed, (\d+) failed", text)
    assert summary, text[-3000:]
    assert failures == [] and summary.group(2) == "0", failures
    assert int(summary.group(1)) == TEST_PPOLL_CHECKS, text[-3000:]
    assert status == 0, text[-3000:]
    assert "killed by" not in text and "panic" not in text.lower()
