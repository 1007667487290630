"""System tests of the file layer (issue #24, files a shell expects): the mount table,
tmpfs at /tmp, symbolic links, the working directory and the name calls, each with
Linux's errno values, checked by user/test_fs.c built with picolibc and with glibc.

Each run prints one line per check and a summary; a different count means a check was
skipped or added without updating the numbers below.
"""

import re

import pytest

import duplex_qemu

# user/test_fs.c: checks in the default run, and in `test_fs full` (tmpfs.pages=64).
TEST_FS_CHECKS = 175
TEST_FS_FULL_CHECKS = 14


def run(image, request, append, smp, suffix=""):
    name = duplex_qemu.sanitize_name(request.node.name) + suffix
    status, text = duplex_qemu.run_to_exit(image, append=append, smp=smp, timeout=120, name=name)
    failures = [line for line in text.splitlines() if line.startswith("FAIL ")]
    summary = re.search(r"test_fs: (\d+) passed, (\d+) failed", text)
    assert summary, text[-2000:]
    return status, failures, (int(summary.group(1)), int(summary.group(2))), text


@pytest.mark.parametrize("smp", [1, 4])
@pytest.mark.parametrize("program", ["test_fs", "glibc/test_fs"])
def test_fs_calls(image, request, program, smp):
    status, failures, counts, text = run(image, request, f"init=/bin/{program}", smp)
    assert failures == []
    assert counts == (TEST_FS_CHECKS, 0)
    assert status == 0
    assert "not implemented" not in text  # every call the program made is one Duplex has


@pytest.mark.parametrize("smp", [1, 4])
@pytest.mark.parametrize("program", ["test_fs", "glibc/test_fs"])
def test_full_tmpfs_is_enospc_and_gives_its_pages_back(image, request, program, smp):
    status, failures, counts, text = run(
        image, request, f"tmpfs.pages=64 init=/bin/{program} -- full", smp)
    assert failures == []
    assert counts == (TEST_FS_FULL_CHECKS, 0)
    assert status == 0
    assert "panic" not in text.lower()


def test_tmpfs_pages_parameter_is_known(image, request):
    status, failures, counts, text = run(image, request, "tmpfs.pages=64 init=/bin/test_fs -- full", 1)
    assert "Unknown kernel command line parameters" not in text, text[-2000:]


def test_tmpfs_with_no_budget_is_enospc(image, request):
    status, failures, counts, text = run(image, request, "tmpfs.pages=0 init=/bin/test_fs -- empty", 1)
    assert failures == []
    assert counts == (3, 0)
    assert status == 0


def test_tmpfs_budget_past_memory_is_capped(image, request):
    status, failures, counts, text = run(image, request, "tmpfs.pages=99999999999 init=/bin/test_fs", 1)
    assert re.search(r"tmpfs.pages: more than the kernel can spare, using \d+", text), text[-2000:]
    assert failures == [] and counts == (TEST_FS_CHECKS, 0) and status == 0
