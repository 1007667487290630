"""What the lab grading tests share: boot a guest to the end of its first program and
read what it printed (bench's BENCH lines, consolestat's counters, conpattern's check).

Every run that measures uses -icount (1 ns of virtual time per instruction, idle time
skipped), so the counts, ratios and virtual times a test asserts are the same on every
machine for the same build. The timeouts only catch a hung guest (a lab's starting state
may hang: that is what some labs are about); nothing is asserted about wall-clock time.

A failure says why, for a student to read in `make grade`'s table: `expect` names the
number it expected and the one it got (and how the expected one is made up), and every
message ends with the guest log's path and, if the kernel panicked, its `PANIC` line.
One boot serves several tests: `bench` and `pattern_run` remember their runs for the
rest of the pytest session, so tests that read the same run share it.
"""

import json
import re

import duplex_qemu

HANG_TIMEOUT = 60  # seconds: a guest that has not finished by then is stuck (a correct
                   # run takes a few)
LOG_DIR = "build/test-logs"

_runs = {}  # (image, append, smp) -> Run, for the session


class Run:
    """One guest run: its exit status, output text and log path."""

    def __init__(self, status, text, log):
        self.status, self.text, self.log = status, text, log

    def panic(self):
        """The kernel's PANIC line, or None."""
        found = re.search(r"^.*PANIC[^\r\n]*", self.text, re.M)
        return found.group().strip() if found else None

    def where(self):
        """The end of every failure message: the log, and the panic if there was one."""
        panic = self.panic()
        return f"\nguest log: {self.log}" + (f"\nthe kernel panicked: {panic}" if panic else "")


def boot(request, image, append, smp=2, icount=True, suffix=""):
    """Boot with `append`, wait for the first program to exit; returns a Run (the same
    one for the same arguments later in the session). A guest that does not exit is
    killed and the test fails, naming its log and its last lines."""
    key = (str(image), append, smp, icount)
    if key in _runs:
        return _runs[key]
    name = duplex_qemu.sanitize_name(request.node.name + suffix)
    with duplex_qemu.Guest(image, smp=smp, append=append, icount=icount, name=name,
                           log_dir=LOG_DIR, interactive=False) as guest:
        log = guest.log_path
        try:
            status = guest.wait_exit(HANG_TIMEOUT)
        except duplex_qemu.GuestTimeout:
            text = guest.output.decode("latin-1")
            run = Run(None, text, log)
            last = "\n".join("    " + line for line in text.strip().splitlines()[-4:])
            raise AssertionError(
                f"the guest never finished ({append!r}): its output stopped after\n{last}"
                f"{run.where()}") from None
        run = Run(status, guest.output.decode("latin-1"), log)
    _runs[key] = run
    return run


def expect(run, what, got, expected, why=""):
    """Fail unless got == expected, saying `what = got, expected E (why)`."""
    if got != expected:
        raise AssertionError(f"{what} = {got}, expected {expected}"
                             + (f" ({why})" if why else "") + run.where())


def expect_at_most(run, what, got, limit, why=""):
    """Fail unless got <= limit, saying `what = got, expected at most L (why)`."""
    if not got <= limit:
        raise AssertionError(f"{what} = {got}, expected at most {limit}"
                             + (f" ({why})" if why else "") + run.where())


def expect_at_least(run, what, got, limit, why=""):
    if not got >= limit:
        raise AssertionError(f"{what} = {got}, expected at least {limit}"
                             + (f" ({why})" if why else "") + run.where())


def bench(request, image, console, sections, line=None, extra="", smp=2):
    """Run `bench --quick --sections SECTIONS` on `console` (over the line model at
    `line` baud if given); returns (run, {section: [result dicts]}) after checking it
    ran clean: exit 0, no failed section, no panic, no line-model overrun."""
    append = f"console={console} " + (f"uart.line={line} " if line else "") + extra + \
        f" init=/bin/bench -- --quick --sections {sections}"
    run = boot(request, image, append, smp=smp)
    results, damaged = {}, 0
    for line_text in re.findall(r"BENCH (\{.*\})", run.text):
        try:
            record = json.loads(line_text)
        except json.JSONDecodeError:
            damaged += 1  # a line another hart's output broke into, or bytes lost
            continue
        results.setdefault(record["section"], []).append(record)
    if "end" not in results and (damaged or "BENCH {" in run.text):
        raise AssertionError(
            f"bench's output arrived damaged on console={console}: bytes lost or "
            f"reordered on the way to the wire (expected every BENCH line whole, got "
            f"{damaged} that are not valid JSON and no end line){run.where()}")
    end = results.get("end", [{}])[-1]
    expect(run, "line_overruns", end.get("line_overruns", 0), 0,
           "bytes put into a full FIFO: ask tx_room how many the UART takes")
    if run.panic():
        raise AssertionError(
            f"bench on console={console}: the kernel panicked: {run.panic()} (expected exit "
            f"status 0, got {run.status}){run.where()}")
    if run.status != 0 or end.get("failures") != 0:
        raise AssertionError(
            f"bench on console={console}: expected exit status 0 and no failed section, "
            f"got exit status {run.status}, failed sections "
            f"{end.get('failed_sections', '(bench never finished)')!r}{run.where()}")
    return run, results


def workload(run, results, section, **match):
    """The one result of `section` whose fields equal `match` (e.g. workload="burst")."""
    found = [r for r in results.get(section, [])
             if all(r.get(k) == v for k, v in match.items())]
    if len(found) != 1:
        raise AssertionError(f"bench printed {len(found)} {section} results with {match}, "
                             f"expected 1{run.where()}")
    return found[0]


def pattern(length):
    """The bytes user/conpattern.c writes: pattern_byte(i) for i in 0..length-1."""
    return bytes(((i * 7 + (i >> 8) * 13 + (i >> 16)) & 0xFF) for i in range(length))


def pattern_run(request, image, console, length, line=None, smp=2, icount=True):
    """conpattern: `length` bytes in one write and in pieces, then tcdrain. Checks that
    they arrived byte for byte, none put into a full FIFO (over the line model), nothing
    left queued after tcdrain, no panic. Returns the run."""
    append = f"console={console} " + (f"uart.line={line} " if line else "") + \
        f"init=/bin/conpattern -- both {length}"
    run = boot(request, image, append, smp=smp, icount=icount)
    raw = run.text.encode("latin-1")
    if run.panic():
        raise AssertionError(f"console={console}: the kernel panicked while "
                             f"{length} bytes were written{run.where()}")
    begin = raw.find(b"PATTERN-BEGIN\n")
    end = raw.find(b"\r\nPATTERN-END")
    if begin < 0 or end < 0:
        raise AssertionError(f"console={console}: conpattern's output never "
                             f"{'began' if begin < 0 else 'ended'} (exit status "
                             f"{run.status}){run.where()}")
    received = raw[begin + len(b"PATTERN-BEGIN\n"):end]
    expect(run, "bytes arrived", len(received), length, "every byte written")
    first_bad = next((i for i, (a, b) in enumerate(zip(received, pattern(length)))
                      if a != b), None)
    if first_bad is not None:
        raise AssertionError(f"byte {first_bad} differs: got {received[first_bad]:#04x}, "
                             f"expected {pattern(length)[first_bad]:#04x}{run.where()}")
    queued = re.search(rb"queued-after-drain=(\d+)", raw)
    expect(run, "queued-after-drain", int(queued.group(1)) if queued else None, 0,
           "tcdrain returned with output still queued")
    overruns = re.search(rb"line-overruns=(\d+)", raw)
    expect(run, "line-overruns", int(overruns.group(1)) if overruns else None, 0,
           "bytes put into a full FIFO: ask tx_room how many the UART takes")
    expect(run, "conpattern's exit status", run.status, 0)
    return run


def consolestat(text):
    """consolestat's counters from the output: {name: value} (the last table printed)."""
    counters = {}
    for name, value in re.findall(r"^([a-z_]+) +(\d+)\r?$", text, re.M):
        counters[name] = int(value)
    return counters
