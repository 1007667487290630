"""The board check (boot option `boardcheck`, /bin/boardcheck, tools/boardcheck) on logs
made in QEMU: one boot where everything holds, one with the UART's TX interrupt
suppressed (`uart.test.no_tx_irq=1`, test-only), where the kernel's TX interrupt check
fails, the console falls back to polling, and the tool says to boot with
console=polling. Then the tool alone on logs cut where a board would stop.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
TOOL = REPO_ROOT / "tools" / "boardcheck"


def run_tool(log_path):
    return subprocess.run([sys.executable, str(TOOL), str(log_path)], capture_output=True,
                          text=True)


def board_check_boot(image, guest_factory, append=""):
    """One boardcheck boot, answering the RX echo as a student would; the log's path."""
    guest = guest_factory(image, smp=1, append=f"boardcheck {append}".strip()).start()
    guest.wait_for(r"BOARDCHECK rx-echo: type duplex and press Enter", timeout=120)
    guest.send("duplex\r")
    status = guest.wait_exit(timeout=120)
    return status, guest.log_path, guest.text


def verdicts(output):
    return {line.split()[1].rstrip(":"): line.split()[0] for line in output.splitlines()
            if line.split() and line.split()[0] in ("PASS", "FAIL", "SKIP", "MISSING")}


def test_board_check_passes(image, guest_factory):
    status, log, text = board_check_boot(image, guest_factory)
    assert "boardcheck: kernel self-tests PASS" in text
    assert "BOARDCHECK rx-echo PASS (received \"duplex\")" in text
    # QEMU has no watchdog: /bin/boardcheck read the kernel's line and skips the item.
    assert "BOARDCHECK watchdog SKIP (watchdog: none in the device tree)" in text
    # The kernel's timer and PLIC lines, read back from its log by /bin/boardcheck.
    assert "BOARDCHECK timer PASS (timer: sstc stimecmp, timebase 10000000 Hz)" in text
    assert re.search(r"BOARDCHECK plic PASS \(plic: riscv,plic0 at 0xc000000, \d+ sources\)",
                     text), text
    assert "BOARDCHECK done passed=5 failed=0" in text
    assert status == 0
    result = run_tool(log)
    expected = {item: "PASS" for item in ["boot", "uart", "timer", "plic", "tx-interrupt",
                                          "selftests", "init", "bench", "rx-echo"]}
    assert verdicts(result.stdout) == expected | {"watchdog": "SKIP"}, result.stdout
    assert "SKIP    watchdog: watchdog: none in the device tree" in result.stdout
    assert "PASS    init: starting /bin/boardcheck" in result.stdout
    assert "10 of 10 held" in result.stdout
    assert "try next" not in result.stdout
    assert result.returncode == 0


def test_board_check_without_tx_interrupt(image, guest_factory):
    status, log, text = board_check_boot(image, guest_factory, "uart.test.no_tx_irq=1")
    assert "console: TX interrupt check: FAIL: no TX interrupt from the UART (irq 10)" in text
    # The patience counts only time with room in the UART; the line says what it saw.
    assert re.search(r"console: async: 20\d ms with room in the UART \(THRE\) and no TX "
                     r"interrupt counted \(\d+ ms in all\); irq 10 handled \d+ times", text), \
        text[-3000:]
    assert "console: polling" in text
    # Polled, the rest of the check still runs and passes.
    assert "BOARDCHECK tx-interrupt SKIP (console is polling)" in text
    assert "BOARDCHECK done passed=4 failed=0" in text
    assert status == 0
    result = run_tool(log)
    found = verdicts(result.stdout)
    assert found.pop("tx-interrupt") == "FAIL", result.stdout
    assert found.pop("watchdog") == "SKIP", result.stdout
    assert set(found.values()) == {"PASS"}, result.stdout
    assert "9 of 10 held" in result.stdout
    assert "Boot with console=polling" in result.stdout
    assert result.returncode == 1


@pytest.mark.parametrize("cut,failing,hint", [
    # The breadcrumbs end at "UART up" and nothing follows: the divisor.
    ("boot: UART up", "boot", "uart.baud=0"),
    # The SBI timer check failed: the firmware's timer.
    ("sbi-timer", "timer", "timer=sun20i"),
    # The D1's watchdog would not stop (the kernel's own words, sunxi_wdt_probe.c).
    ("watchdog", "watchdog", "watchdog=feed"),
    # The firmware left the T-Head PLIC closed to S-mode (drivers/irqchip/plic.c's words).
    ("plic", "plic", "thead,c900-plic"),
    # The first program could not be started (kernel/boot/main.c's words).
    ("init", "init", "check INIT=/CMDLINE="),
])
def test_tool_on_a_board_that_stops(image, guest_factory, tmp_path, cut, failing, hint):
    _, log, text = board_check_boot(image, guest_factory)
    lines = text.replace("\r\n", "\n").split("\n")
    if cut == "sbi-timer":
        # As on a D1 with OpenSBI 1.1: the kernel's own words (kernel/boot/timer_choice.c).
        at = next(i for i, line in enumerate(lines) if "timer: " in line)
        stamp = lines[at][:lines[at].index("timer: ")]
        lines[at:at + 1] = [stamp + "timer: SBI set_timer raised no interrupt when due "
                                    "(firmware without a timer driver, or the interrupt "
                                    "does not reach this hart?); trying the next source",
                            stamp + "timer: sun20i timer block, timebase 24000000 Hz"]
    elif cut == "plic":
        at = next(i for i, line in enumerate(lines) if "plic: " in line)
        stamp = lines[at][:lines[at].index("plic: ")]
        lines[at] = (stamp + "plic: thead,c900-plic at 0x10000000: S-mode writes do not reach "
                     "it (source 1's priority read back 0 after writing 1): the firmware did "
                     "not give S-mode access (T-Head PLIC_CTRL at +0x1ffffc). Without it there "
                     "are no device interrupts: the async console falls back to polling and "
                     "the D1 timer block cannot be the timer")
    elif cut == "init":
        at = next(i for i, line in enumerate(lines) if "program archive: " in line)
        stamp = lines[at][:lines[at].index("program archive: ")]
        lines.insert(at + 1, stamp + "cannot start /bin/boardcheck: no such program in the "
                     "program archive (error 2); starting /bin/sh instead")
    elif cut == "watchdog":
        at = next(i for i, line in enumerate(lines) if "watchdog: " in line)
        stamp = lines[at][:lines[at].index("watchdog: ")]
        lines[at] = (stamp + "watchdog: allwinner,sun20i-d1-wdt at 0x6011000: firmware left it "
                     "running, 16.0 s (MODE 0xb1); STILL RUNNING: it did not stop, the board "
                     "will reset")
    else:
        lines = lines[:next(i for i, line in enumerate(lines) if line.startswith(cut)) + 1]
    edited = tmp_path / "board.log"
    edited.write_text("\n".join(lines))
    result = run_tool(edited)
    assert verdicts(result.stdout)[failing] == "FAIL", result.stdout
    assert hint in result.stdout
    assert result.returncode == 1
