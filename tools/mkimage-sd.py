#!/usr/bin/env python3
"""Build a bootable SD-card (or virtio disk) image for Duplex.

Used by `make image` and `make run-uboot` (boards/boards.mk) and by tests/test_image.py::

    python3 tools/mkimage-sd.py --kernel build/lichee-rv-d1/Image \\
        --dtb build/lichee-rv-d1/lichee-rv-d1.dtb \\
        --bootloader u-boot-sunxi-with-spl.bin --need-bootloader \\
        --boot-cmd boards/lichee-rv-d1/boot.cmd --bootargs "console=async" \\
        --output build/lichee-rv-d1/duplex-sd.img

The image, in 512-byte sectors:

    sector 0          MBR (DOS partition table) with one bootable FAT partition
    sector 16 (8 KiB) the bootloader blob, if given (the D1 boot ROM loads its SPL from
                      there; U-Boot doc/board/allwinner/sunxi.rst)
    PARTITION_START   the FAT partition: Image, the DTB (if given) and boot.scr

An MBR, not GPT: a GPT's partition entries fill sectors 2-33 and would overlap the
bootloader at sector 16. boot.scr is the template (--boot-cmd) with @BOOTARGS@,
@DTB_FILE@ and @WATCHDOG_MODE@ (--stop-watchdog, repeatable: the MODE register
addresses of the watchdogs the script stops before booti, space-separated, or empty)
filled in, compiled with `mkimage -T script`; U-Boot's distro boot finds it.

With --kernel-addr-r, --fdt-addr-r and --dram-base (the board's U-Boot environment),
the tool refuses an Image and tree that would overlap where boot.scr loads them or
where booti moves the Image, naming the sizes, and prints the margins.

Needs mkimage (Debian u-boot-tools), mkfs.vfat (dosfstools), mcopy (mtools) and sfdisk
(fdisk), all installed by tools/deps.sh. Nothing is downloaded. Python 3 stdlib only.
Exits 0 on success, 1 with a message naming the problem otherwise.
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

SECTOR = 512
# The D1 boot ROM reads the SPL from sector 16 (8 KiB) or sector 256 (128 KiB); 8 KiB is
# the one that coexists with an MBR (U-Boot doc/board/allwinner/sunxi.rst).
BOOTLOADER_OFFSET = 8 * 1024
# The FAT partition starts at 2 MiB: it leaves 2040 KiB for the bootloader (a D1
# u-boot-sunxi-with-spl.bin with OpenSBI is under 1 MiB) and is aligned for SD cards.
DEFAULT_PARTITION_START = 2 * 1024 * 1024
DEFAULT_FAT_SIZE_MIB = 32
# MBR partition type 0x0e, "W95 FAT16 (LBA)": mkfs.vfat makes FAT16 at these sizes.
PARTITION_TYPE = "e"
# Fixed identifiers so that the same inputs give the same image.
DISK_ID = "0x4475706c"  # "Dupl"
VOLUME_ID = "4475706c"
VOLUME_LABEL = "DUPLEX"
# File times in the FAT and mkimage's header time stamp: SOURCE_DATE_EPOCH if set (the
# reproducible-builds convention, which mkimage honours too), else 2000-01-01 (FAT
# cannot store times before 1980).
TIMESTAMP = int(os.environ.get("SOURCE_DATE_EPOCH", "946684800"))
# Every sunxi boot0/SPL image carries this magic 4 bytes in, after its first jump
# instruction (U-Boot include/sunxi_image.h, BOOT0_MAGIC).
SUNXI_SPL_MAGIC = b"eGON.BT0"
SUNXI_SPL_MAGIC_OFFSET = 4
RISCV_IMAGE_MAGIC2 = b"RSC\x05"

# Host tools and the Debian package that has each one.
TOOLS = {"mkimage": "u-boot-tools", "mkfs.vfat": "dosfstools", "mcopy": "mtools",
         "sfdisk": "fdisk"}


class ImageError(Exception):
    """An input or a tool problem; the message is shown to the user as is."""


def find_tool(name):
    """Path of a host tool; mkfs.vfat and sfdisk live in /usr/sbin, often not on PATH."""
    path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
    if path is None:
        raise ImageError(f"{name} not found: install Debian's {TOOLS[name]} (make deps)")
    return path


def run(command, **kwargs):
    """Run a tool; raise ImageError with its output if it fails."""
    environment = dict(os.environ, MTOOLS_SKIP_CHECK="1", SOURCE_DATE_EPOCH=str(TIMESTAMP))
    result = subprocess.run(command, capture_output=True, text=True, env=environment,
                            **kwargs)
    if result.returncode != 0:
        raise ImageError(f"{' '.join(map(str, command))} failed (status {result.returncode}):\n"
                         f"{(result.stdout + result.stderr).strip()}")
    return result.stdout


def check_input(path, what):
    """An input file must exist and not be empty. Returns its size."""
    if path is None:
        raise ImageError(f"no {what} given")
    path = Path(path)
    if not path.is_file():
        raise ImageError(f"{what} {path} not found")
    size = path.stat().st_size
    if size == 0:
        raise ImageError(f"{what} {path} is empty")
    return size


def check_bootloader(path, partition_start):
    """The bootloader must fit between 8 KiB and the FAT partition. Returns its bytes."""
    size = check_input(path, "bootloader")
    room = partition_start - BOOTLOADER_OFFSET
    if size > room:
        raise ImageError(
            f"bootloader {path} is {size} bytes: written at {BOOTLOADER_OFFSET} bytes (8 KiB) "
            f"it would end at {BOOTLOADER_OFFSET + size}, overlapping the FAT partition at "
            f"{partition_start} ({partition_start // 1024} KiB); at most {room} bytes fit. "
            f"A D1 u-boot-sunxi-with-spl.bin is under 1 MiB: is this the right file?")
    data = Path(path).read_bytes()
    magic = data[SUNXI_SPL_MAGIC_OFFSET:SUNXI_SPL_MAGIC_OFFSET + len(SUNXI_SPL_MAGIC)]
    if magic != SUNXI_SPL_MAGIC:
        print(f"mkimage-sd: warning: {path} has no sunxi SPL header ({SUNXI_SPL_MAGIC.decode()} "
              f"at byte {SUNXI_SPL_MAGIC_OFFSET}); the D1 boot ROM will not start it",
              file=sys.stderr)
    return data


def check_bootargs(text):
    """Check text for boot.cmd's single-quoted `setenv bootargs '...'`.

    U-Boot's hush takes everything between single quotes literally (no $ expansion), but
    keeps a backslash inside double quotes, so `\\"` cannot carry the double quotes the
    kernel command line uses for arguments with spaces. A single quote cannot be escaped
    at all: refuse it."""
    if "'" in text:
        raise ImageError(f"bootargs may not contain a single quote (U-Boot's hush cannot "
                         f"escape it): {text}")
    if "\n" in text:
        raise ImageError("bootargs may not contain a newline")
    return text


def check_register_address(text):
    """A hex address for `mw.l`, or empty."""
    if text and not (text.startswith("0x") and all(c in "0123456789abcdefABCDEF"
                                                   for c in text[2:]) and len(text) > 2):
        raise ImageError(f"--stop-watchdog wants a hex register address (0x...): {text}")
    return text


def parse_address(text, what):
    """A hex address (0x...) from the command line."""
    try:
        if not text.lower().startswith("0x"):
            raise ValueError
        return int(text, 16)
    except ValueError:
        raise ImageError(f"{what} wants a hex address (0x...): {text}") from None


def riscv_image_header(path):
    """(text_offset, image_size) from a Linux RISC-V Image header (Linux
    Documentation/arch/riscv/boot-image-header.rst: text_offset at 8, image_size, bss
    included, at 16, magic2 "RSC\\x05" at 0x38, which booti checks)."""
    header = Path(path).read_bytes()[:64]
    if len(header) < 64 or header[0x38:0x3C] != RISCV_IMAGE_MAGIC2:
        raise ImageError(f"kernel {path} is not a RISC-V Image (no RSC\\x05 magic at 0x38): "
                         f"booti would refuse it")
    text_offset, image_size = struct.unpack_from("<QQ", header, 8)
    return text_offset, image_size


def overlap(a_start, a_end, b_start, b_end):
    """Bytes two half-open ranges share."""
    return max(0, min(a_end, b_end) - max(a_start, b_start))


def check_load_layout(kernel, dtb, kernel_addr, fdt_addr, dram_base):
    """Refuse a kernel and tree that overlap at the addresses boot.cmd uses.

    boot.cmd loads the Image file to kernel_addr_r and the tree to fdt_addr_r, both from
    the board's U-Boot environment; booti then moves the Image to DRAM base + its
    text_offset, where it runs with its bss (U-Boot arch/riscv/lib/image.c,
    booti_setup). The tree must survive both: the Image's load must not reach it, nor
    the moved Image with its bss. Returns a line describing the margins."""
    text_offset, image_size = riscv_image_header(kernel)
    file_size = Path(kernel).stat().st_size
    dtb_size = Path(dtb).stat().st_size
    dtb_end = fdt_addr + dtb_size
    loaded_end = kernel_addr + file_size
    if overlap(kernel_addr, loaded_end, fdt_addr, dtb_end):
        room = fdt_addr - kernel_addr if fdt_addr > kernel_addr else 0
        raise ImageError(
            f"the Image is {file_size} bytes ({file_size / 2**20:.2f} MiB): loaded at "
            f"kernel_addr_r {kernel_addr:#x} it ends at {loaded_end:#x}, but boot.scr loads "
            f"{Path(dtb).name} ({dtb_size} bytes) at fdt_addr_r {fdt_addr:#x}, "
            f"{overlap(kernel_addr, loaded_end, fdt_addr, dtb_end)} bytes inside it: the "
            f"tree would overwrite the Image's tail. {room} bytes fit there; make the "
            f"Image smaller or give the board's U-Boot addresses further apart "
            f"(setenv fdt_addr_r, and --fdt-addr-r here)")
    run_start = dram_base + text_offset
    run_end = run_start + image_size
    if overlap(run_start, run_end, fdt_addr, dtb_end):
        raise ImageError(
            f"the kernel needs {image_size} bytes ({image_size / 2**20:.2f} MiB, bss "
            f"included) from {run_start:#x}, where booti moves it (DRAM base {dram_base:#x} "
            f"+ text_offset {text_offset:#x}), up to {run_end:#x}; {Path(dtb).name} "
            f"({dtb_size} bytes) at fdt_addr_r {fdt_addr:#x} lies inside that: the move "
            f"would overwrite the tree")
    margins = []
    if fdt_addr >= loaded_end:
        margins.append(f"{(fdt_addr - loaded_end) // 1024} KiB between the loaded Image's "
                       f"end and fdt_addr_r")
    if fdt_addr >= run_end:
        margins.append(f"{(fdt_addr - run_end) // 1024} KiB between the running kernel's "
                       f"end and fdt_addr_r")
    return (f"layout: Image {file_size} bytes at {kernel_addr:#x}, {Path(dtb).name} "
            f"{dtb_size} bytes at {fdt_addr:#x}, kernel {image_size} bytes at {run_start:#x}"
            + (f"; {', '.join(margins)}" if margins else ""))


def make_boot_script(template, bootargs, dtb_name, work, watchdog_mode=""):
    """Fill in the boot.cmd template and compile it to boot.scr. Returns its path."""
    text = Path(template).read_text()
    for field in ("@BOOTARGS@", "@DTB_FILE@", "@WATCHDOG_MODE@"):
        if field not in text:
            raise ImageError(f"boot script template {template} lacks {field}")
    text = text.replace("@BOOTARGS@", check_bootargs(bootargs)).replace("@DTB_FILE@", dtb_name)
    text = text.replace("@WATCHDOG_MODE@", " ".join(check_register_address(address)
                                                     for address in watchdog_mode.split()))
    source = work / "boot.cmd"
    source.write_text(text)
    script = work / "boot.scr"
    run([find_tool("mkimage"), "-A", "riscv", "-O", "linux", "-T", "script", "-C", "none",
         "-n", "Duplex boot script", "-d", source, script])
    return script


def make_fat(files, size_mib, hidden_sectors, work):
    """A FAT file system image of size_mib MiB holding `files`. Returns its path."""
    fat = work / "boot.vfat"
    run([find_tool("mkfs.vfat"), "-C", "--invariant", "-i", VOLUME_ID, "-n", VOLUME_LABEL,
         "-h", str(hidden_sectors), fat, str(size_mib * 1024)])
    for path in files:
        os.utime(path, (TIMESTAMP, TIMESTAMP))
        run([find_tool("mcopy"), "-i", fat, "-m", path, "::" + Path(path).name])
    return fat


def write_image(output, bootloader, fat, partition_start):
    """Assemble MBR, bootloader and FAT partition into `output` (atomically)."""
    fat_size = fat.stat().st_size
    temporary = output.with_name(output.name + ".tmp")
    with open(temporary, "wb") as image:
        image.truncate(partition_start + fat_size)
    layout = (f"label: dos\nlabel-id: {DISK_ID}\nunit: sectors\n"
              f"start={partition_start // SECTOR}, size={fat_size // SECTOR}, "
              f"type={PARTITION_TYPE}, bootable\n")
    try:
        run([find_tool("sfdisk"), "--no-reread", "--no-tell-kernel", "--wipe", "never",
             temporary], input=layout)
        with open(temporary, "r+b") as image:
            if bootloader:
                image.seek(BOOTLOADER_OFFSET)
                image.write(bootloader)
            image.seek(partition_start)
            with open(fat, "rb") as source:
                shutil.copyfileobj(source, image)
        os.replace(temporary, output)
    finally:
        temporary.unlink(missing_ok=True)


def build(args):
    """Check every input, then build the image. Raises ImageError."""
    if args.partition_start % (1024 * 1024) != 0 or args.partition_start <= BOOTLOADER_OFFSET:
        raise ImageError(f"partition start {args.partition_start} must be a whole number of "
                         f"MiB past the bootloader at {BOOTLOADER_OFFSET}")
    check_input(args.kernel, "kernel Image")
    if args.dtb is not None:
        check_input(args.dtb, "device tree blob")
    check_input(args.boot_cmd, "boot script template")
    for address in args.stop_watchdog:
        check_register_address(address)
    layout_args = (args.kernel_addr_r, args.fdt_addr_r, args.dram_base)
    layout = None
    if any(layout_args):
        if not all(layout_args) or args.dtb is None:
            raise ImageError("--kernel-addr-r, --fdt-addr-r and --dram-base go together, "
                             "with --dtb")
        layout = check_load_layout(args.kernel, args.dtb,
                                   parse_address(args.kernel_addr_r, "--kernel-addr-r"),
                                   parse_address(args.fdt_addr_r, "--fdt-addr-r"),
                                   parse_address(args.dram_base, "--dram-base"))
    bootloader = None
    if args.bootloader is not None:
        bootloader = check_bootloader(args.bootloader, args.partition_start)
    elif args.need_bootloader:
        raise ImageError("this board needs its bootloader in the image: pass "
                         "BOOTLOADER=path/to/u-boot-sunxi-with-spl.bin (how to build one: "
                         "docs/boards/lichee-rv-d1.md)")
    for tool in TOOLS:
        find_tool(tool)

    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="duplex-sd-") as work:
        work = Path(work)
        # The FAT file name must be "Image": boot.cmd loads it by that name.
        kernel = work / "Image"
        shutil.copyfile(args.kernel, kernel)
        files = [kernel]
        dtb_name = ""
        if args.dtb is not None:
            dtb_name = Path(args.dtb).name
            files.append(work / dtb_name)
            shutil.copyfile(args.dtb, files[-1])
        files.append(make_boot_script(args.boot_cmd, args.bootargs, dtb_name, work,
                                      " ".join(args.stop_watchdog)))
        needed = sum(Path(path).stat().st_size for path in files)
        if needed > args.fat_size_mib * 1024 * 1024 * 9 // 10:
            raise ImageError(f"{needed} bytes of files do not fit a {args.fat_size_mib} MiB "
                             f"FAT partition: raise --fat-size-mib")
        fat = make_fat(files, args.fat_size_mib, args.partition_start // SECTOR, work)
        write_image(output, bootloader, fat, args.partition_start)
    print(f"mkimage-sd: wrote {output}: bootloader "
          f"{f'{len(bootloader)} bytes at 8 KiB' if bootloader else 'none'}, FAT partition "
          f"at {args.partition_start // 1024} KiB with "
          f"{', '.join(Path(path).name for path in files)}", file=sys.stderr)
    if layout:
        print(f"mkimage-sd: {layout}", file=sys.stderr)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="mkimage-sd.py", description="Build a Duplex SD-card image: MBR, bootloader "
        "at 8 KiB, FAT partition with Image, DTB and boot.scr.")
    parser.add_argument("--kernel", required=True, help="the kernel Image (copied as Image)")
    parser.add_argument("--dtb", help="device tree blob to put next to it (none: boot.scr "
                        "passes U-Boot's own tree)")
    parser.add_argument("--bootloader", help="blob written at 8 KiB (D1: "
                        "u-boot-sunxi-with-spl.bin)")
    parser.add_argument("--need-bootloader", action="store_true",
                        help="fail if --bootloader is not given")
    parser.add_argument("--boot-cmd", required=True, help="boot.cmd template")
    parser.add_argument("--bootargs", default="", help="kernel command line for boot.scr")
    parser.add_argument("--stop-watchdog", action="append", default=[], metavar="ADDRESS",
                        help="MODE register of a watchdog boot.scr stops before booti; "
                        "repeat for each (D1: 0x06011018, the one U-Boot starts, and "
                        "0x020500b8, the timer block's); default none")
    parser.add_argument("--kernel-addr-r", help="U-Boot's kernel_addr_r on the board: with "
                        "--fdt-addr-r and --dram-base, refuse an Image and tree that would "
                        "overlap there")
    parser.add_argument("--fdt-addr-r", help="U-Boot's fdt_addr_r on the board")
    parser.add_argument("--dram-base", help="the board's DRAM base (booti moves the Image "
                        "to it + text_offset)")
    parser.add_argument("--output", required=True, help="image file to write")
    parser.add_argument("--partition-start", type=int, default=DEFAULT_PARTITION_START,
                        help=f"FAT partition offset in bytes (default {DEFAULT_PARTITION_START})")
    parser.add_argument("--fat-size-mib", type=int, default=DEFAULT_FAT_SIZE_MIB,
                        help=f"FAT partition size (default {DEFAULT_FAT_SIZE_MIB} MiB)")
    args = parser.parse_args(argv)
    try:
        build(args)
    except ImageError as error:
        print(f"mkimage-sd: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
