"""QEMU system tests of the kernel core (issue: boot, harts, traps, memory, timers,
tasks and wakers). Each boots build/qemu-virt/Image, captures the serial output and
asserts on lines the kernel prints and on QEMU's exit status (the kernel's, through
the sifive,test0 finisher). No timing thresholds: counts, states and orderings only.
"""

import re
import subprocess
from pathlib import Path

import pytest

import duplex_qemu

REPO_ROOT = Path(__file__).resolve().parent.parent
KERNEL_ELF = REPO_ROOT / "build" / "qemu-virt" / "kernel.elf"
PANIC_STATUS = 100  # kernel/power/power.h POWER_STATUS_PANIC


def boot(image, request, append="", smp=4, icount=False, timeout=120, suffix=""):
    """Boot to power-off; return (status, kernel log lines)."""
    name = duplex_qemu.sanitize_name(request.node.name) + suffix
    status, text = duplex_qemu.run_to_exit(image, append=append, smp=smp, icount=icount,
                                           timeout=timeout, name=name)
    kernel_lines = [line for line in text.splitlines() if line.startswith("[")]
    return status, kernel_lines, text


@pytest.mark.parametrize("smp", [1, 2, 4])
def test_every_hart_comes_online(image, request, smp):
    status, lines, _ = boot(image, request, smp=smp, append="init=/bin/true")
    assert status == 0
    log = "\n".join(lines)
    assert f"{smp} of {smp} harts online" in log
    assert len(re.findall(r"h\d+ hart \d+ online", log)) == smp - 1
    # Every line is tagged with a time stamp and the hart that printed it.
    assert all(re.match(r"\[\s*\d+\.\d{6}\] h\d+ ", line) for line in lines)
    assert "Duplex booting on hart" in log


def test_icount_runs_are_identical(image, request):
    # One hart: QEMU -icount runs it in one instruction stream, so two boots agree in
    # every byte but the time stamps, which agree to within a warp of idle time (QEMU
    # computes the warp in its main-loop thread; docs/design.md, "Determinism"). Byte for
    # byte is record/replay's promise: tests/test_replay.py.
    first = boot(image, request, append="selftest=timers", smp=1, icount=True, suffix="-1")
    second = boot(image, request, append="selftest=timers", smp=1, icount=True, suffix="-2")
    assert first[0] == second[0] == 0
    stamp = re.compile(r"^\[\s*\d+\.\d{6}\] ", re.MULTILINE)
    masked = [stamp.sub("[time] ", run[2]) for run in (first, second)]
    assert "selftest timers: PASS" in masked[0]
    assert masked[0] == masked[1]


def test_icount_runs_on_four_harts_agree_but_for_time_stamps(image, request):
    # Several harts: QEMU's round-robin can hand a hart its turn a few instructions
    # earlier or later from one run to the next (seen: a cross-hart timer cancel logged
    # 276 ns apart), so what must agree is every event, its hart, its order and its
    # counts: the log with its time stamps masked.
    first = boot(image, request, append="selftest=timers", smp=4, icount=True, suffix="-1")
    second = boot(image, request, append="selftest=timers", smp=4, icount=True, suffix="-2")
    assert first[0] == second[0] == 0
    stamp = re.compile(r"^\[\s*\d+\.\d{6}\] ", re.MULTILINE)
    masked = [stamp.sub("[time] ", run[2]) for run in (first, second)]
    assert "selftest timers: PASS" in masked[0]
    assert masked[0] == masked[1]


@pytest.mark.parametrize("smp", [1, 4])
def test_wakers_lose_nothing(image, request, smp):
    status, lines, _ = boot(image, request, smp=smp,
                            append="selftest=wakers selftest.rounds=3000")
    log = "\n".join(lines)
    tasks = max(4, 2 * smp)
    assert f"token ring: {tasks} tasks on {smp} harts, {tasks * 3000} hand-offs, none lost" in log
    assert "timer callbacks: 2000 wake-ups from interrupt context, none lost" in log
    assert "wait queue: 12 waiters followed 500 steps each" in log
    assert "selftest wakers: PASS" in log
    assert status == 0


@pytest.mark.parametrize("append", ["selftest=timers", "selftest=timers timer=sbi"])
def test_timers_fire_in_deadline_order(image, request, append):
    # -icount: virtual time, so a host that stalls a vCPU thread cannot reorder deadlines.
    status, lines, _ = boot(image, request, smp=4, append=append, icount=True)
    log = "\n".join(lines)
    assert "timers: 4 harts x 48 timers, 12 cancelled each, order checked" in log
    assert "timers: 8 sleepers woke in deadline order" in log
    assert "selftest timers: PASS" in log
    assert ("SBI set_timer" in log) == ("timer=sbi" in append)
    assert status == 0


@pytest.mark.parametrize("smp", [1, 4])
def test_scheduler_preempts_moves_and_spreads(image, request, smp):
    status, lines, _ = boot(image, request, smp=smp, append="selftest=sched", icount=True)
    log = "\n".join(lines)
    assert "never-yielding tasks on one hart all ran" in log
    assert f"affinity moved a task across all {smp} harts" in log
    spread = re.search(r"8 unpinned workers ran on (\d+) harts", log)
    assert spread and (smp == 1 or int(spread.group(1)) >= 2)
    # Per-hart busy/idle accounting is reported for every hart.
    assert len(re.findall(r"sched: hart index \d+ busy \d+ us idle \d+ us", log)) == smp
    assert "selftest sched: PASS" in log
    assert status == 0


def test_kernel_fault_report(image, request):
    status, lines, _ = boot(image, request, smp=4, append="selftest=fault", icount=True)
    log = "\n".join(lines)
    assert status == PANIC_STATUS
    assert re.search(r"KERNEL FAULT: load page fault \(scause 0xd\) in task init", log)
    assert re.search(r"stval 0x0+10 ", log)
    for register in ["ra", "sp", "gp", "tp", "t0", "s0", "a0", "a7", "s11", "t6"]:
        assert re.search(rf"\b{register} [0-9a-f]{{16}}", log), register
    frames = re.findall(r"#(\d+) 0x([0-9a-f]+)", log)
    assert len(frames) >= 3
    # The innermost frame resolves to the function that made the bad load.
    symbol = subprocess.run(
        ["riscv64-unknown-elf-addr2line", "-f", "-e", str(KERNEL_ELF), "0x" + frames[0][1]],
        capture_output=True, text=True, check=True).stdout.split("\n")[0]
    assert symbol == "selftest_touch"
    assert "kernel panic: system halted (exit status 100)" in log
    # Other harts are stopped: nothing is printed after the panic line.
    assert lines[-1].endswith("kernel panic: system halted (exit status 100)")


def test_second_hart_in_the_boot_entry_stops_itself(image, request):
    """Firmware once sent a second hart into the boot entry mid-boot (entry.S's boot
    lottery): a hart started there on purpose must stop itself and leave the kernel
    running."""
    status, lines, _ = boot(image, request, smp=4, append="selftest=boot-lottery")
    log = "\n".join(lines)
    assert "lost the lottery (entries 1 -> 2) and stopped" in log
    assert "selftest boot-lottery: PASS" in log
    assert status == 0
    assert log.count("Duplex booting") == 1


def test_unknown_selftest_is_reported(image, request):
    status, lines, _ = boot(image, request, smp=1, append="selftest=nonsense")
    assert status == 2
    assert any("no test named 'nonsense'" in line for line in lines)


def test_bad_command_line_word_costs_only_itself(image, guest_factory):
    # The word with the unterminated quote is reported and dropped; without an init=
    # the default first program, the shell, starts.
    guest = guest_factory(image, smp=2, append='init="unterminated').start()
    guest.wait_for(r"command line: bad word 'init=\"unterminated' \(unterminated quote\)")
    guest.wait_for(r"2 of 2 harts online")
    guest.wait_for(r"\$ ")
    guest.send("exit 0\n")
    assert guest.wait_exit(timeout=60) == 0


@pytest.mark.parametrize("bad,report", [
    ("bogus=1 quiet", r'Unknown kernel command line parameters "bogus=1 quiet", ignored'),
    ('msg="never-closed', r"bad word 'msg=\"never-closed' \(unterminated quote\)"),
    ("uart.baud=abc", r"uart.baud: not a number, using 115200"),
    ("log.records=abc", r"log.records: not 2 .. 512, keeping 512"),
])
def test_bad_word_is_reported_and_init_still_runs(image, request, bad, report):
    """One bad word (unknown, malformed, or a value a parser refuses) is named on the
    boot log, and every other word still counts: init= runs the program it names
    rather than leaving an unattended run at a shell."""
    status, lines, text = boot(image, request, smp=1,
                               append=f"console=async {bad} init=/bin/hello")
    log = "\n".join(lines)
    assert re.search(report, log), log
    assert "starting /bin/hello" in log
    assert "hello, world" in text
    assert status == 0


def test_dropped_init_powers_off_instead_of_a_shell(image, request):
    """More parameters than the parser holds: the init= beyond the limit is dropped and
    said, and the kernel powers off with 127 (not started) instead of waiting at a
    shell nobody will type into."""
    filler = " ".join(f"p{i}" for i in range(64))
    status, lines, _ = boot(image, request, smp=1, append=f"{filler} init=/bin/hello")
    log = "\n".join(lines)
    assert "bad word 'init=/bin/hello' (too many parameters)" in log
    assert "the init= word was dropped" in log
    assert "starting" not in log
    assert status == 127


def test_svpbmt_maps_devices_io_and_boots(image, request):
    """A hart with Svpbmt (QEMU `svpbmt=on`; OpenSBI turns on menvcfg.PBMTE): the kernel
    maps device registers with PBMT = IO (kernel/mm/memattr.c, walked leaf by leaf in
    tests/host/test_page_walk.c) and still reaches its UART and runs a program. A PBMT
    value the hart refused would fault at the first device access."""
    status, text = duplex_qemu.run_to_exit(
        image, append="init=/bin/hello", smp=1, icount=True, timeout=60,
        name=duplex_qemu.sanitize_name(request.node.name), extra=["-cpu", "rv64,svpbmt=on"])
    assert "memattr: every hart has Svpbmt: device pages are mapped IO" in text
    assert "hello, world" in text
    assert status == 0


def test_known_parameters_table_names_every_key_the_kernel_reads():
    """kernel/boot/parameters.c's table (what is not reported as unknown) and the keys
    the kernel's cmdline_get* calls read are the same set."""
    read = set()
    for path in list((REPO_ROOT / "kernel").rglob("*.c")) + list((REPO_ROOT / "drivers").rglob("*.c")):
        read |= set(re.findall(r'cmdline_(?:get|has|get_u64)\([^,]+,\s*"([^"]+)"',
                               path.read_text()))
    table = (REPO_ROOT / "kernel" / "boot" / "parameters.c").read_text()
    body = table[table.index("known_parameters[] = {"):]
    known = set(re.findall(r'"([^"]+)"', body[:body.index("};")]))
    assert read == known


# ---- the timer source fallback (kernel/boot/timer_choice.c) ------------------------------
# The D1 case, reproduced on QEMU: no Sstc (`-cpu rv64,sstc=off`) and a device tree without
# the CLINT node, so OpenSBI has no timer driver and its set_timer is broken. The kernel
# must notice and take its timer interrupts from a device through the PLIC instead: on
# QEMU the Goldfish RTC's alarm (drivers/timer/goldfish_alarm.c, standing in for the
# D1's timer block, which is tested against a register model in
# tests/host/test_sun20i_timer.c). `-rtc clock=vm` puts the RTC on the virtual clock.

NO_SSTC = ["-cpu", "rv64,sstc=off"]


def _device_tree(tmp_path, smp, remove):
    """QEMU virt's own DTB for `smp` harts without Sstc, minus the nodes in `remove`."""
    dtb = tmp_path / f"virt-smp{smp}.dtb"
    subprocess.run([duplex_qemu.QEMU_BINARY, "-M", f"virt,dumpdtb={dtb}", "-m", "256M",
                    "-smp", str(smp), *NO_SSTC, "-nographic"],
                   check=True, capture_output=True)
    for node in remove:
        subprocess.run(["fdtput", "-r", str(dtb), node], check=True)
    return dtb


def boot_without_firmware_timer(image, request, tmp_path, append, smp=2,
                                remove=("/soc/clint@2000000",)):
    dtb = _device_tree(tmp_path, smp, remove)
    name = duplex_qemu.sanitize_name(request.node.name)
    status, text = duplex_qemu.run_to_exit(
        image, append=append, smp=smp, icount=True, timeout=120, name=name,
        extra=[*NO_SSTC, "-dtb", dtb, "-rtc", "clock=vm"])
    return status, "\n".join(line for line in text.splitlines() if line.startswith("["))


@pytest.mark.parametrize("selftest", ["timers", "sched", "wakers"])
def test_broken_sbi_timer_falls_back_to_a_device_timer(image, request, tmp_path, selftest):
    status, log = boot_without_firmware_timer(image, request, tmp_path,
                                              f"selftest={selftest}")
    assert "timer: SBI set_timer interrupts long before the deadline" in log
    assert "timer: goldfish RTC alarm, timebase 10000000 Hz" in log
    # One alarm serves one hart: the second is left offline, and said so.
    assert "serves 1 hart(s); the other 1 stay offline" in log
    assert "1 of 2 harts online" in log
    assert f"selftest {selftest}: PASS" in log
    assert status == 0


def test_firmware_without_time_uses_the_legacy_set_timer(image, request, tmp_path):
    """A firmware with only SBI 0.1's set_timer (EID 0x00): sbi.test.no_time=1 makes the
    kernel take QEMU's OpenSBI as having no TIME extension, and with no Sstc the legacy
    call, checked, is the timer; every hart has it."""
    status, log = boot_without_firmware_timer(image, request, tmp_path,
                                              "selftest=timers sbi.test.no_time=1", remove=())
    steps = ["timer: sstc: not every hart has Sstc",
             "timer: sbi: the firmware has no SBI TIME extension",
             "timer: legacy SBI set_timer, timebase 10000000 Hz"]
    assert [log.find(step) for step in steps] == sorted(log.find(step) for step in steps)
    assert -1 not in [log.find(step) for step in steps], log
    assert "trying the next source" not in log
    assert "2 of 2 harts online" in log
    assert "selftest timers: PASS" in log
    assert status == 0


def test_a_broken_legacy_set_timer_is_skipped_too(image, request, tmp_path):
    """No TIME and no CLINT node: the legacy call is checked like TIME and found to fire
    at once (OpenSBI never wrote the comparator), so the device timer is taken."""
    status, log = boot_without_firmware_timer(image, request, tmp_path,
                                              "selftest=timers sbi.test.no_time=1")
    steps = ["timer: sbi: the firmware has no SBI TIME extension",
             "timer: legacy SBI set_timer interrupts long before the deadline",
             "timer: goldfish RTC alarm, timebase 10000000 Hz"]
    found = [log.find(step) for step in steps]
    assert -1 not in found and found == sorted(found), log
    assert "selftest timers: PASS" in log
    assert status == 0


def test_programs_run_on_the_device_timer(image, request, tmp_path):
    # User space on the fallback: sleeps (timers), the async console's TX path and exit.
    status, log = boot_without_firmware_timer(
        image, request, tmp_path, "init=/bin/sleep -- 0.05")
    assert "timer: goldfish RTC alarm" in log
    assert "/bin/sleep exited with status 0" in log
    assert status == 0


def test_no_timer_at_all_is_a_clear_panic(image, request, tmp_path):
    status, log = boot_without_firmware_timer(
        image, request, tmp_path, "selftest=timers",
        remove=("/soc/clint@2000000", "/soc/rtc@101000"))
    assert "PANIC: no timer: no Sstc, no working SBI timer and no known timer" in log
    assert status == PANIC_STATUS


def test_timer_choice_on_the_command_line(image, request):
    # Forced onto the device timer although Sstc works: one hart, timers still in order.
    status, text = duplex_qemu.run_to_exit(
        image, append="selftest=timers timer=goldfish", smp=4, icount=True, timeout=120,
        name=duplex_qemu.sanitize_name(request.node.name), extra=["-rtc", "clock=vm"])
    log = text
    assert "timer: goldfish RTC alarm" in log
    assert "1 of 4 harts online" in log
    assert "selftest timers: PASS" in log
    assert status == 0
    # Asked for one the machine lacks: said so, and the default (Sstc) is used. -icount,
    # as in test_timers_fire_in_deadline_order: without it the guest's clock is the
    # host's, and a host that stalls the vCPU thread shifts the self-test's deadlines
    # against its arming (the sleepers' 20 ms head start in kernel/selftest/timers.c is
    # there for that); virtual time leaves the order checks nothing to race.
    status, lines, _ = boot(image, request, smp=1, append="selftest=timers timer=sun20i",
                            icount=True, suffix="-sun20i")
    log = "\n".join(lines)
    assert "timer=sun20i: not available on this machine; using the default" in log
    assert "timer: sstc stimecmp" in log
    assert status == 0
