"""System tests of copy-on-write fork (kernel/mm/address_space.c, docs/design.md
"Copy-on-write fork"): neither side of a fork sees the other's stores, through three
generations; the kernel's own stores into a shared page (read() from a pipe and a file,
a signal frame on a shared sigaltstack, wait4's status) break the share; mprotect after
fork cannot open a shared page; a fork copies no page and a first store copies one; a
child out of memory breaking the share is killed by SIGKILL and no page is lost; forking
until EAGAIN/ENOMEM loses no page.

user/test_cow.c does the checking and prints one "ok NAME" / "FAIL NAME: DETAIL" line per
check; it runs as init with picolibc and with glibc, on 1 and 4 harts, under QEMU
-icount.
"""

import re

import pytest

import duplex_qemu

# test_cow makes this many checks; a different count means one was skipped or added
# without updating this number.
TEST_COW_CHECKS = 22


@pytest.mark.parametrize("smp", [1, 4])
@pytest.mark.parametrize("program", ["test_cow", "glibc/test_cow"])
def test_cow_all_pass(image, request, program, smp):
    name = duplex_qemu.sanitize_name(request.node.name)
    status, text = duplex_qemu.run_to_exit(image, append=f"init=/bin/{program}", smp=smp,
                                           icount=True, timeout=300, name=name)
    failures = re.findall(r"^FAIL .*$", text, re.M)
    summary = re.search(r"test_cow: (\d+) passed, (\d+) failed", text)
    assert summary, text[-3000:]
    assert failures == [] and summary.group(2) == "0", failures
    assert int(summary.group(1)) == TEST_COW_CHECKS, text[-3000:]
    assert status == 0, text[-3000:]
    # Exactly one process is killed: the child that ran out of memory breaking the share,
    # reported with its signal and why.
    kills = re.findall(r"test_cow\[\d+\]: killed by (\w+): (.*?) at pc", text)
    assert kills == [("SIGKILL", "out of memory for a copy-on-write page")], kills
    assert "panic" not in text.lower()
