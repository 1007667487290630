"""Early, attributable boot output, and the SBI 0.2-only mode.

The boot breadcrumbs (kernel/boot/breadcrumb.h) go through the SBI console from the
first instruction on, so a boot that stops says where — even when the UART driver never
starts. Each broken step here is made on purpose and the test asserts the line naming
it:

* the DTB address (a1) broken: 0, misaligned, pointing at memory without a device tree,
  at an address that faults before paging, and at a tree header that runs off the end
  of RAM (a fault after paging, in the device tree reader). QEMU's firmware always
  passes a good a1, so a six-byte shim sits where the firmware jumps (0x80200000), sets
  a1 and jumps to the kernel, which QEMU's loader put at 0x80400000;
* the device tree without a console UART (no stdout-path, or one naming no node): the
  boot goes on with the log on the SBI console, and /dev/console answers ENODEV.

`sbi=0.2` boots use only what an SBI 0.2 firmware has: legacy putchar instead of DBCN,
the legacy shutdown instead of SRST, no HSM (one hart). They run on OpenSBI 1.5 from
bookworm-backports (SBI 2.0: DBCN, SRST, HSM all there to be refused), next to the same
boot without the option, which uses them.
"""

import re
import subprocess
from pathlib import Path

import pytest

import duplex_qemu

REPO_ROOT = Path(__file__).resolve().parent.parent
MEMORY = "256M"  # qemu-virt's board.mk: RAM 0x80000000-0x90000000
SHIM_AT, KERNEL_AT = 0x80200000, 0x80400000
STOP_TIMEOUT = 60


def breadcrumbs(text):
    return [line for line in text.splitlines() if line.startswith("boot: ")]


def boot_to_exit(image, request, append, **kwargs):
    name = duplex_qemu.sanitize_name(request.node.name)
    with duplex_qemu.Guest(image, append=append, name=name, interactive=False,
                           **kwargs) as guest:
        status = guest.wait_exit(120)
        return status, guest.text


@pytest.fixture(scope="module")
def virt_dts(tmp_path_factory):
    """QEMU's own device tree for `virt` with one hart, as source."""
    folder = tmp_path_factory.mktemp("dt")
    dtb = folder / "virt.dtb"
    subprocess.run(["qemu-system-riscv64", "-M", f"virt,dumpdtb={dtb}", "-smp", "1",
                    "-m", MEMORY, "-display", "none"], check=True, capture_output=True)
    return subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", str(dtb)], check=True,
                          capture_output=True, text=True).stdout


def compile_dts(source, path):
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(path), "-"],
                   input=source, text=True, check=True)
    return path


def shim(a1, tmp_path):
    """A raw image that enters the kernel at KERNEL_AT with a0 unchanged and a1 = a1."""
    source = tmp_path / "shim.S"
    source.write_text(f".globl _start\n_start:\n\tli a1, {a1:#x}\n"
                      f"\tli t0, {KERNEL_AT:#x}\n\tjr t0\n")
    elf, raw = tmp_path / "shim.elf", tmp_path / "shim.bin"
    subprocess.run(["riscv64-unknown-elf-gcc", "-nostdlib", "-march=rv64imac",
                    "-mabi=lp64", f"-Wl,-Ttext={SHIM_AT:#x}", "-o", str(elf), str(source)],
                   check=True)
    subprocess.run(["riscv64-unknown-elf-objcopy", "-O", "binary", str(elf), str(raw)],
                   check=True)
    return raw


# ------------------------------------------------------------------ a good boot

def test_breadcrumbs_lead_the_boot(image, request):
    status, text = boot_to_exit(image, request, 'init=/bin/sh -- -c "exit 3"', smp=1)
    assert status == 3
    kernel = text[text.index("boot: entry"):]
    # The very first line of the kernel's is a breadcrumb, printed with the MMU off.
    assert re.fullmatch(r"boot: entry on hart 0x0, DTB at 0x[0-9a-f]+, image at 0x80200000, "
                        r"SBI console: legacy putchar", kernel.splitlines()[0]), kernel[:300]
    # (how much memory is free depends on the image's size: the step, not the number)
    steps = ["boot: " + re.sub(r"^\d+ MiB free", "N MiB free",
                               re.sub(r"[:;,].*", "", line[len("boot: "):]))
             for line in breadcrumbs(kernel)]
    assert steps == ["boot: entry on hart 0x0", "boot: building the boot page table",
                     "boot: paging on", "boot: device tree", "boot: command line read",
                     "boot: N MiB free", "boot: kernel page table on", "boot: UART up"]
    assert "UART ns16550a" in breadcrumbs(kernel)[3]
    # Then the log moves to the UART: breadcrumbs end before its first line.
    assert kernel.index("boot: UART up") < kernel.index("Duplex booting on hart 0")
    assert "sbi: spec 1.0, implementation 1 version 0x10001; console: legacy putchar, " \
           "power-off: SRST, other harts: started by HSM" in text


# ------------------------------------------------------------------ a broken a1

BROKEN_A1 = [
    ("zero", 0, None, "boot: no device tree: a1 is 0 (the bootloader passed none); stopping"),
    ("misaligned", 0x82200004, None,
     "boot: the DTB address is not 8-byte aligned, so it is no device tree; stopping"),
    # Zeroed RAM well past the kernel image (6 MB with its program archive).
    ("no-magic", 0x84000000, None,
     "boot: no device tree at the DTB address: it starts with 0x0, not the FDT magic "
     "0xd00dfeed; stopping"),
    # Nothing at 4 GiB: the magic's read faults before paging (load access fault).
    ("unmapped", 0x100000000, None,
     "boot: trap before paging: scause 0x5, sepc 0x80"),
    # A header whose magic and total size sit in the last 8 bytes of RAM: the reader's
    # next field is past the end, a fault after paging, before the trap vector is up.
    ("past-ram", 0x8ffffff8, "0x00010000edfe0dd0",
     'boot: trap (load access fault, scause 0x5, sepc 0xffffffff'),
]


@pytest.mark.parametrize("a1,data,expected", [case[1:] for case in BROKEN_A1],
                         ids=[case[0] for case in BROKEN_A1])
def test_broken_dtb_address_is_named(image, guest_factory, tmp_path, a1, data, expected):
    extra = ["-device", f"loader,file={image},addr={KERNEL_AT:#x},force-raw=on"]
    if data:
        extra += ["-device", f"loader,addr={a1:#x},data={data},data-len=8"]
    guest = guest_factory(shim(a1, tmp_path), smp=1, interactive=False, extra=extra).start()
    guest.wait_for(re.escape(expected), timeout=STOP_TIMEOUT)
    guest.wait_for(r"stopping\r?\n" if "stopping" not in expected else r"\n",
                   timeout=STOP_TIMEOUT)  # the rest of that line
    text = guest.text
    crumbs = breadcrumbs(text[text.index("boot: entry"):])
    assert crumbs[0].startswith(f"boot: entry on hart 0x0, DTB at {a1:#x}, "
                                f"image at {KERNEL_AT:#x}")
    if data:
        # The step the trap happened in is named, and it is the device tree's.
        assert f'in the step after "paging on; reading the device tree at {a1:#x}"; ' \
               "stopping" in text
        assert crumbs[-2] == f"boot: paging on; reading the device tree at {a1:#x}"
    assert "Duplex booting" not in text  # it stopped there, and said so
    assert guest.returncode is None      # halted, not powered off


# ------------------------------------------------------------------ no console UART

@pytest.mark.parametrize("edit,reason", [
    ("delete", "/chosen has no stdout-path"),
    ("missing-node", "stdout-path names no node of this tree"),
])
def test_no_uart_in_the_device_tree(image, request, tmp_path, virt_dts, edit, reason):
    if edit == "delete":
        source = re.sub(r"\n\s*stdout-path = [^;]*;", "", virt_dts)
    else:
        source = re.sub(r'stdout-path = "[^"]*"', 'stdout-path = "/soc/serial@dead"',
                        virt_dts)
    assert source != virt_dts
    # Without a usable stdout-path the kernel would take the first UART a driver takes
    # (tests/test_console.py): disabled, the node leaves it none at all.
    source = source.replace("serial@10000000 {", 'serial@10000000 {\n\t\t\tstatus = "disabled";', 1)
    dtb = compile_dts(source, tmp_path / "no-uart.dtb")
    # OpenSBI still finds the UART for its own console by its compatible (disabled or
    # not), so the SBI console, and with it the breadcrumbs and the log, reach the
    # serial port.
    status, text = boot_to_exit(image, request, 'init=/bin/sh -- -c "exit 3"', smp=1,
                                extra=["-dtb", dtb])
    assert f"UART none: {reason}" in text
    assert f"boot: kernel page table on; no UART ({reason}): the log stays on the SBI " \
           "console" in text
    assert "uart: none; /dev/console answers ENODEV" in text
    # The boot went on: the first program ran and its status came back.
    assert "/bin/sh exited with status 3; powering off" in text
    assert status == 3


# ------------------------------------------------------------------ SBI 2.0 and sbi=0.2

def test_breadcrumbs_through_dbcn(image, request, backports):
    status, text = boot_to_exit(image, request, 'init=/bin/sh -- -c "exit 4"', smp=1,
                                qemu=backports.qemu, bios=backports.firmware)
    assert "OpenSBI v1.5" in text
    assert re.search(r"boot: entry on hart 0x0, DTB at 0x[0-9a-f]+, image at 0x80200000, "
                     r"SBI console: DBCN\r?\n", text)
    assert "boot: UART up" in text
    assert re.search(r"sbi: spec 2\.0, implementation 1 version 0x[0-9a-f]+; console: DBCN, "
                     r"power-off: SRST, other harts: started by HSM", text)
    assert status == 4


def test_sbi_0_2_uses_only_what_sbi_0_2_has(image, request, backports, tmp_path):
    # Two harts, and no QEMU exit device in the tree for Duplex (sifive,test1 stays for
    # OpenSBI's poweroff), so power-off goes through SBI and says how.
    dts = subprocess.run(["qemu-system-riscv64", "-M", f"virt,dumpdtb={tmp_path / 'v.dtb'}",
                          "-smp", "2", "-m", MEMORY, "-display", "none"],
                         check=True, capture_output=True)
    source = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", str(tmp_path / "v.dtb")],
                            check=True, capture_output=True, text=True).stdout
    edited = source.replace('"sifive,test1\\0sifive,test0\\0syscon"', '"sifive,test1\\0syscon"')
    assert edited != source
    dtb = compile_dts(edited, tmp_path / "no-finisher.dtb")
    for option in ("", "sbi=0.2"):
        status, text = boot_to_exit(image, request, f"{option} init=/bin/echo -- hello-{option}",
                                    smp=2, qemu=backports.qemu, bios=backports.firmware,
                                    extra=["-dtb", dtb])
        assert f"hello-{option}" in text
        if option:
            assert "sbi=0.2; console: legacy putchar, power-off: legacy shutdown, " \
                   "other harts: stay offline (no HSM)" in text
            assert "sbi: no HSM extension to start harts with; the other 1 stay offline" in text
            assert "1 of 2 harts online" in text
            assert "power: off through the legacy SBI shutdown call (status 0)" in text
        else:
            assert "console: DBCN, power-off: SRST, other harts: started by HSM" in text
            assert "power: off through SBI SRST (status 0)" in text
        # OpenSBI's syscon-poweroff ends QEMU; the status is only in the log.
        assert status == 0


def test_sbi_0_2_test_syscalls(image, request):
    # One hart, as on the D1 (test_syscalls pins itself to every hart the tree names).
    status, text = boot_to_exit(image, request, "sbi=0.2 init=/bin/test_syscalls", smp=1)
    assert "legacy putchar, power-off: legacy shutdown, other harts: stay offline" in text
    summary = re.search(r"test_syscalls: (\d+) passed, (\d+) failed", text)
    assert summary and summary.group(2) == "0", text[-2000:]
    assert status == 0
