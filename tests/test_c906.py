"""The lichee-rv-d1 kernel on QEMU's T-Head C906 CPU model (`-M virt -cpu thead-c906`).

Debian 12's QEMU 7.2 has no C906 model, so these boots use QEMU 10 from bookworm-backports,
unpacked into build/qemu-backports/ by tools/qemu-backports.sh (the system QEMU, which the
benchmark measures with, is left alone). What they show: the D1 build (BOARD_CPU_THEAD,
its boot page table, its S-mode read of th.sxstatus) runs on a C906 hart without an
instruction or CSR the C906 lacks, and comes up from the device tree QEMU passes in a1
(ns16550a UART, riscv,plic0, 256 MiB at 0x80000000): nothing in the D1 build assumes the
D1's own tree. QEMU's C906 does not implement MAEE, so the MAEE-off attribute path is
the one that runs here.

One hart, like the D1. Each boot is short.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

import duplex_qemu

REPO_ROOT = Path(__file__).resolve().parent.parent

# These tests build and write build/lichee-rv-d1/ (make BOARD=lichee-rv-d1, its Android and
# SD images with different command lines): one pytest-xdist worker runs them all.
pytestmark = pytest.mark.xdist_group("lichee-rv-d1")
D1_IMAGE = REPO_ROOT / "build" / "lichee-rv-d1" / "Image"
UBOOT = Path("/usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin")
C906 = ["-cpu", "thead-c906"]
TIMEOUT = 120
from test_user import TEST_SYSCALLS_CHECKS  # one count for every build


@pytest.fixture(scope="module")
def c906_qemu(backports):
    """Path of the backports QEMU (conftest.py fetches it)."""
    return backports.qemu


@pytest.fixture(scope="module")
def d1_image():
    """build/lichee-rv-d1/Image, (re)built by make."""
    result = subprocess.run(["make", "--no-print-directory", "-j2", "BOARD=lichee-rv-d1", "all"],
                            cwd=REPO_ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"make BOARD=lichee-rv-d1 failed:\n{result.stderr[-3000:]}", pytrace=False)
    return D1_IMAGE


def boot_c906(qemu, image, request, append, **kwargs):
    """Boot the D1 kernel on one C906 hart until power-off; return (status, text)."""
    name = "c906-" + duplex_qemu.sanitize_name(request.node.name)
    return duplex_qemu.run_to_exit(image, append=append, smp=1, timeout=TIMEOUT, name=name,
                                   extra=C906 + list(kwargs.pop("extra", [])), qemu=qemu,
                                   **kwargs)


def assert_came_up_on_the_c906(text):
    # The S-mode read of th.sxstatus ran (it traps on any other hart) and found MAEE off:
    # in entry.S before paging (the breadcrumb) and in memattr_init after.
    assert re.search(r"boot: T-Head build: th\.sxstatus 0x[0-9a-f]+: MAEE off", text), text
    assert re.search(r"memattr: T-Head hart, th\.sxstatus 0x[0-9a-f]+: MAEE off", text), text
    # Found from QEMU's tree, not the D1's.
    assert "uart: ns16550a at 0x10000000" in text
    assert "plic: riscv,plic0 at 0xc000000" in text
    assert "1 of 1 harts online" in text


def test_selftests_on_the_c906(c906_qemu, d1_image, request):
    status, text = boot_c906(c906_qemu, d1_image, request, "selftest=all")
    assert_came_up_on_the_c906(text)
    for name in ("wakers", "timers", "sched"):
        assert f"selftest {name}: PASS" in text
    assert status == 0, text[-2000:]


def test_stock_firmware_subset_on_the_c906(c906_qemu, d1_image, request, backports):
    # The board's stock firmware offers SBI 0.2: sbi=0.2 on a firmware that has more
    # (OpenSBI 1.5, SBI 2.0) uses only that, on the C906, where the timer is SBI's.
    status, text = boot_c906(c906_qemu, d1_image, request, "sbi=0.2 selftest=all",
                             bios=backports.firmware)
    assert_came_up_on_the_c906(text)
    assert "sbi=0.2; console: legacy putchar, power-off: legacy shutdown, other harts: " \
           "stay offline (no HSM)" in text
    assert "timer: SBI set_timer" in text
    for name in ("wakers", "timers", "sched"):
        assert f"selftest {name}: PASS" in text
    assert status == 0, text[-2000:]


@pytest.mark.parametrize("backend", ["polling", "async"])
def test_syscalls_on_the_c906(c906_qemu, d1_image, request, backend):
    status, text = boot_c906(c906_qemu, d1_image, request,
                             f"console={backend} init=/bin/test_syscalls")
    assert_came_up_on_the_c906(text)
    assert f"console: {backend}" in text
    assert [line for line in text.splitlines() if line.startswith("FAIL ")] == []
    summary = re.search(r"test_syscalls: (\d+) passed, (\d+) failed", text)
    assert summary, text[-2000:]
    assert (int(summary.group(1)), int(summary.group(2))) == (TEST_SYSCALLS_CHECKS, 0)
    assert status == 0


def test_uboot_booti_on_the_c906(c906_qemu, d1_image, request, tmp_path):
    # OpenSBI -> Debian's U-Boot -> boot.scr on a virtio disk -> booti -> the D1 kernel,
    # all on the C906 model (tests/test_uboot.py does the same on QEMU's default hart).
    if not UBOOT.is_file():
        pytest.fail(f"{UBOOT} not found: install Debian's u-boot-qemu (make deps)",
                    pytrace=False)
    disk = tmp_path / "duplex-sd.img"
    subprocess.run([sys.executable, str(REPO_ROOT / "tools" / "mkimage-sd.py"), "--kernel",
                    str(d1_image), "--boot-cmd",
                    str(REPO_ROOT / "boards" / "lichee-rv-d1" / "boot.cmd"), "--bootargs",
                    'init=/bin/sh -- -c "exit 7"', "--output", str(disk)],
                   check=True, capture_output=True)
    with duplex_qemu.Guest(UBOOT, smp=1, drive=disk, interactive=False, extra=C906,
                           qemu=c906_qemu, name="c906-" + request.node.name) as guest:
        status = guest.wait_exit(TIMEOUT)
        text = guest.text
    assert "Found U-Boot script /boot.scr" in text
    assert re.search(r"Moving Image from 0x[0-9a-f]+ to 0x80200000", text)
    assert_came_up_on_the_c906(text)
    assert "/bin/sh exited with status 7; powering off" in text
    assert status == 7
