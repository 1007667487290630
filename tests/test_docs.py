"""Every command in the documentation runs (issue 9: the docs must not rot silently).

The commands are the lines of the ```sh blocks in README.md and docs/**/*.md. Each one
is either run here, as written, and checked (`RUN`: lab and tour commands, which end on
their own), or it cannot run in a test as written (it boots an interactive shell, takes
half an hour, or writes an SD card) and names the test that covers it (`COVERED`); that
test must exist. The board guide's bootloader build needs the network and hardware and
is listed, with the reason, in `NOT_RUN_HERE`. A command in the docs that is in neither list fails
test_every_doc_command_is_known: add it here when you add it to the docs.
"""

import os
import re
import signal
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = [REPO / "README.md"] + sorted((REPO / "docs").rglob("*.md"))
TIMEOUT_SECONDS = 600
LABS = sorted(p.parent.name for p in (REPO / "labs").glob("*/lab.toml"))


# Commands that no test here can run or cover, with the reason. Keep this list short: it
# is for steps that need hardware or the network, which the project's machines lack.
NOT_RUN_HERE = {
    command: "builds the board's bootloader: needs the network (git clone) and a Linux "
             "cross compiler, and its output only runs on a Lichee RV (docs/boards/"
             "lichee-rv-d1.md says what was checked only in emulation)"
    for command in [
        "git clone https://github.com/riscv-software-src/opensbi",
        "cd opensbi && git checkout v1.2",
        "make CROSS_COMPILE=riscv64-linux-gnu- PLATFORM=generic FW_PIC=y",
        "git clone https://github.com/smaeul/u-boot && cd u-boot",
        "git checkout 528ae9bc6c55edd3ffe642734b4132a8246ea777",
        "make CROSS_COMPILE=riscv64-linux-gnu- lichee_rv_dock_defconfig",
        "make CROSS_COMPILE=riscv64-linux-gnu- "
        "OPENSBI=../opensbi/build/platform/generic/firmware/fw_dynamic.bin",
    ]
}


# The stock-firmware path's card steps need the board's SD card in the machine.
NOT_RUN_HERE.update({
    "lsblk -o NAME,PARTLABEL,SIZE /dev/sdX": "looks at the board's SD card, which the "
                                             "project's machines do not have",
})


def doc_commands():
    """(file, command) for every command line of every ```sh block, comments dropped."""
    found = []
    for path in DOCS:
        in_block = False
        for line in path.read_text().splitlines():
            if line.strip().startswith("```"):
                in_block = line.strip() == "```sh" if not in_block else False
                continue
            if not in_block:
                continue
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                found.append((path.relative_to(REPO).as_posix(), command))
    return found


def bench_ran_clean(output):
    """A bench run ended with its "end" line (JSON, or --table's row) and no failed
    section."""
    return re.search(r'BENCH \{"section":"end".*"failures":0,|^end +failures=0\b', output,
                     re.M) is not None


def model_clean(output):
    return re.search(r"errors: 0\b", output) is not None


def model_found_error(output):
    match = re.search(r"errors: (\d+)", output)
    return match is not None and int(match.group(1)) > 0 and "trail" in output


def succeeded(output):
    return True


# Commands run here: command -> check on its output (exit status 0 is always required).
RUN = {
    # tour.md
    'make run ICOUNT=1 INIT="echo hello from user space"':
        lambda out: "hello from user space" in out,
    # labs.md
    'make run ICOUNT=1 LINE=38400 CONSOLE=polling,byte INIT="bench --table --quick --sections S10,S40"':
        lambda out: bench_ran_clean(out) and
        "workload=burst  thr_bytes=2560  fifo_loads=2560  bytes_per_fifo_load=1.00" in out,
    'make run ICOUNT=1 LINE=38400 CONSOLE=polling,fifo INIT="bench --table --quick --sections S10,S40"':
        lambda out: bench_ran_clean(out) and
        "workload=burst  thr_bytes=2560  fifo_loads=160  bytes_per_fifo_load=16.00" in out,
    'make run ICOUNT=1 LINE=115200 CONSOLE=async,ring=8192 INIT="bench --table --quick --sections S11,S44"':
        lambda out: bench_ran_clean(out) and "async,ring=8192" in out,
    'make run ICOUNT=1 LINE=115200 CONSOLE=async INIT="bench --table --quick --sections S11,S44"':
        bench_ran_clean,
    "make model": model_clean,
    # The trail must show the polled printk's IIR read that swallows THRE (lab 3 asks).
    "make model MODEL_FLAGS=-DNO_IDLE_KICK":
        lambda out: model_found_error(out) and re.search(r"polled_printk.*\[thre = 0\]", out),
    'make run ICOUNT=1 LINE=115200 CONSOLE=async,thread INIT="bench --table --quick --sections S10,S20,S41"':
        lambda out: bench_ran_clean(out) and 'backend=async,thread' in out,
    'make run ICOUNT=1 LINE=115200 CONSOLE=async INIT="bench --table --quick --sections S10,S20,S41"':
        bench_ran_clean,
    'make run ICOUNT=1 LINE=115200 CONSOLE=async INIT="bench --table --quick --sections S21"':
        lambda out: bench_ran_clean(out) and 'settle=true' in out,
    'make run ICOUNT=1 LINE=115200 CONSOLE=async INIT="bench --table --quick --no-settle --sections S21"':
        lambda out: bench_ran_clean(out) and 'settle=false' in out,
    "make BOARD=lichee-rv-d1": succeeded,
    "make image BOARD=lichee-rv-d1 FORMAT=android CMDLINE=boardcheck":
        lambda out: b"boardcheck" in (REPO / "build/lichee-rv-d1/duplex-boot.img").read_bytes()[64:576],
    "make image BOARD=lichee-rv-d1 FORMAT=android":
        lambda out: (REPO / "build/lichee-rv-d1/duplex-boot.img").read_bytes()[:8] == b"ANDROID!",
    "dtc -I dtb -O dts -o build/lichee-rv-d1/lichee-rv-d1.dts build/lichee-rv-d1/lichee-rv-d1.dtb":
        lambda out: 'snps,dw-apb-uart' in (REPO / "build/lichee-rv-d1/lichee-rv-d1.dts").read_text(),
    'make run ICOUNT=1 LINE=115200 INIT="bench --table --quick --sections S10,S40"':
        lambda out: "BENCH {" not in out and "fifo_loads=160" in out
        and "-- bench --table: the results above, together --" in out,
    # docs/teaching/: the guide and the lab handouts' hints
    "make deps": succeeded,
    "make": succeeded,
    "make labs": lambda out: all(name in out for name in LABS),
    'make run ICOUNT=1 LINE=115200 CONSOLE=polling,fifo INIT="bench --table --quick --sections S40"':
        lambda out: "workload=burst  thr_bytes=2560  fifo_loads=160" in out,
    'make run ICOUNT=1 LINE=115200 CONSOLE=async INIT="bench --table --quick --sections S40"':
        lambda out: "thr_bytes=2560  fifo_loads=160  bytes_per_fifo_load=16.00  "
                    "thre_interrupts=159" in out,
    # tx-refill's question 3: the copier's wake-ups, a column of --table
    'make run ICOUNT=1 LINE=115200 CONSOLE=async,thread INIT="bench --table --quick --sections S40"':
        lambda out: re.search(r"workload=burst .*fifo_loads=160 .* wakeups=\d+", out) is not None,
    'make run ICOUNT=1 LINE=115200 INIT="linetest 16 0 10"':
        lambda out: re.search(r"LINETEST one_byte n=10 min_ns=\d+", out) is not None,
    "make check-host-build && build/host/test_uart_layout":
        lambda out: "3 passed, 0 failed" in out,
    "make check-host-build && build/host/test_line_edit start":
        lambda out: "ok   start" in out and "1 passed, 0 failed" in out,
    # tracing.md
    "make timeline":  # the guide: all four backends on the docs' 2 harts
        lambda out: "timeline: pictures and summary.txt in build/timeline" in out
        and out.count("2 harts;") == 4,
    "make timeline CONSOLE=async SIZE=64 LINE=115200":
        lambda out: "timeline: pictures and summary.txt in build/timeline" in out
        and "UART TX interrupts: 3" in out,
    'make run ICOUNT=1 LINE=115200 CONSOLE=polling INIT="trace write 64"':
        lambda out: "TRACE-END records=" in out and "TRACE-WRITE size=64 written=64" in out,
    'make run ICOUNT=1 INIT="trace strace echo hello"':
        lambda out: re.search(r"\d+ write\(1, \w+, 6\) = 6", out) is not None,
    # design.md
    "/usr/bin/python3 tools/check_layers.py":
        lambda out: "every include goes down" in out,
    # benchmark.md (plain QEMU, no icount: ends in seconds)
    'make run INIT="bench --sections S20,S21"':
        bench_ran_clean,
}

# Commands that cannot run here as written: command -> "tests/file.py::test_name" that
# covers what they do (and why they are not run as written).
COVERED = {
    # The README's "Your own Linux program": the test compiles a hello.c the same way.
    "riscv64-linux-gnu-gcc -static -O2 -o hello hello.c":
        "tests/test_glibc.py::test_extra_programs_pack_a_users_binary",
    "make run EXTRA_PROGRAMS=./hello INIT=hello":
        "tests/test_glibc.py::test_extra_programs_pack_a_users_binary",
    "make run": "tests/test_user.py::test_shell_session",  # an interactive shell
    "make help": "tests/test_make_help.py::test_help_lists_every_target_once",
    # An interactive busybox shell; the test builds the same USERLAND and runs it.
    "make run USERLAND=busybox": "tests/test_busybox.py::test_starryos_start_up_shape",
    "make test": "tests/test_docs.py::test_every_doc_command_is_known",  # this suite
    "make bench": "tests/test_bench.py::test_bench_quick_is_sane",  # ~25 minutes
    "make bench BENCH_ARGS=--quick": "tests/test_bench.py::test_bench_quick_is_sane",
    "make docs-numbers": "tests/test_docs.py::test_docs_numbers_were_made_by_make",
    # fetches Linux (110 MB) and runs the default peer sections: the short version.
    "make peer": "tests/test_peer.py::test_both_kernels_ran_the_same_binary_to_the_end",
    "make sweep": "tests/test_sweep.py::test_every_point_ran_and_every_byte_arrived",  # 25 min
    "make sweep SWEEP=quick": "tests/test_sweep.py::test_every_point_ran_and_every_byte_arrived",
    "make image BOARD=lichee-rv-d1 BOOTLOADER=path/to/u-boot-sunxi-with-spl.bin":
        "tests/test_image.py::test_make_image_for_the_d1",  # needs a real bootloader blob
    'make image BOARD=lichee-rv-d1 BOOTLOADER=... INIT="bench --quick"':
        "tests/test_image.py::test_make_image_for_the_d1",
    "tools/benchreport --out build/board-report board-async.log board-polling.log "
    "results/latest/*.log": "tests/test_benchreport.py::test_report_from_a_small_log",
    # docs/teaching/: the labs' own commands (each lab's grading runs in tests/labs/).
    "make grade": "tests/test_labs.py::test_make_grade_prints_a_score_table",
    "make lab-results": "tests/test_labs.py::test_lab_results_are_current",
    "make lab-export DIR=build/student-repository":
        "tests/test_lab_handout.py::test_export_holds_no_reference_body",
    **{f"make lab-start LAB={name}": "tests/test_labs.py::test_lab_start_makes_a_branch_and_a_commit"
       for name in LABS},
    **{f"make grade LAB={name}": "tests/test_labs.py::test_make_grade_prints_a_score_table"
       for name in LABS},
    "sudo dd if=build/lichee-rv-d1/duplex-sd.img of=/dev/sdX bs=1M conv=fsync":
        "tests/test_image.py::test_d1_image_layout",  # writes a physical SD card
    "make image BOARD=lichee-rv-d1 BOOTLOADER=path/to/u-boot-sunxi-with-spl.bin "
    "CMDLINE=boardcheck": "tests/test_image.py::test_make_image_for_the_d1",
    "tools/boardcheck board.log": "tests/test_boardcheck.py::test_board_check_passes",
    # The stock-firmware path: back up, write and restore the card's boot partition.
    "sudo dd if=/dev/sdX4 of=stock-boot.img bs=1M":
        "tests/test_image.py::test_make_android_boot_image_for_the_d1",
    "sudo dd if=build/lichee-rv-d1/duplex-boot.img of=/dev/sdX4 bs=1M conv=fsync":
        "tests/test_image.py::test_make_android_boot_image_for_the_d1",
    "sudo dd if=stock-boot.img of=/dev/sdX4 bs=1M conv=fsync":
        "tests/test_image.py::test_make_android_boot_image_for_the_d1",
}


def test_every_doc_command_is_known():
    commands = doc_commands()
    assert commands, "no ```sh blocks found in the docs"
    unknown = [f"{path}: {command}" for path, command in commands
               if command not in RUN and command not in COVERED
               and command not in NOT_RUN_HERE]
    assert not unknown, ("commands in the docs that no test runs or covers (add them to "
                         "tests/test_docs.py):\n" + "\n".join(unknown))
    stale = [c for c in list(RUN) + list(COVERED) + list(NOT_RUN_HERE)
             if c not in {c for _, c in commands}]
    assert not stale, "listed in tests/test_docs.py but no longer in the docs:\n" + \
        "\n".join(stale)


@pytest.mark.parametrize("command", sorted(COVERED))
def test_covering_test_exists(command):
    file_name, test_name = COVERED[command].split("::")
    source = (REPO / file_name).read_text()
    assert re.search(rf"^def {re.escape(test_name)}\(", source, re.MULTILINE), \
        f"{COVERED[command]} (covering `{command}`) does not exist"


def run_in_own_group(command):
    """Run a shell command in its own process group; on timeout kill the whole group, so
    a QEMU that `make run` started does not outlive the test (subprocess.run's timeout
    kills only the shell). Returns (exit status, stdout + stderr)."""
    process = subprocess.Popen(command, shell=True, cwd=REPO, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    try:
        output, _ = process.communicate(timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        pytest.fail(f"`{command}` did not finish in {TIMEOUT_SECONDS} s\n{output[-3000:]}")
    return process.returncode, output


# Commands that write the same build outputs run in one pytest-xdist worker: the D1's
# images (with different command lines; tests/test_image.py, test_c906.py and
# test_d1_firstboot.py are in that group too), build/model/ (each `make model` starts by
# removing it) and build/timeline/.
SHARED_OUTPUTS = {"lichee-rv-d1": "lichee-rv-d1", "make model": "build-model",
                  "make timeline": "build-timeline"}


def in_its_group(command):
    groups = [group for words, group in SHARED_OUTPUTS.items() if words in command]
    return pytest.param(command, marks=[pytest.mark.xdist_group(g) for g in groups[:1]])


@pytest.mark.parametrize("command", [in_its_group(command) for command in RUN])
def test_doc_command_runs(command):
    returncode, output = run_in_own_group(command)
    result = subprocess.CompletedProcess(command, returncode)
    assert result.returncode == 0, f"`{command}` exited {result.returncode}\n{output[-3000:]}"
    assert RUN[command](output), f"`{command}`: unexpected output\n{output[-3000:]}"


def test_docs_numbers_were_made_by_make():
    """docs/numbers/ is what `make docs-numbers` writes: the report, its data and the
    plots, all from one build of one tree; the chapter cites sections that exist."""
    numbers = REPO / "docs" / "numbers"
    report = (numbers / "report.md").read_text()
    assert (numbers / "runs.json").exists()
    assert sorted(p.name for p in numbers.glob("*.png")), "no plots"
    # The report's Runs table: env | backend | [kernel |] harts | baud | FIFO | icount |
    # build | ... (the Linux peer's pair is env "peer")
    runs = re.findall(r"^\| (qemu\S*|peer) \| (\S+) \| (?:[^|]+ \| )?\d+ \| \d+ \| \d+ \| "
                      r"(\w+) \| (\S+) \|", report, re.MULTILINE)
    assert runs, "no Runs table in docs/numbers/report.md"
    assert all(icount == "yes" for _, _, icount, _ in runs), runs
    builds = {build for _, _, _, build in runs}
    assert len(builds) == 1 and "unknown" not in builds, f"docs/numbers mixes builds: {builds}"
    backends = {(env, backend) for env, backend, _, _ in runs}
    assert {("qemu", "async"), ("qemu", "async,thread"), ("qemu+line", "async"),
            ("qemu+line", "async,thread"), ("qemu+line", "polling,fifo")} <= backends
    chapter = (REPO / "docs" / "async-vs-polling.md").read_text()
    for heading in ("Targets against the StarryOS report", "Threaded copier vs interrupt refill"):
        assert heading in chapter and f"## {heading}" in report, heading
    dry = subprocess.run(["make", "-n", "docs-numbers"], cwd=REPO, capture_output=True,
                         text=True, timeout=120)
    assert dry.returncode == 0 and "tools/run-bench" in dry.stdout, dry.stdout + dry.stderr
