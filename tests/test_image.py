"""Tests of the SD-card image builder (tools/mkimage-sd.py) and `make image`.

Images are built in tmp_path from a fake bootloader blob and a fake kernel, then taken
apart with the same tools a user has: the MBR is parsed here, the FAT partition is read
with mtools (`mcopy -i image@@offset`), boot.scr is checked with `mkimage -l`. No QEMU.
"""

import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent

# These tests build and write build/lichee-rv-d1/ (make BOARD=lichee-rv-d1, its Android and
# SD images with different command lines): one pytest-xdist worker runs them all.
pytestmark = pytest.mark.xdist_group("lichee-rv-d1")
TOOL = REPO_ROOT / "tools" / "mkimage-sd.py"
BOOT_CMD = REPO_ROOT / "boards" / "lichee-rv-d1" / "boot.cmd"
D1_DTS = REPO_ROOT / "boards" / "lichee-rv-d1" / "lichee-rv-d1.dts"

SECTOR = 512
BOOTLOADER_OFFSET = 8 * 1024  # sector 16: where the D1 boot ROM looks for the SPL
PARTITION_START = 2 * 1024 * 1024  # the tool's default
MBR_ENTRIES = 446  # offset of the four 16-byte partition entries
MBR_SIGNATURE = 510

MTOOLS_ENV = dict(os.environ, MTOOLS_SKIP_CHECK="1")


def fake_bootloader(path, size):
    """A blob shaped like a sunxi SPL (jump, "eGON.BT0"), then a recognisable pattern."""
    header = b"\x00\x00\x00\x14eGON.BT0"
    body = bytes((i * 7 + 3) & 0xFF for i in range(max(0, size - len(header))))
    path.write_bytes((header + body)[:size])
    return path


@pytest.fixture
def inputs(tmp_path):
    """A fake kernel Image, the real D1 DTB (compiled here) and a fake 600 KiB bootloader."""
    kernel = tmp_path / "Image"
    kernel.write_bytes(b"RISCV-IMAGE" + bytes(range(256)) * 1000)
    dtb = tmp_path / "lichee-rv-d1.dtb"
    subprocess.run(["dtc", "-I", "dts", "-O", "dtb", "-o", str(dtb), str(D1_DTS)], check=True)
    bootloader = fake_bootloader(tmp_path / "u-boot-sunxi-with-spl.bin", 600 * 1024)
    return {"kernel": kernel, "dtb": dtb, "bootloader": bootloader, "dir": tmp_path}


def build(inputs, *extra, bootloader="default", dtb=True, bootargs="console=async"):
    """Run the tool; returns (CompletedProcess, output image path)."""
    output = inputs["dir"] / "out" / "duplex-sd.img"
    command = [sys.executable, str(TOOL), "--kernel", str(inputs["kernel"]),
               "--boot-cmd", str(BOOT_CMD), "--bootargs", bootargs, "--output", str(output)]
    if dtb:
        command += ["--dtb", str(inputs["dtb"])]
    if bootloader == "default":
        bootloader = inputs["bootloader"]
    if bootloader is not None:
        command += ["--bootloader", str(bootloader)]
    command += list(extra)
    result = subprocess.run(command, capture_output=True, text=True)
    return result, output


def partitions(image_bytes):
    """The MBR's non-empty entries as (bootable, type, start_sector, sectors)."""
    assert image_bytes[MBR_SIGNATURE:MBR_SIGNATURE + 2] == b"\x55\xaa"
    entries = []
    for i in range(4):
        entry = image_bytes[MBR_ENTRIES + 16 * i:MBR_ENTRIES + 16 * (i + 1)]
        status, kind, start, sectors = entry[0], entry[4], *struct.unpack("<II", entry[8:16])
        if kind:
            entries.append((status == 0x80, kind, start, sectors))
    return entries


def fat_files(image, offset):
    """Names in the FAT root directory (`mdir -b`), upper-cased as FAT compares them."""
    listing = subprocess.run(["mdir", "-b", "-i", f"{image}@@{offset}", "::"],
                             capture_output=True, text=True, env=MTOOLS_ENV, check=True).stdout
    return {line.strip().lstrip(":/").upper() for line in listing.splitlines() if line.strip()}


def fat_read(image, offset, name, tmp_path):
    """A file's bytes out of the FAT partition (`mcopy`)."""
    target = tmp_path / f"extracted-{name}"
    subprocess.run(["mcopy", "-n", "-i", f"{image}@@{offset}", f"::{name}", str(target)],
                   check=True, env=MTOOLS_ENV, capture_output=True)
    return target.read_bytes()


# -- the layout ---------------------------------------------------------------------------

def test_d1_image_layout(inputs, tmp_path):
    result, image = build(inputs, "--need-bootloader")
    assert result.returncode == 0, result.stderr
    data = image.read_bytes()

    # MBR: one bootable FAT16 (LBA) partition at 2 MiB, running to the end of the image.
    (bootable, kind, start, sectors), = partitions(data)
    assert bootable and kind == 0x0E
    assert start * SECTOR == PARTITION_START
    assert (start + sectors) * SECTOR == len(data)
    # The bootloader, byte for byte, at 8 KiB; nothing else between MBR and it.
    blob = inputs["bootloader"].read_bytes()
    assert data[BOOTLOADER_OFFSET:BOOTLOADER_OFFSET + len(blob)] == blob
    assert data[SECTOR:BOOTLOADER_OFFSET] == bytes(BOOTLOADER_OFFSET - SECTOR)
    assert BOOTLOADER_OFFSET + len(blob) <= PARTITION_START

    # The partition holds Image, the DTB and boot.scr, identical to their sources.
    assert fat_files(image, PARTITION_START) == {"IMAGE", "LICHEE-RV-D1.DTB", "BOOT.SCR"}
    assert fat_read(image, PARTITION_START, "Image", tmp_path) == inputs["kernel"].read_bytes()
    assert (fat_read(image, PARTITION_START, "lichee-rv-d1.dtb", tmp_path)
            == inputs["dtb"].read_bytes())

    # boot.scr is a valid U-Boot script image carrying our bootargs and the DTB name.
    script = tmp_path / "boot.scr"
    script.write_bytes(fat_read(image, PARTITION_START, "boot.scr", tmp_path))
    listing = subprocess.run(["mkimage", "-l", str(script)], capture_output=True, text=True,
                             check=True).stdout
    assert "Script" in listing and "RISC-V" in listing, listing
    text = script.read_bytes()
    assert b"setenv bootargs 'console=async'" in text
    assert b'setenv duplex_dtb "lichee-rv-d1.dtb"' in text
    assert b"booti ${kernel_addr_r} - ${duplex_fdt}" in text
    assert b"@BOOTARGS@" not in text and b"@DTB_FILE@" not in text
    assert b"@WATCHDOG_MODE@" not in text


def test_d1_script_stops_both_watchdogs_before_booti(inputs, tmp_path):
    # The D1 U-Boot leaves its watchdog running (16 s); boot.scr stops it, and the timer
    # block's (0x020500a0, MODE at +0x18) in case a U-Boot started that one, with the key
    # write before booti; the kernel's driver stops the first again. Only when asked:
    # qemu-virt has no such registers.
    result, image = build(inputs, "--stop-watchdog", "0x06011018",
                          "--stop-watchdog", "0x020500b8")
    assert result.returncode == 0, result.stderr
    text = fat_read(image, PARTITION_START, "boot.scr", tmp_path)
    assert b'setenv duplex_watchdog_modes "0x06011018 0x020500b8"' in text
    loop = text.index(b"for duplex_mode in ${duplex_watchdog_modes}; do")
    stop = text.index(b"mw.l ${duplex_mode} 0x16aa0000")
    assert loop < stop < text.index(b"booti ${kernel_addr_r}")
    result, image = build(inputs)
    text = fat_read(image, PARTITION_START, "boot.scr", tmp_path)
    assert b'setenv duplex_watchdog_modes ""' in text
    result, _ = build(inputs, "--stop-watchdog", "0x06011018", "--stop-watchdog", "6011018")
    assert result.returncode == 1 and "hex register address" in result.stderr


# -- the load layout (--kernel-addr-r, --fdt-addr-r, --dram-base) -------------------------
D1_LAYOUT = ("--kernel-addr-r", "0x41000000", "--fdt-addr-r", "0x41800000",
             "--dram-base", "0x40000000")


def riscv_image(path, file_size, image_size, text_offset=0x200000):
    """A file with a Linux RISC-V Image header (the fields booti reads) and padding."""
    header = bytearray(64)
    struct.pack_into("<QQ", header, 8, text_offset, image_size)
    header[0x38:0x3C] = b"RSC\x05"
    path.write_bytes(bytes(header) + bytes(file_size - 64))
    return path


def test_layout_that_just_fits(inputs, tmp_path):
    # 8 MiB between kernel_addr_r and fdt_addr_r: an Image of exactly 8 MiB fits; the
    # running kernel (9 MiB from 0x40200000) leaves 22 - 9 = 13 MiB before the tree.
    riscv_image(inputs["kernel"], 8 << 20, 9 << 20)
    result, _ = build(inputs, *D1_LAYOUT)
    assert result.returncode == 0, result.stderr
    assert "0 KiB between the loaded Image's end and fdt_addr_r" in result.stderr
    assert "13312 KiB between the running kernel's end and fdt_addr_r" in result.stderr


def test_oversized_image_is_refused_naming_the_sizes(inputs, tmp_path):
    # One byte more and the tree, loaded second, would overwrite the Image's tail.
    riscv_image(inputs["kernel"], (8 << 20) + 1, 9 << 20)
    result, image = build(inputs, *D1_LAYOUT)
    assert result.returncode == 1
    dtb_size = inputs["dtb"].stat().st_size
    assert (f"the Image is {(8 << 20) + 1} bytes (8.00 MiB): loaded at kernel_addr_r "
            f"0x41000000 it ends at 0x41800001, but boot.scr loads lichee-rv-d1.dtb "
            f"({dtb_size} bytes) at fdt_addr_r 0x41800000, 1 bytes inside it") in result.stderr
    assert f"{8 << 20} bytes fit there" in result.stderr
    assert not image.exists()


def test_kernel_whose_bss_reaches_the_tree_is_refused(inputs, tmp_path):
    # booti moves the Image to 0x40200000; with its bss it may not reach fdt_addr_r.
    riscv_image(inputs["kernel"], 1 << 20, (22 << 20) + 4096)
    result, _ = build(inputs, *D1_LAYOUT)
    assert result.returncode == 1
    assert (f"the kernel needs {(22 << 20) + 4096} bytes (22.00 MiB, bss included) from "
            f"0x40200000, where booti moves it (DRAM base 0x40000000 + text_offset "
            f"0x200000), up to 0x41801000") in result.stderr


def test_layout_check_needs_a_riscv_image(inputs):
    result, _ = build(inputs, *D1_LAYOUT)  # the fixture's kernel has no header
    assert result.returncode == 1
    assert "is not a RISC-V Image (no RSC\\x05 magic at 0x38)" in result.stderr
    result, _ = build(inputs, "--kernel-addr-r", "0x41000000")
    assert result.returncode == 1 and "go together" in result.stderr


def test_qemu_image_has_no_bootloader_and_no_dtb(inputs, tmp_path):
    # What `make run-uboot` builds: U-Boot comes from QEMU's -kernel, the tree from QEMU.
    result, image = build(inputs, bootloader=None, dtb=False,
                          bootargs='init=/bin/sh -- -c "exit 7"')
    assert result.returncode == 0, result.stderr
    data = image.read_bytes()
    (_, _, start, _), = partitions(data)
    assert start * SECTOR == PARTITION_START
    assert data[SECTOR:PARTITION_START] == bytes(PARTITION_START - SECTOR)
    assert fat_files(image, PARTITION_START) == {"IMAGE", "BOOT.SCR"}
    text = fat_read(image, PARTITION_START, "boot.scr", tmp_path)
    assert b'setenv duplex_dtb ""' in text  # so boot.scr passes ${fdtcontroladdr}
    assert b"""setenv bootargs 'init=/bin/sh -- -c "exit 7"'""" in text


def test_bootloader_that_just_fits(inputs, tmp_path):
    blob = fake_bootloader(tmp_path / "exact.bin", PARTITION_START - BOOTLOADER_OFFSET)
    result, image = build(inputs, bootloader=blob)
    assert result.returncode == 0, result.stderr
    data = image.read_bytes()
    assert data[BOOTLOADER_OFFSET:PARTITION_START] == blob.read_bytes()
    assert fat_files(image, PARTITION_START) == {"IMAGE", "LICHEE-RV-D1.DTB", "BOOT.SCR"}


def test_larger_partition_start(inputs):
    result, image = build(inputs, "--partition-start", str(4 * 1024 * 1024))
    assert result.returncode == 0, result.stderr
    (_, _, start, _), = partitions(image.read_bytes())
    assert start * SECTOR == 4 * 1024 * 1024
    assert "IMAGE" in fat_files(image, 4 * 1024 * 1024)


def test_same_inputs_same_image(inputs):
    first = build(inputs)[1].read_bytes()
    second = build(inputs)[1].read_bytes()
    assert first == second


# -- errors -------------------------------------------------------------------------------

def expect_error(result, image, *phrases):
    assert result.returncode == 1
    message = result.stderr
    assert message.startswith("mkimage-sd: error:"), message
    for phrase in phrases:
        assert phrase in message, message
    assert not image.exists()
    assert not image.with_name(image.name + ".tmp").exists()


def test_missing_bootloader(inputs, tmp_path):
    missing = tmp_path / "no-such-u-boot.bin"
    expect_error(*build(inputs, bootloader=missing), "bootloader", str(missing), "not found")


def test_empty_bootloader(inputs, tmp_path):
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    expect_error(*build(inputs, bootloader=empty), "bootloader", "is empty")


def test_oversized_bootloader(inputs, tmp_path):
    size = PARTITION_START - BOOTLOADER_OFFSET + 1
    big = fake_bootloader(tmp_path / "big.bin", size)
    expect_error(*build(inputs, bootloader=big), f"{size} bytes", "overlapping the FAT partition",
                 f"at most {size - 1} bytes fit")


def test_bootloader_required_but_not_given(inputs):
    expect_error(*build(inputs, "--need-bootloader", bootloader=None), "BOOTLOADER=",
                 "docs/boards/lichee-rv-d1.md")


def test_partition_over_the_bootloader_region(inputs):
    expect_error(*build(inputs, "--partition-start", "4096"), "partition start 4096")


def test_missing_kernel(inputs):
    inputs["kernel"].unlink()
    expect_error(*build(inputs), "kernel Image", "not found")


def test_bootargs_with_single_quote(inputs):
    expect_error(*build(inputs, bootargs="init=/bin/sh -- -c 'exit 1'"), "single quote")


def test_blob_without_spl_header_is_only_a_warning(inputs, tmp_path):
    blob = tmp_path / "raw.bin"
    blob.write_bytes(b"\xff" * 4096)
    result, image = build(inputs, bootloader=blob)
    assert result.returncode == 0, result.stderr
    assert "warning" in result.stderr and "eGON.BT0" in result.stderr
    assert image.read_bytes()[BOOTLOADER_OFFSET:BOOTLOADER_OFFSET + 4096] == b"\xff" * 4096


# -- through make ---------------------------------------------------------------------------

def make(*args):
    return subprocess.run(["make", "--no-print-directory", *args], cwd=REPO_ROOT,
                          capture_output=True, text=True)


def test_make_image_for_the_d1(tmp_path):
    blob = fake_bootloader(tmp_path / "u-boot-sunxi-with-spl.bin", 300 * 1024)
    result = make("image", "BOARD=lichee-rv-d1", f"BOOTLOADER={blob}", 'INIT=bench --quick')
    assert result.returncode == 0, result.stdout + result.stderr
    image = REPO_ROOT / "build" / "lichee-rv-d1" / "duplex-sd.img"
    data = image.read_bytes()
    assert data[BOOTLOADER_OFFSET:BOOTLOADER_OFFSET + len(blob.read_bytes())] == blob.read_bytes()
    assert fat_files(image, PARTITION_START) == {"IMAGE", "LICHEE-RV-D1.DTB", "BOOT.SCR"}
    built_kernel = (REPO_ROOT / "build" / "lichee-rv-d1" / "Image").read_bytes()
    assert fat_read(image, PARTITION_START, "Image", tmp_path) == built_kernel
    assert b"RSC\x05" == built_kernel[0x38:0x3C]  # what booti checks
    script = fat_read(image, PARTITION_START, "boot.scr", tmp_path)
    assert b"setenv bootargs 'init=/bin/bench -- --quick'" in script
    # Both watchdogs (board.mk), and the layout was checked at the fork's addresses.
    assert b'setenv duplex_watchdog_modes "0x06011018 0x020500b8"' in script
    margin = re.search(r"layout: Image (\d+) bytes at 0x41000000, lichee-rv-d1.dtb \d+ "
                       r"bytes at 0x41800000, kernel (\d+) bytes at 0x40200000; (\d+) KiB "
                       r"between the loaded Image's end", result.stderr)
    assert margin, result.stderr
    assert int(margin.group(1)) == len(built_kernel)
    assert int(margin.group(3)) == ((8 << 20) - len(built_kernel)) // 1024


def test_make_image_for_the_d1_needs_a_bootloader():
    result = make("image", "BOARD=lichee-rv-d1", "BOOTLOADER=")
    assert result.returncode != 0
    assert "BOOTLOADER=path/to/u-boot-sunxi-with-spl.bin" in result.stderr


def test_make_run_refuses_the_d1():
    result = make("run", "BOARD=lichee-rv-d1")
    assert result.returncode != 0
    assert "board lichee-rv-d1 cannot run in QEMU" in result.stderr
    assert "make image BOARD=lichee-rv-d1" in result.stderr


# -- the stock-firmware path: an Android boot image -----------------------------------------

# AOSP boot image header v0 (system/tools/mkbootimg, include/bootimg/bootimg.h: struct
# boot_img_hdr_v0): magic[8], then u32 kernel_size, kernel_addr, ramdisk_size,
# ramdisk_addr, second_size, second_addr, tags_addr, page_size, header_version,
# os_version, then name[16] and cmdline[512].
ANDROID_HEADER = struct.Struct("<8s10I16s512s")


def test_make_android_boot_image_for_the_d1():
    result = make("image", "BOARD=lichee-rv-d1", "FORMAT=android", 'INIT=bench --quick')
    assert result.returncode == 0, result.stdout + result.stderr
    data = (REPO_ROOT / "build" / "lichee-rv-d1" / "duplex-boot.img").read_bytes()
    (magic, kernel_size, kernel_addr, ramdisk_size, ramdisk_addr, second_size, second_addr,
     tags_addr, page_size, header_version, os_version, name, cmdline) = \
        ANDROID_HEADER.unpack_from(data)
    assert magic == b"ANDROID!"
    assert kernel_addr == 0x40200000  # where the stock U-Boot puts and enters the kernel
    assert page_size == 2048
    assert header_version == 0
    assert tags_addr == 0x40200100
    assert name.rstrip(b"\0") == b"d1-nezha"
    assert (ramdisk_size, second_size) == (0, 0)
    # No ramdisk, no second stage: mkbootimg writes their addresses as 0 (AOSP mkbootimg),
    # as docs/boards/lichee-rv-d1.md and board.mk say, not the stock 0x41200000/0x41100000.
    assert (ramdisk_addr, second_addr) == (0, 0)
    assert os_version == 0
    # Duplex's console= and init= come after the firmware's own bootargs, so they win
    # there; INIT's init= comes after the default /bin/sh.
    assert cmdline.rstrip(b"\0") == b"console=async init=/bin/sh init=/bin/bench -- --quick"
    # The kernel is the Image, from the second page on, padded to a whole page.
    built_kernel = (REPO_ROOT / "build" / "lichee-rv-d1" / "Image").read_bytes()
    assert kernel_size == len(built_kernel)
    assert data[page_size:page_size + kernel_size] == built_kernel
    assert len(data) == page_size * (1 + -(-kernel_size // page_size))


def test_android_image_for_the_board_check():
    # `boardcheck` starts /bin/boardcheck only without an init=; the image always carries
    # one (it must beat Tina's), so for the board check it names /bin/boardcheck.
    result = make("image", "BOARD=lichee-rv-d1", "FORMAT=android", "CMDLINE=boardcheck")
    assert result.returncode == 0, result.stdout + result.stderr
    data = (REPO_ROOT / "build" / "lichee-rv-d1" / "duplex-boot.img").read_bytes()
    cmdline = ANDROID_HEADER.unpack_from(data)[-1].rstrip(b"\0")
    assert cmdline == b"console=async init=/bin/boardcheck boardcheck"


def test_android_image_needs_the_board_settings():
    result = make("image", "BOARD=qemu-virt", "FORMAT=android")
    assert result.returncode != 0
    assert "board qemu-virt has no ANDROID_* settings" in result.stderr


def test_unknown_image_format():
    result = make("image", "BOARD=lichee-rv-d1", "FORMAT=uimage")
    assert result.returncode != 0
    assert "FORMAT=uimage unknown" in result.stderr
