"""The Lichee RV's first boot on its stock firmware, in QEMU (issue #27).

The board's stock chain (Sipeed's Tina image: OpenSBI v0.6, Allwinner's U-Boot 2018.05)
boots an Android boot image from the `boot` partition with `bootm`, and U-Boot gives the
kernel Tina's bootargs (env.cfg `setargs_mmc`: a Linux `console=ttyS0,115200`,
`init=/pseudo_init`, partitions, MAC addresses ...) followed by the image's own command
line (U-Boot common/image-android.c). Duplex keeps the last `init=`, as Linux's
init_setup does, and `make image FORMAT=android` writes `init=/bin/sh` into the image's
command line (boards/boards.mk), so that chain reaches Duplex's shell instead of
"cannot start /pseudo_init".

These boots take the command line from the image `make image BOARD=lichee-rv-d1
FORMAT=android` really writes (its header), put Tina's bootargs before it, as the stock
U-Boot does, and boot: the qemu-virt kernel, and the D1 kernel on QEMU 10's T-Head C906
model (tools/qemu-backports.sh), where the board check then runs from the shell.
"""

import re
import struct
import subprocess
from pathlib import Path

import pytest

import duplex_qemu

REPO_ROOT = Path(__file__).resolve().parent.parent
ANDROID_IMAGE = REPO_ROOT / "build" / "lichee-rv-d1" / "duplex-boot.img"
D1_IMAGE = REPO_ROOT / "build" / "lichee-rv-d1" / "Image"
# AOSP boot image header v0 (system/tools/mkbootimg, include/bootimg/bootimg.h).
ANDROID_HEADER = struct.Struct("<8s10I16s512s")
PROMPT = rb"\$ "
TIMEOUT = 120

# Tina's bootargs as its env.cfg's setargs_mmc builds them on the D1 (earlyprintk on
# UART0, the Linux console, Tina's first program, the SD partitions, empty MAC fields).
TINA_BOOTARGS = (
    "earlyprintk=sunxi-uart,0x02500000 clk_ignore_unused initcall_debug=0 "
    "console=ttyS0,115200 loglevel=8 root=/dev/mmcblk0p5 init=/pseudo_init "
    "partitions=boot-resource@mmcblk0p1:env@mmcblk0p2:env-redund@mmcblk0p3:boot@mmcblk0p4:"
    "rootfs@mmcblk0p5:dsp0@mmcblk0p6:recovery@mmcblk0p7:UDISK@mmcblk0p8 "
    "cma=8M snum= mac_addr= wifi_mac= bt_mac= specialstr= gpt=1")


@pytest.fixture(scope="module")
def image_cmdline():
    """The command line in the header of the Android image `make image` writes."""
    result = subprocess.run(["make", "--no-print-directory", "-j2", "BOARD=lichee-rv-d1",
                             "FORMAT=android", "image"], cwd=REPO_ROOT, capture_output=True,
                            text=True)
    if result.returncode != 0:
        pytest.fail(f"make image FORMAT=android failed:\n{result.stderr[-3000:]}",
                    pytrace=False)
    fields = ANDROID_HEADER.unpack_from(ANDROID_IMAGE.read_bytes())
    assert fields[0] == b"ANDROID!"
    return fields[-1].rstrip(b"\0").decode()


def stock_command_line(image_cmdline):
    """What the stock U-Boot hands the kernel: its bootargs, a space, the image's."""
    return f"{TINA_BOOTARGS} {image_cmdline}"


def reach_the_shell(guest):
    guest.wait_for("Duplex \u2014 type help", timeout=TIMEOUT)
    guest.wait_for(PROMPT, timeout=30)
    guest.send("echo stock chain\n")
    guest.wait_for(rb"\nstock chain\r\n", timeout=30)
    guest.wait_for(PROMPT, timeout=30)


def test_image_cmdline_names_duplex_programs(image_cmdline):
    assert re.search(r"(^| )console=async( |$)", image_cmdline), image_cmdline
    assert re.search(r"(^| )init=/bin/sh( |$)", image_cmdline), image_cmdline


def test_stock_chain_reaches_the_shell(image, guest_factory, image_cmdline):
    guest = guest_factory(image, smp=1, append=stock_command_line(image_cmdline)).start()
    reach_the_shell(guest)
    text = guest.text
    # Tina's words are all there, and the last console= and init= won.
    assert "init=/pseudo_init" in text
    assert "cannot start /pseudo_init" not in text
    assert re.search(r"program archive: \d+ entries, \d+ bytes; starting /bin/sh", text), text
    assert "console: async" in text
    # Tina's Linux parameters are reported once as unknown, not as errors.
    assert re.search(r'Unknown kernel command line parameters "earlyprintk=sunxi-uart,'
                     r'0x02500000 clk_ignore_unused', text), text
    assert "bad word" not in text


def test_stock_chain_on_the_c906_runs_the_board_check(backports, guest_factory, image_cmdline):
    # The D1 kernel, built by the image fixture, on one C906 hart with the stock chain's
    # command line and the stock OpenSBI's subset (sbi=0.2): it reaches the shell, and
    # the board check runs from it.
    append = stock_command_line(image_cmdline) + " sbi=0.2"
    guest = guest_factory(D1_IMAGE, smp=1, append=append, extra=["-cpu", "thead-c906"],
                          qemu=backports.qemu, bios=backports.firmware).start()
    reach_the_shell(guest)
    assert re.search(r"boot: T-Head build: th\.sxstatus 0x[0-9a-f]+: MAEE off", guest.text)
    guest.send("boardcheck 60\n")
    guest.wait_for(r"BOARDCHECK rx-echo: type duplex and press Enter", timeout=TIMEOUT)
    guest.send("duplex\r")
    guest.wait_for(r"BOARDCHECK done passed=\d+ failed=\d+", timeout=TIMEOUT)
    text = guest.text
    assert "BOARDCHECK bench PASS" in text
    assert 'BOARDCHECK rx-echo PASS (received "duplex")' in text
    assert "BOARDCHECK done passed=3 failed=0" in text
    assert "watchdog: none in the device tree" in text
