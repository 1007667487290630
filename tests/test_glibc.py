"""System tests of ordinary Linux programs on Duplex: floating point in user mode (the
kernel keeps each program's F/D registers its own, and every program starts with a clean
FPU), static glibc binaries from Debian's riscv64 cross toolchain (packed under
/bin/glibc/), the system calls they need, and the report of calls the kernel lacks.

The matrix is kept cheap: the whole program set on one configuration (4 harts, async),
the glibc hello world on 1 and 4 harts with both console backends.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import duplex_qemu

REPO_ROOT = Path(__file__).resolve().parent.parent


def boot(image, request, init, smp=4, console="async", timeout=90, icount=True):
    """Boot with `init` ("prog args") as the first program; return (status, text)."""
    words = init.split(" ", 1)
    append = f"console={console} init=/bin/{words[0]}"
    if len(words) > 1:
        append += f" -- {words[1]}"
    # One log per program a test boots: build/test-logs/<test>-<program>.log
    name = duplex_qemu.sanitize_name(f"{request.node.name}-{words[0]}")
    return duplex_qemu.run_to_exit(image, append=append, smp=smp, icount=icount,
                                   timeout=timeout, name=name)


# ------------------------------------------------------------------ floating point

@pytest.mark.parametrize("smp", [1, 4])
def test_fpu_two_programs_on_one_hart_keep_their_registers(image, request, smp):
    # Both children pin themselves to hart 0 and each runs for several 10 ms slices with
    # all 32 registers and fcsr loaded, checking them every round: they take turns.
    status, text = boot(image, request, "fpcheck pair 300000", smp=smp)
    results = re.findall(r"FPCHECK-HOLD seed=(\d) rounds=300000 gaps=(\d+) sum=(\w+) "
                         r"bad_round=(\d+)", text)
    assert sorted(r[0] for r in results) == ["1", "2"], text
    for seed, gaps, sum_ok, bad_round in results:
        assert sum_ok == "OK" and bad_round == "0", text
        assert int(gaps) >= 1, f"seed {seed} was never preempted: {text}"
    # Preemption, not one after the other: the second started before the first ended.
    starts = [m.start() for m in re.finditer(r"FPCHECK-HOLD seed=\d start", text)]
    ends = [m.start() for m in re.finditer(r"FPCHECK-HOLD seed=\d rounds", text)]
    assert len(starts) == 2 and max(starts) < min(ends), text
    assert "FPCHECK-PAIR failures=0" in text
    assert status == 0


def test_fpu_every_program_starts_clean(image, request):
    # The first child leaves every register and fcsr set; the second, on the same hart,
    # must still find zeros.
    status, text = boot(image, request, "fpcheck clean", smp=2)
    assert text.count("FPCHECK-CLEAN ok") == 2, text
    assert "FPCHECK-CLEAN bad" not in text
    assert "FPCHECK-CLEAN failures=0" in text
    assert status == 0


# ------------------------------------------------------------------ glibc programs

BUILD = REPO_ROOT / "build" / "qemu-virt"
GLIBC_BIN = BUILD / "user" / "glibc" / "bin"
CONFIGS = [(1, "async"), (1, "polling"), (4, "async"), (4, "polling")]
# test_syscalls and test_linux make this many checks on every run, with either libc.
from test_user import TEST_SYSCALLS_CHECKS  # one count for every build
TEST_LINUX_CHECKS = 72


def kernel_lines(text):
    """The kernel's log lines of a console text."""
    return re.findall(r"\[\s*\d+\.\d{6}\] h\d+ [^\r\n]*", text)


@pytest.mark.parametrize("program", ["hello", "echo", "test_syscalls", "test_linux",
                                     "loadwriter", "fptest"])
def test_glibc_programs_are_static_riscv_executables(program):
    headers = subprocess.run(["riscv64-linux-gnu-readelf", "-hlW", str(GLIBC_BIN / program)],
                             capture_output=True, text=True, check=True).stdout
    assert re.search(r"Type:\s+EXEC", headers)
    assert re.search(r"Machine:\s+RISC-V", headers)
    assert "INTERP" not in headers  # static: no dynamic loader
    assert re.search(r"Flags:\s+0x5, RVC, double-float ABI", headers)


@pytest.mark.parametrize("smp,console", CONFIGS, ids=[f"{s}harts-{c}" for s, c in CONFIGS])
def test_glibc_hello(image, request, smp, console):
    status, text = boot(image, request, "glibc/hello", smp=smp, console=console)
    assert "hello, world\r\n" in text
    assert "not implemented" not in text  # every call glibc made is one Duplex has
    assert status == 0


@pytest.mark.parametrize("program,checks", [("test_syscalls", TEST_SYSCALLS_CHECKS),
                                            ("test_linux", TEST_LINUX_CHECKS)])
def test_glibc_and_picolibc_builds_pass_the_same_checks(image, request, program, checks):
    results = {}
    for build in (program, f"glibc/{program}"):
        status, text = boot(image, request, build, timeout=120)
        assert f"{program}: {checks} passed, 0 failed" in text, text[-3000:]
        assert status == 0
        results[build] = re.findall(r"^(ok|FAIL) ([^:\r\n]*)", text, re.M)
    assert results[program] == results[f"glibc/{program}"]


def test_glibc_loadwriter_integrity(image, request):
    from test_reliability import verify_records  # the same check as the picolibc build's

    name = duplex_qemu.sanitize_name(request.node.name)
    status, output = 0, b""
    with duplex_qemu.Guest(image, smp=4, append="console=async init=/bin/glibc/loadwriter -- "
                           "16 1048576 5", icount=True, name=name, interactive=False) as guest:
        status = guest.wait_exit(180)
        output = guest.output
    assert b"LOADWRITER-DONE writers=16 failures=0" in output
    records, frames, checked = verify_records(output, 16)
    assert records > 0 and checked >= 1048576
    assert status == 0


def test_glibc_fptest_matches_picolibc(image, request):
    lines = {}
    for build in ("fptest", "glibc/fptest"):
        status, text = boot(image, request, build)
        assert "FPTEST-DONE failures=0" in text, text[-2000:]
        assert status == 0
        lines[build] = re.findall(r"^FPTEST [^\r\n]*", text, re.M)
    assert lines["fptest"] == lines["glibc/fptest"]
    assert "FPTEST printf 3.250000 -0.500000 0.333 1.234568e+06 3.14158" in lines["fptest"]


def test_unknown_call_is_logged_by_name(image, request):
    # test_syscalls calls numbers Linux has (and some it has not); each is named once.
    status, text = boot(image, request, "glibc/test_syscalls", timeout=120)
    lines = [line for line in kernel_lines(text) if "not implemented" in line]
    assert any(re.search(r"test_syscalls\[\d+\]: system call 300 \(not a Linux call\) "
                         r"not implemented: ENOSYS", line) for line in lines), lines
    assert len(lines) == len(set(lines))
    # A Linux call Duplex lacks, named: gen-syscall-names' table says 89 is acct.
    status, text = boot(image, request, "test_linux unknown")
    assert re.search(r"test_linux\[\d+\]: system call 89 \(acct\) not implemented: ENOSYS",
                     text), text[-2000:]


def test_syscall_name_table_is_current():
    # The checked-in table is what tools/gen-syscall-names.py makes from the installed
    # Linux headers.
    subprocess.run([sys.executable, str(REPO_ROOT / "tools" / "gen-syscall-names.py"),
                    "--check"], check=True)


def test_write_to_read_only_memory_kills_and_next_program_runs(image, guest_factory):
    guest = guest_factory(image, smp=2, append="console=async").start()
    guest.wait_for(rb"\$ ", timeout=60)
    for program in ("test_linux", "/bin/glibc/test_linux"):
        guest.send(f"{program} readonly\n")
        guest.wait_for(rb"\[killed by signal 11 \(SIGSEGV\)\]", timeout=60)
        guest.wait_for(rb"\$ ", timeout=60)
        guest.send("/bin/glibc/hello\n")
        guest.wait_for(rb"\nhello, world\r\n", timeout=60)
        guest.wait_for(rb"\$ ", timeout=60)
    text = guest.text
    reports = re.findall(r"test_linux\[\d+\]: killed by SIGSEGV: store page fault at pc "
                         r"0x[0-9a-f]+, address (0x[0-9a-f]+)", text)
    pages = re.findall(r"test_linux: writing to read-only page (0x[0-9a-f]+)", text)
    assert len(reports) == 2 and reports == pages
    assert "test_linux: survived" not in text
    guest.send("exit 0\n")
    assert guest.wait_exit(timeout=60) == 0


# ------------------------------------------------------------------ a user's own binary

HELLO_C = '#include <stdio.h>\nint main(void) { printf("my own hello\\n"); return 7; }\n'


def make(*arguments, check=True):
    return subprocess.run(["make", "-C", str(REPO_ROOT), *arguments], capture_output=True,
                          text=True, check=check, timeout=600)


def test_check_program_accepts_static_and_refuses_the_rest(tmp_path):
    tool = [sys.executable, str(REPO_ROOT / "tools" / "check-program.py")]
    ok = subprocess.run(tool + [str(GLIBC_BIN / "hello"), str(BUILD / "user" / "bin" / "sh")],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stderr == ""
    source = tmp_path / "t.c"
    source.write_text(HELLO_C)
    subprocess.run(["riscv64-linux-gnu-gcc", "-o", str(tmp_path / "dynamic"), str(source)],
                   check=True)
    position_independent = bytearray((GLIBC_BIN / "hello").read_bytes())
    position_independent[16] = 3  # e_type ET_DYN
    (tmp_path / "pie").write_bytes(position_independent)
    (tmp_path / "text").write_text("not a program\n")
    cases = {"dynamic": "dynamically linked", "pie": "position-independent",
             "text": "not an ELF file", "/bin/true": "built for another machine",
             "missing": "cannot read it"}
    for name, reason in cases.items():
        path = name if name.startswith("/") else str(tmp_path / name)
        result = subprocess.run(tool + [path], capture_output=True, text=True)
        assert result.returncode == 1
        assert result.stderr.startswith(f"{path}: not a static riscv64 executable: ")
        assert reason in result.stderr and result.stderr.count("\n") == 1, result.stderr


def test_extra_programs_pack_a_users_binary(request, tmp_path):
    # README: build a program with Debian's Linux cross compiler, run it with one variable.
    # Built in a copy of build/qemu-virt (time stamps kept: make redoes only the archive
    # and the kernel that carries it), since other tests boot build/qemu-virt/Image
    # meanwhile (make test runs them in parallel).
    build = tmp_path / "build"
    shutil.copytree(BUILD, build, symlinks=True)

    def make_here(*arguments, check=True):
        return make(f"BUILD={build}", *arguments, check=check)

    source = tmp_path / "hello.c"
    source.write_text(HELLO_C)
    program = tmp_path / "myhello"
    subprocess.run(["riscv64-linux-gnu-gcc", "-static", "-O2", "-o", str(program),
                    str(source)], check=True)
    refused = make_here("all", f"EXTRA_PROGRAMS={source}", check=False)
    assert refused.returncode != 0
    assert f"{source}: not a static riscv64 executable: not an ELF file" in refused.stderr
    clash = tmp_path / "echo"
    clash.write_bytes(program.read_bytes())
    refused = make_here("all", f"EXTRA_PROGRAMS={clash}", check=False)
    assert refused.returncode != 0 and "/bin/echo is one of Duplex's own programs" in refused.stderr
    make_here("all", f"EXTRA_PROGRAMS={program}")
    listing = subprocess.run(["cpio", "-t", "--quiet"],
                             input=(build / "initramfs.cpio").read_bytes(),
                             capture_output=True, check=True).stdout.decode().split()
    assert "bin/myhello" in listing
    status, text = boot(build / "Image", request, "myhello")
    assert "my own hello\r\n" in text
    assert status == 7
    make_here("all")  # without it again: the archive is made again without the program
    listing = subprocess.run(["cpio", "-t", "--quiet"],
                             input=(build / "initramfs.cpio").read_bytes(),
                             capture_output=True, check=True).stdout.decode().split()
    assert "bin/myhello" not in listing
