"""The U-Boot boot path in QEMU: OpenSBI fw_jump -> Debian's U-Boot (qemu-riscv64_smode)
-> distro boot finds boot.scr on the SD image (a virtio disk) -> `booti` -> Duplex.

This is the D1's boot path minus the board: the same image tool, the same boot.scr
template, the same Image header and the same booti hand-off (a0 = hart id, a1 = DTB).
Only the DTB differs: on qemu-virt it is the tree QEMU built, which U-Boot runs on and
passes on (${fdtcontroladdr}).
"""

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import duplex_qemu

REPO_ROOT = Path(__file__).resolve().parent.parent
TOOL = REPO_ROOT / "tools" / "mkimage-sd.py"
BOOT_CMD = REPO_ROOT / "boards" / "lichee-rv-d1" / "boot.cmd"
UBOOT = Path("/usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin")
# U-Boot waits 2 s for a key before autobooting; the whole run takes a few seconds.
TIMEOUT = 120


@pytest.fixture
def uboot():
    if not UBOOT.is_file():
        pytest.fail(f"{UBOOT} not found: install Debian's u-boot-qemu (make deps)",
                    pytrace=False)
    return UBOOT


def make_disk(image, tmp_path, bootargs, *extra):
    """The qemu-virt SD image (no bootloader blob, no DTB file) for this kernel Image."""
    disk = tmp_path / "duplex-sd.img"
    subprocess.run([sys.executable, str(TOOL), "--kernel", str(image), "--boot-cmd",
                    str(BOOT_CMD), "--bootargs", bootargs, "--output", str(disk), *extra],
                   check=True, capture_output=True)
    return disk


@pytest.mark.parametrize("smp", [1, 2])
def test_booti_hands_over_to_duplex(image, uboot, tmp_path, guest_factory, smp):
    disk = make_disk(image, tmp_path, 'init=/bin/sh -- -c "exit 7"')
    guest = guest_factory(uboot, smp=smp, drive=disk, interactive=False).start()
    status = guest.wait_exit(timeout=TIMEOUT)
    log = guest.text

    # U-Boot found and ran our script, which chose U-Boot's own tree and called booti.
    assert "Found U-Boot script /boot.scr" in log
    assert "Duplex: passing on the device tree U-Boot runs on" in log
    assert "stopping the watchdog" not in log  # qemu-virt names none
    assert re.search(r"Moving Image from 0x[0-9a-f]+ to 0x80200000", log)
    fdt = re.search(r"Booting using the fdt blob at 0x([0-9a-f]+)", log)
    assert fdt, log

    # The kernel came up where booti put it, with a1 = the tree booti named and
    # a0 = the hart OpenSBI booted on (the only one running U-Boot).
    boot = re.search(r"Duplex booting on hart (\d+) \(kernel at 0x([0-9a-f]+), "
                     r"DTB at 0x([0-9a-f]+)\)", log)
    assert boot, log
    assert int(boot.group(2), 16) == 0x80200000
    assert int(boot.group(3), 16) == int(fdt.group(1), 16)
    opensbi_hart = re.search(r"Boot HART ID\s*:\s*(\d+)", log)
    assert opensbi_hart and boot.group(1) == opensbi_hart.group(1)

    # The bootargs came through U-Boot's fixup of /chosen, quotes intact.
    assert 'command line: console=async init=/bin/sh -- -c "exit 7"' in log
    assert f"{smp} of {smp} harts online" in log
    assert "/bin/sh exited with status 7; powering off" in log
    assert status == 7


def test_a_hart_the_firmware_refuses_is_named_and_not_waited_for(image, uboot, tmp_path,
                                                                  guest_factory):
    # A card whose DTB names more harts than the firmware runs (a tree copied from a
    # bigger variant of the board): QEMU and OpenSBI have 2 harts, the card's tree (QEMU's
    # own for 3) names a third, and U-Boot passes the card's tree on. OpenSBI has no
    # scratch area for hart 2, so its HSM hart_start refuses it (SBI_ERR_INVALID_PARAM,
    # -3; OpenSBI lib/sbi/sbi_hsm.c sbi_hsm_hart_start). Issue #29: such a hart was
    # counted as started and the boot hart waited its whole second for it.
    dtb = tmp_path / "virt-smp3.dtb"
    subprocess.run([duplex_qemu.QEMU_BINARY, "-M", f"virt,dumpdtb={dtb}", "-m", "256M",
                    "-smp", "3", "-nographic"], check=True, capture_output=True)
    disk = tmp_path / "duplex-sd.img"
    subprocess.run([sys.executable, str(TOOL), "--kernel", str(image), "--dtb", str(dtb),
                    "--boot-cmd", str(BOOT_CMD), "--bootargs",
                    "init=/bin/echo -- after the refused hart", "--output", str(disk)],
                   check=True, capture_output=True)
    # -icount: the log's time stamps are the guest's virtual time.
    guest = guest_factory(uboot, smp=2, drive=disk, interactive=False, icount=True).start()
    status = guest.wait_exit(timeout=TIMEOUT)
    log = guest.text
    # U-Boot loaded the card's tree and booti passed it on.
    assert "Duplex: loading virt-smp3.dtb" in log, log[-3000:]
    stamped = re.findall(r"\[\s*(\d+\.\d{6})\] h\d+ ([^\r\n]*)", log)
    messages = [message for _, message in stamped]
    assert "hart 2: SBI hart_start failed (-3), left offline" in messages, log[-3000:]
    assert "hart 2 did not come online: SBI hart_start failed (-3)" in messages
    assert "2 of 3 harts online" in messages
    # Hart 1 came online and the boot hart stopped waiting then: not a second later.
    times = {message: float(stamp) for stamp, message in stamped}
    waited = (times["2 of 3 harts online"]
              - times["hart 2: SBI hart_start failed (-3), left offline"])
    assert waited < 0.5, f"the boot hart waited {waited:.6f} s of virtual time"
    # The machine carries on with the harts it has.
    assert "after the refused hart" in log
    assert status == 0


def test_boot_script_stops_when_a_load_fails(image, uboot, tmp_path, guest_factory):
    # The card's FAT partition without its Image (a copy that went wrong): boot.scr
    # says which file it could not load and does not run booti on whatever memory held.
    disk = make_disk(image, tmp_path, 'init=/bin/sh -- -c "exit 7"')
    subprocess.run(["mdel", "-i", f"{disk}@@{2 * 1024 * 1024}", "::Image"], check=True)
    guest = guest_factory(uboot, smp=1, drive=disk, interactive=False).start()
    guest.wait_for(r"Duplex: cannot load Image from virtio 0:1; not booting", timeout=TIMEOUT)
    # U-Boot goes on with its boot order; Duplex's script never reaches booti.
    guest.wait_for(r"=> |Retrieving file|BOOTP", timeout=TIMEOUT)
    assert "Duplex: booti" not in guest.text
    assert "Starting kernel" not in guest.text


def test_boot_script_stops_each_watchdog_it_names(image, uboot, tmp_path, guest_factory):
    # The D1 image names two watchdog MODE registers (board.mk); U-Boot's shell must run
    # the script's loop once for each, in order, before booti. QEMU has no watchdog, so
    # two words of free RAM (below kernel_addr_r, above where booti puts the Image) take
    # the key writes.
    disk = make_disk(image, tmp_path, 'init=/bin/sh -- -c "exit 7"',
                     "--stop-watchdog", "0x83000000", "--stop-watchdog", "0x83000004")
    guest = guest_factory(uboot, smp=1, drive=disk, interactive=False).start()
    status = guest.wait_exit(timeout=TIMEOUT)
    log = guest.text
    lines = [line.strip() for line in log.splitlines() if "Duplex: " in line]
    stops = [line for line in lines if "stopping the watchdog" in line]
    assert stops == ["Duplex: stopping the watchdog (mw.l 0x83000000 0x16aa0000)",
                     "Duplex: stopping the watchdog (mw.l 0x83000004 0x16aa0000)"], log
    booti = next(i for i, line in enumerate(lines) if line.startswith("Duplex: booti"))
    assert lines.index(stops[1]) < booti
    assert status == 7


def _qemu_tree(tmp_path, smp):
    """QEMU virt's own DTB, as a file for the image (the D1 path of boot.scr)."""
    dtb = tmp_path / "virt.dtb"
    subprocess.run([duplex_qemu.QEMU_BINARY, "-M", f"virt,dumpdtb={dtb}", "-m", "256M",
                    "-smp", str(smp), "-nographic"], check=True, capture_output=True)
    return dtb


def test_boot_script_checks_the_image_against_fdt_addr_r(image, uboot, tmp_path,
                                                         guest_factory):
    # The D1 path (a DTB file on the card) under U-Boot's own addresses: with QEMU's
    # kernel_addr_r and fdt_addr_r far apart the script passes its check and boots; with
    # fdt_addr_r set 1 MiB above kernel_addr_r (an Image of several MiB reaches it) it
    # refuses, naming the sizes, before the tree's load could overwrite the Image.
    disk = make_disk(image, tmp_path, 'init=/bin/sh -- -c "exit 7"', "--dtb",
                     str(_qemu_tree(tmp_path, 1)))
    guest = guest_factory(uboot, smp=1, drive=disk, interactive=False).start()
    assert guest.wait_exit(timeout=TIMEOUT) == 7
    assert "Duplex: loading virt.dtb" in guest.text
    assert "not booting" not in guest.text

    guest = guest_factory(uboot, smp=1, drive=disk).start()
    guest.wait_for(r"Hit any key to stop autoboot", timeout=TIMEOUT)
    guest.send("\n")
    guest.wait_for(r"=> ", timeout=30)
    guest.send("printenv kernel_addr_r\n")
    # Up to the line's end: a match on the bytes read so far took 'kernel_addr_r=0x8' for
    # the address under two workers, and the test then typed 0x100008 for fdt_addr_r.
    kernel_addr = int(guest.wait_for(r"kernel_addr_r=(0x[0-9a-f]+)\r?\n",
                                     timeout=30).group(1), 16)
    fdt_addr = kernel_addr + (1 << 20)
    guest.send(f"setenv fdt_addr_r {fdt_addr:#x}; boot\n")
    refusal = guest.wait_for(
        r"Duplex: the Image is 0x([0-9a-f]+) bytes: loaded at kernel_addr_r (0x[0-9a-f]+) "
        r"it ends at 0x([0-9a-f]+), past fdt_addr_r (0x[0-9a-f]+), so loading virt.dtb "
        r"would overwrite its tail; not booting", timeout=TIMEOUT)
    size = Path(image).stat().st_size
    assert int(refusal.group(1), 16) == size
    assert int(refusal.group(2), 16) == kernel_addr
    assert int(refusal.group(3), 16) == kernel_addr + size
    assert int(refusal.group(4), 16) == fdt_addr
    guest.wait_for(r"=> |Retrieving file|BOOTP", timeout=TIMEOUT)
    assert "Duplex: loading virt.dtb" not in guest.text
    assert "Starting kernel" not in guest.text


def test_make_run_uboot(uboot):
    # The user's command, end to end (it builds build/qemu-virt/duplex-sd.img). Its own
    # session, so that a hang can kill make and the QEMU it started together.
    process = subprocess.Popen(
        ["make", "--no-print-directory", "run-uboot", "SMP=1", 'INIT=sh -c "exit 5"'],
        cwd=REPO_ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, _ = process.communicate()
        pytest.fail(f"make run-uboot did not finish within {TIMEOUT} s\n"
                    f"{stdout.decode(errors='replace')[-2000:]}", pytrace=False)
    output = stdout.decode(errors="replace")
    assert "Duplex booting on hart" in output, output[-3000:]
    assert "/bin/sh exited with status 5; powering off" in output
    # make reports QEMU's exit status, the shell's 5, as a failed recipe.
    assert process.returncode != 0
    assert "Error 5" in stderr.decode(errors="replace")
