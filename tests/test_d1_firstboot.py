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

Also the two other first-boot faults as far as QEMU can show them: the watchdog driver
inside the kernel (a watchdog node over spare RAM, preloaded as U-Boot leaves it), and
the UART interrupt given only as `interrupts-extended`, as Tina's tree gives it.
"""

import re
import struct
import subprocess
from pathlib import Path

import pytest

import duplex_qemu

REPO_ROOT = Path(__file__).resolve().parent.parent

# These tests build and write build/lichee-rv-d1/ (make BOARD=lichee-rv-d1, its Android and
# SD images with different command lines): one pytest-xdist worker runs them all.
pytestmark = pytest.mark.xdist_group("lichee-rv-d1")
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


def test_an_init_that_cannot_be_found_falls_back_to_the_shell(image, guest_factory):
    # Tina's bootargs alone (an Android image without init=, or another vendor U-Boot
    # that puts its own words last): /pseudo_init is not in Duplex's archive. The kernel
    # says so, with why, and starts the shell instead of powering off: on the stock
    # firmware power-off leaves the board on and silent.
    guest = guest_factory(image, smp=1, append=TINA_BOOTARGS).start()
    reach_the_shell(guest)
    text = guest.text
    assert ("cannot start /pseudo_init: no such program in the program archive (error 2); "
            "starting /bin/sh instead") in text
    assert "powering off" not in text
    guest.send("exit 3\n")
    assert guest.wait_exit(timeout=TIMEOUT) == 3
    assert "/bin/sh exited with status 3; powering off" in guest.text


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
    # No Sstc on the C906: the SBI timer, checked (timer_choice.c) and taken.
    assert "timer: sstc: not every hart has Sstc" in text
    assert "BOARDCHECK timer PASS (timer: SBI set_timer, timebase 10000000 Hz)" in text
    assert "BOARDCHECK plic PASS (plic: " in text
    assert "BOARDCHECK done passed=5 failed=0" in text
    assert "watchdog: none in the device tree" in text


# -- the watchdog driver inside the kernel -----------------------------------------------
# QEMU has no D1 watchdog, so these boots give QEMU virt's own tree a watchdog node whose
# registers are the last MiB of RAM, taken out of the memory node (so the kernel never
# allocates it); QEMU's loader device puts 0xb1 in its MODE register first, as the D1
# U-Boot leaves it (enabled, 16 s). RAM is not the watchdog: what this shows is the
# kernel's side (the driver table binds the node, the probe maps it, reads MODE, writes
# the keyed stop or starts the feeder timer, logs), while the register behaviour is the
# host model's (tests/host/test_watchdog.c).
FAKE_WATCHDOG = 0x8FF00000
FAKE_WATCHDOG_NODE = f"/soc/watchdog@{FAKE_WATCHDOG:x}"


def tree_with_a_watchdog(tmp_path, status=None):
    dtb = tmp_path / "virt-watchdog.dtb"
    subprocess.run([duplex_qemu.QEMU_BINARY, "-M", f"virt,dumpdtb={dtb}", "-m", "256M",
                    "-smp", "1", "-nographic"], check=True, capture_output=True)
    for command in (["-t", "x", str(dtb), "/memory@80000000", "reg", "0", "0x80000000", "0",
                     "0x0ff00000"],
                    ["-c", str(dtb), FAKE_WATCHDOG_NODE],
                    ["-t", "s", str(dtb), FAKE_WATCHDOG_NODE, "compatible",
                     "allwinner,sun20i-d1-wdt"],
                    ["-t", "x", str(dtb), FAKE_WATCHDOG_NODE, "reg", "0",
                     hex(FAKE_WATCHDOG), "0", "0x20"]):
        subprocess.run(["fdtput", *command], check=True)
    if status:
        subprocess.run(["fdtput", "-t", "s", str(dtb), FAKE_WATCHDOG_NODE, "status", status],
                       check=True)
    return dtb


def boot_with_a_watchdog(image, request, tmp_path, append, status=None, mode=0xb1):
    name = duplex_qemu.sanitize_name(request.node.name)
    extra = ["-dtb", tree_with_a_watchdog(tmp_path, status),
             "-device", f"loader,addr={FAKE_WATCHDOG + 0x18:#x},data={mode:#x},data-len=4"]
    return duplex_qemu.run_to_exit(image, append=append, smp=1, icount=True, timeout=TIMEOUT,
                                   name=name, extra=extra)


def test_kernel_stops_the_watchdog(image, request, tmp_path):
    status, text = boot_with_a_watchdog(image, request, tmp_path,
                                        'init=/bin/sh -- -c "exit 3"')
    assert (f"watchdog: allwinner,sun20i-d1-wdt at {FAKE_WATCHDOG:#x}: firmware left it "
            "running, 16.0 s (MODE 0xb1); stopped (watchdog=stop)") in text, text[-3000:]
    assert "/bin/sh exited with status 3" in text
    assert status == 3


def test_kernel_feeds_the_watchdog(image, request, tmp_path):
    # Fed every 4 s from a kernel timer while a program sleeps 10 s: the feeder runs in
    # the timer interrupt at least twice, and the boot goes on to the program's end.
    status, text = boot_with_a_watchdog(image, request, tmp_path,
                                        "watchdog=feed init=/bin/sleep -- 10")
    assert (f"watchdog: allwinner,sun20i-d1-wdt at {FAKE_WATCHDOG:#x}: firmware left it "
            "running, 16.0 s (MODE 0xb1); running, 16 s, fed every 4000 ms "
            "(watchdog=feed)") in text, text[-3000:]
    assert "/bin/sleep exited with status 0" in text
    assert status == 0


def test_kernel_stops_a_reserved_watchdog_left_running(image, request, tmp_path):
    # The D1's timer-block watchdog is "reserved" (firmware's) in Linux's tree: the
    # kernel leaves it alone unless it runs, and then stops it whatever watchdog= says,
    # since it would reset the board; it is not counted as the kernel's.
    status, text = boot_with_a_watchdog(image, request, tmp_path,
                                        'watchdog=feed init=/bin/sh -- -c "exit 3"',
                                        status="reserved")
    assert (f"watchdog: allwinner,sun20i-d1-wdt at {FAKE_WATCHDOG:#x}: reserved for "
            "firmware, but left running, 16.0 s (MODE 0xb1); stopped, or the board would "
            "reset") in text, text[-3000:]
    assert "fed every" not in text
    assert "watchdog: none in the device tree" not in text
    assert status == 3


def test_kernel_leaves_a_stopped_reserved_watchdog_alone(image, request, tmp_path):
    status, text = boot_with_a_watchdog(image, request, tmp_path,
                                        'init=/bin/sh -- -c "exit 3"', status="reserved",
                                        mode=0xb0)
    assert (f"watchdog: allwinner,sun20i-d1-wdt at {FAKE_WATCHDOG:#x}: reserved for "
            "firmware, stopped (MODE 0xb0); left alone") in text, text[-3000:]
    assert "stopped (watchdog=stop)" not in text
    assert status == 3


# -- the UART interrupt as Tina gives it ----------------------------------------------------
# QEMU virt's own tree, with the UART's `interrupts` replaced by `interrupts-extended`
# naming the PLIC (Tina's form), or removed altogether.

def tree_with_uart_interrupt(tmp_path, extended):
    dtb = tmp_path / "virt-uart.dtb"
    subprocess.run([duplex_qemu.QEMU_BINARY, "-M", f"virt,dumpdtb={dtb}", "-m", "256M",
                    "-smp", "1", "-nographic"], check=True, capture_output=True)
    uart = "/soc/serial@10000000"
    irq = subprocess.run(["fdtget", str(dtb), uart, "interrupts"], check=True,
                         capture_output=True, text=True).stdout.split()
    nodes = subprocess.run(["fdtget", "-l", str(dtb), "/soc"], check=True,
                           capture_output=True, text=True).stdout.split()
    plic = next(node for node in nodes if node.startswith("plic@"))
    phandle = subprocess.run(["fdtget", str(dtb), f"/soc/{plic}", "phandle"], check=True,
                             capture_output=True, text=True).stdout.split()
    subprocess.run(["fdtput", "-d", str(dtb), uart, "interrupts"], check=True)
    if extended:
        subprocess.run(["fdtput", "-t", "u", str(dtb), uart, "interrupts-extended",
                        *phandle, *irq], check=True)
    return dtb


def test_uart_interrupt_from_interrupts_extended(image, request, tmp_path):
    # The async console runs on the interrupt found only in interrupts-extended: the TX
    # interrupt check passes on irq 10.
    name = duplex_qemu.sanitize_name(request.node.name)
    status, text = duplex_qemu.run_to_exit(
        image, append='init=/bin/sh -- -c "exit 4"', smp=1, icount=True, timeout=TIMEOUT,
        name=name, extra=["-dtb", tree_with_uart_interrupt(tmp_path, extended=True)])
    assert re.search(r"console: async,ring=\d+ \(TX interrupt refills up to 16 bytes, "
                     r"irq 10\)", text), text[-3000:]
    assert "console: TX interrupt check: PASS" in text
    assert status == 4


def test_uart_without_interrupt_says_why(image, request, tmp_path):
    # No interrupt at all: the async console says why it cannot run (not "bad options")
    # and the console falls back to polling; the program still runs.
    name = duplex_qemu.sanitize_name(request.node.name)
    status, text = duplex_qemu.run_to_exit(
        image, append='init=/bin/sh -- -c "exit 5"', smp=1, icount=True, timeout=TIMEOUT,
        name=name, extra=["-dtb", tree_with_uart_interrupt(tmp_path, extended=False)])
    assert ("console: async: the UART has no interrupt in the device tree (neither "
            "interrupts nor interrupts-extended)") in text, text[-3000:]
    assert "bad options" not in text
    assert "console: falling back to polling" in text
    assert "console: polling" in text
    assert status == 5
