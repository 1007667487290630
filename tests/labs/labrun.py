"""What the lab grading tests share: boot a guest to the end of its first program and
read what it printed (bench's BENCH lines, consolestat's counters, conpattern's check).

Every run that measures uses -icount (1 ns of virtual time per instruction, idle time
skipped), so the counts and ratios a test asserts are the same on every machine for the
same build. The timeouts only catch a hung guest (a lab's starting state may hang: that
is what some labs are about); nothing is asserted about wall-clock time.
"""

import json
import re

import duplex_qemu

HANG_TIMEOUT = 60  # seconds: a guest that has not finished by then is stuck (a correct
                   # run takes a few)


def boot(request, image, append, smp=2, icount=True, suffix=""):
    """Boot with `append`, wait for the first program to exit; returns (status, text).
    A guest that does not exit is killed and the test fails, naming its log."""
    name = duplex_qemu.sanitize_name(request.node.name + suffix)
    with duplex_qemu.Guest(image, smp=smp, append=append, icount=icount, name=name,
                           interactive=False) as guest:
        try:
            status = guest.wait_exit(HANG_TIMEOUT)
        except duplex_qemu.GuestTimeout:
            raise AssertionError(
                f"the guest never finished ({append!r}): output stopped, see "
                f"build/test-logs/{name}.log") from None
        return status, guest.output.decode("latin-1")


def bench(request, image, console, sections, line=None, extra="", smp=2, suffix=""):
    """Run `bench --quick --sections SECTIONS` on `console` (over the line model at
    `line` baud if given); returns {section: [result dicts]} after checking it ran clean."""
    append = f"console={console} " + (f"uart.line={line} " if line else "") + extra + \
        f" init=/bin/bench -- --quick --sections {sections}"
    status, text = boot(request, image, append, smp=smp, suffix=suffix)
    results = {}
    for line_text in re.findall(r"BENCH (\{.*\})", text):
        record = json.loads(line_text)
        results.setdefault(record["section"], []).append(record)
    end = results.get("end", [{}])[-1]
    assert status == 0 and end.get("failures") == 0, \
        f"bench did not run clean (status {status}, end {end})\n{text[-2000:]}"
    return results


def workload(results, section, **match):
    """The one result of `section` whose fields equal `match` (e.g. workload="burst")."""
    found = [r for r in results.get(section, [])
             if all(r.get(k) == v for k, v in match.items())]
    assert len(found) == 1, f"{section} {match}: {len(found)} results"
    return found[0]


def pattern(length):
    """The bytes user/conpattern.c writes: pattern_byte(i) for i in 0..length-1."""
    return bytes(((i * 7 + (i >> 8) * 13 + (i >> 16)) & 0xFF) for i in range(length))


def pattern_run(request, image, console, length, line=None, smp=2, icount=False):
    """conpattern: `length` bytes in one write and in pieces, then tcdrain. Checks that
    they arrived byte for byte; returns (the received bytes' count, queued after drain)."""
    append = f"console={console} " + (f"uart.line={line} " if line else "") + \
        f"init=/bin/conpattern -- both {length}"
    status, text = boot(request, image, append, smp=smp, icount=icount)
    raw = text.encode("latin-1")
    assert status == 0, f"conpattern exited {status}"
    start = raw.index(b"PATTERN-BEGIN\n") + len(b"PATTERN-BEGIN\n")
    end = raw.index(b"\r\nPATTERN-END")
    received = raw[start:end]
    assert len(received) == length, f"{len(received)} bytes arrived, {length} written"
    first_bad = next((i for i, (a, b) in enumerate(zip(received, pattern(length)))
                      if a != b), None)
    assert first_bad is None, f"byte {first_bad} differs"
    queued = re.search(rb"queued-after-drain=(\d+)", raw)
    return len(received), int(queued.group(1))


def consolestat(text):
    """consolestat's counters from the output: {name: value} (the last table printed)."""
    counters = {}
    for name, value in re.findall(r"^([a-z_]+) +(\d+)\r?$", text, re.M):
        counters[name] = int(value)
    return counters
