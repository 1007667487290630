"""What a student hits first works and explains itself: single quotes in INIT, a line
model baud the UART clock cannot reach, consolestat's counters, and the program list in
`help`, in user/ and in the README being the same.
"""

import re
import subprocess
from pathlib import Path

import duplex_qemu

REPO = Path(__file__).resolve().parent.parent


def make_run(*variables):
    result = subprocess.run(["make", "-s", "run", "ICOUNT=1", *variables], cwd=REPO,
                            stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    return result.returncode, result.stdout.decode("latin-1")


def boot(request, append):
    status, text = duplex_qemu.run_to_exit(
        REPO / "build" / "qemu-virt" / "Image", append=append, smp=1, icount=True,
        name=duplex_qemu.sanitize_name(request.node.name))
    return status, text if isinstance(text, str) else text.decode("latin-1")


def test_single_quotes_in_init():
    status, out = make_run("INIT=sh -c 'echo hi there'")
    assert status == 0, out[-2000:]
    assert re.search(r"^hi there\r?$", out, re.M), out[-2000:]
    # Double quotes, as the README shows, still work.
    status, out = make_run('INIT=sh -c "echo in double quotes"')
    assert status == 0 and "in double quotes" in out


# An unreachable line baud is explained at boot: tests/test_line_model.py
# (test_unreachable_baud_is_reported_as_the_actual_one).


def test_consolestat_explains_every_counter(request):
    status, text = boot(request, "console=async init=/bin/consolestat")
    printed = re.findall(r"^([a-z_]+) +\d+\r?$", text, re.M)
    assert status == 0 and len(printed) == 28, printed
    status, text = boot(request, "console=async init=/bin/consolestat -- -h")
    explained = re.findall(r"^  ([a-z_]+) {2,}\S", text, re.M)
    assert status == 0 and explained == printed, (explained, printed)
    status, text = boot(request, "console=async init=/bin/consolestat -- -x")
    assert status == 2 and "consolestat: unknown option -x" in text
    assert "usage: consolestat [-r] [-h]" in text


def programs_in_user():
    makefile = (REPO / "user" / "user.mk").read_text()
    programs = set()
    for variable in ("USER_PROGRAMS", "USER_FOLDER_PROGRAMS", "USER_FP_PROGRAMS"):  # all go to /bin
        match = re.search(rf"^{variable} := ((?:.*\\\n)*.*)$", makefile, re.M)
        programs |= set(match.group(1).replace("\\", " ").split())
    return programs


def test_help_readme_and_user_agree(request):
    programs = programs_in_user()
    # user/NAME.c, or a folder user/NAME/ of several files (bench)
    assert {p for p in programs if (REPO / "user" / f"{p}.c").is_file()
            or (REPO / "user" / p / "main.c").is_file()} == programs
    status, text = boot(request, "console=async init=/bin/sh -- -c help")
    listed = re.search(r"^programs:(.*)\r?$", text, re.M)
    assert listed, text[-1500:]
    assert set(listed.group(1).split()) == programs
    readme = (REPO / "README.md").read_text()
    paragraph = re.search(r"In the shell, `help` lists what is in `/bin`:(.*?)\n\n", readme,
                          re.S).group(1)
    named = {span.split()[0] for span in re.findall(r"`([^`]+)`", paragraph)}
    named -= {"-r", "-h", "user/", "help"}
    assert named == programs, f"README lacks {programs - named}, has extra {named - programs}"


def test_uart_baud_out_of_range_is_refused(request):
    # 4294967297 = 2^32 + 1 once became 1 baud silently; now it is refused, said, and the
    # default kept.
    status, text = boot(request, "console=async uart.baud=4294967297 init=/bin/echo -- hi")
    assert status == 0
    assert "uart.baud: above 4294967295, using 115200" in text
    assert re.search(r"uart: ns16550a at 0x10000000, clock \d+ Hz, 115200 baud", text)
    assert re.search(r"^hi\r?$", text, re.M)
