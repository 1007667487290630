"""System tests of user space (issue: user programs in U-mode): the program archive, the
libc layer, the shell and the user-fault kill path.

Each QEMU test boots build/qemu-virt/Image with a first program chosen by `init=` (words
after `--` are its arguments). When the first program exits, the kernel powers off and
QEMU exits with the program's exit code, or 128 + the signal that killed it.
"""

import re
import subprocess
from pathlib import Path

import pytest

import duplex_qemu

REPO_ROOT = Path(__file__).resolve().parent.parent
BUILD = REPO_ROOT / "build" / "qemu-virt"
INITRAMFS = BUILD / "initramfs.cpio"
def _make_list(*variables):
    """The words of `variables` in user/user.mk (continuation lines joined), sorted."""
    text = (REPO_ROOT / "user" / "user.mk").read_text().replace("\\\n", " ")
    names = []
    for variable in variables:
        names += re.search(rf"^{variable}\s*:=\s*(.*)$", text, re.M).group(1).split()
    return sorted(names)


PROGRAMS = _make_list("USER_PROGRAMS", "USER_FOLDER_PROGRAMS", "USER_FP_PROGRAMS")
GLIBC_PROGRAMS = _make_list("GLIBC_PROGRAMS", "GLIBC_FOLDER_PROGRAMS")
PANIC_STATUS = 100  # kernel/power/power.h POWER_STATUS_PANIC

# test_syscalls makes this many checks on every run; a different count means a check
# was skipped or added without updating this number.
TEST_SYSCALLS_CHECKS = 272

PROMPT = rb"\$ "

# Linux signal numbers, as the kernel reports them.
SIGILL, SIGTRAP, SIGBUS, SIGSEGV = 4, 5, 7, 11


def boot(image, request, append, smp=4, timeout=60, suffix=""):
    """Boot with `append` until power-off; return (exit status, console text)."""
    name = duplex_qemu.sanitize_name(request.node.name) + suffix
    return duplex_qemu.run_to_exit(image, append=append, smp=smp, timeout=timeout, name=name)


# ------------------------------------------------------------------ the archive

def test_archive_lists_every_program():
    listing = subprocess.run(["cpio", "-t", "--quiet"], input=INITRAMFS.read_bytes(),
                             capture_output=True, check=True).stdout.decode().split()
    assert listing == sorted(listing)
    expected = [f"bin/{name}" for name in PROGRAMS] + [f"bin/glibc/{name}" for name in GLIBC_PROGRAMS]
    links = [link.split("=")[0] for link in _make_list("ARCHIVE_LINKS")]
    etc = [f"etc/{path.name}" for path in (REPO_ROOT / "user" / "etc").iterdir()]
    assert listing == sorted(expected + etc + links)


@pytest.mark.parametrize("program", PROGRAMS)
def test_programs_are_static_riscv_executables(program):
    path = BUILD / "user" / "bin" / program
    headers = subprocess.run(["riscv64-unknown-elf-readelf", "-hlW", str(path)],
                             capture_output=True, text=True, check=True).stdout
    assert re.search(r"Type:\s+EXEC", headers)
    assert re.search(r"Machine:\s+RISC-V", headers)
    loads = re.findall(r"LOAD\s+0x[0-9a-f]+ (0x[0-9a-f]+) 0x[0-9a-f]+ 0x[0-9a-f]+ "
                       r"0x[0-9a-f]+ ([RWE ]+?)\s+0x1000", headers)
    assert [(int(address, 16), flags.replace(" ", "")) for address, flags in loads][0] == \
        (0x10000, "R")
    assert sorted(flags.replace(" ", "") for _, flags in loads) == ["R", "RE", "RW"]
    for address, _ in loads:
        assert int(address, 16) % 4096 == 0
    symbols = subprocess.run(["riscv64-unknown-elf-nm", "-u", str(path)],
                             capture_output=True, text=True, check=True).stdout
    assert symbols.strip() == ""
    # crt0 points tp at __tls_base; the linker counts the tp offsets of errno and the
    # other thread-locals from PT_TLS's address: the two must be one, or errno lands on
    # another variable (libc/user.ld; 9 programs without .tdata had it 8 bytes off).
    tls = re.search(r"^\s*TLS\s+0x[0-9a-f]+ (0x[0-9a-f]+) ", headers, re.M)
    base = subprocess.run(["riscv64-unknown-elf-nm", str(path)], capture_output=True,
                          text=True, check=True).stdout
    base = re.search(r"^([0-9a-f]+) \w __tls_base$", base, re.M)
    assert tls and base and int(tls.group(1), 16) == int(base.group(1), 16)


# ------------------------------------------------------------------ first programs

def test_sh_c_exit_status(image, request):
    status, text = boot(image, request, 'init=/bin/sh -- -c "exit 3"')
    assert status == 3, text


@pytest.mark.parametrize("smp", [1, 4])
def test_syscalls_all_pass(image, request, smp):
    status, text = boot(image, request, "init=/bin/test_syscalls", smp=smp, timeout=120)
    failures = [line for line in text.splitlines() if line.startswith("FAIL ")]
    assert failures == []
    summary = re.search(r"test_syscalls: (\d+) passed, (\d+) failed", text)
    assert summary, text[-2000:]
    assert (int(summary.group(1)), int(summary.group(2))) == (TEST_SYSCALLS_CHECKS, 0)
    assert status == 0


CRASHES = [
    ("null", SIGSEGV), ("kernel-read", SIGSEGV), ("kernel-write", SIGSEGV),
    ("kernel-jump", SIGSEGV), ("mmio", SIGSEGV), ("illegal", SIGILL), ("csr", SIGILL),
    ("sret", SIGILL), ("wfi", SIGILL), ("stack", SIGSEGV), ("write-text", SIGSEGV),
    ("misaligned", SIGBUS), ("ebreak", SIGTRAP),
]
SIGNAL_NAMES = {SIGILL: "SIGILL", SIGBUS: "SIGBUS", SIGSEGV: "SIGSEGV", SIGTRAP: "SIGTRAP"}


@pytest.mark.parametrize("variant,signal", CRASHES, ids=[name for name, _ in CRASHES])
def test_user_fault_kills_only_the_program(image, request, variant, signal):
    status, text = boot(image, request, f"init=/bin/crash -- {variant}")
    assert f"crash: {variant}" in text
    assert "crash: survived" not in text
    # The kernel's one-line report: name[pid]: killed by SIGNAL: cause at pc ..., address ...
    assert re.search(rf"crash\[\d+\]: killed by {SIGNAL_NAMES[signal]}\b", text), text
    assert status == 128 + signal


# ------------------------------------------------------------------ the shell

def shell(guest, line, expect):
    """Type `line` at the prompt, wait for the regex `expect`, then for the next prompt.
    Returns the match of `expect`."""
    guest.send(line)
    match = guest.wait_for(expect, timeout=30)
    guest.wait_for(PROMPT, timeout=30)
    return match


def test_shell_session(image, guest_factory):
    guest = guest_factory(image, smp=4).start()
    guest.wait_for("Duplex \u2014 type help", timeout=30)
    guest.wait_for(PROMPT, timeout=30)

    shell(guest, "echo hello world\n", rb"\nhello world\r\n")
    shell(guest, "echo \"two  spaces\" and\\\"quote\n", rb"\ntwo  spaces and\"quote\r\n")
    shell(guest, "false\n", rb"\[exit 1\]")

    # A faulting program is reported, the shell and the kernel carry on.
    shell(guest, "crash null\n", rb"\[killed by signal 11 \(SIGSEGV\)\]")
    assert re.search(r"crash\[\d+\]: killed by SIGSEGV", guest.text)
    guest.send("true\n")
    nothing = guest.wait_for(re.compile(rb"true\r\n(.*?)\$ ", re.S), timeout=30)
    assert nothing.group(1) == b""

    help_line = shell(guest, "help\n", rb"programs:([^\r\n]*)\r\n")
    listed = help_line.group(1).decode().split()
    assert {"sh", "echo", "cat", "true", "crash"} <= set(listed)
    assert listed == sorted(listed)

    # Backspace (DEL and ^H) erases the character before it.
    shell(guest, "echoo\x7f hi\n", rb"\nhi\r\n")
    shell(guest, "echo abc\x08\x08\x08xyz\n", rb"\nxyz\r\n")

    # ^C abandons the line: nothing runs, a new prompt appears.
    guest.send("echo abandoned\x03")
    guest.wait_for(rb"\^C\r\n", timeout=30)
    guest.wait_for(PROMPT, timeout=30)
    shell(guest, "echo after\n", rb"\nafter\r\n")
    assert "\nabandoned" not in guest.text

    # cat copies the console to its output until ^D.
    guest.send("cat\n")
    guest.wait_for(rb"cat\r\n", timeout=30)
    guest.send("line one\n")
    guest.wait_for(rb"line one\r\n", timeout=30)
    guest.send("line two\n")
    guest.wait_for(rb"line two\r\n", timeout=30)
    guest.send("\x04")
    guest.wait_for(PROMPT, timeout=30)

    shell(guest, "cat /etc/motd\n", "\nDuplex \u2014 type help\r\n")
    shell(guest, "sleep 0.1\n", rb"sleep 0\.1\r\n")
    shell(guest, "nosuch\n", rb"sh: nosuch: command not found")
    shell(guest, "sh -c \"exit 5\"\n", rb"\[exit 5\]")

    guest.send("exit 7\n")
    assert guest.wait_exit(timeout=30) == 7
    assert "panic" not in guest.text.lower()


def test_shell_control_d_exits(image, guest_factory):
    guest = guest_factory(image, smp=2).start()
    guest.wait_for(PROMPT, timeout=30)
    guest.send("\x04")
    assert guest.wait_exit(timeout=30) == 0


@pytest.mark.parametrize("backend", ["polling", "async"])
def test_shell_survives_a_child_leaving_stdin_nonblocking(image, guest_factory, backend):
    """A child sets O_NONBLOCK on the stdin it shares with the shell and exits; the shell's
    next read gets EAGAIN, which it must take as "try again" (clearing the flag, as bash
    does), not as end of input."""
    guest = guest_factory(image, smp=2, append=f"console={backend}").start()
    guest.wait_for(PROMPT, timeout=30)
    shell(guest, "nonblock on\n", rb"stdin: O_NONBLOCK on\r\n")
    shell(guest, "echo still here\n", rb"\nstill here\r\n")
    # Whether the shell met EAGAIN (and cleared the flag) depends on whether our next line
    # was already there when it read; either way it keeps reading lines.
    shell(guest, "nonblock on\n", rb"stdin: O_NONBLOCK on\r\n")
    shell(guest, "echo and again\n", rb"\nand again\r\n")
    guest.send("exit 4\n")
    assert guest.wait_exit(timeout=30) == 4


def test_fopen_and_fprintf_on_the_console(image, request):
    """picolibc's fopen/fprintf/fgets/fseek link (open flags and lseek are there) and run:
    a line through a stream on /dev/console, a file read and rewound, EROFS for writing."""
    status, text = boot(image, request, "init=/bin/fopentest")
    assert "fopentest: fprintf to /dev/console 42" in text
    assert re.search(r"FOPENTEST ok=\d+ failed=0", text), text[-2000:]
    assert status == 0
