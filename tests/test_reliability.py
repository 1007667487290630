"""QEMU system tests of reliability and security (issue 8): nothing is lost and nobody gets
in, under load, faults and bad input.

* Integrity under load: 16 writers (4 per hart on 4 harts) write tagged, CRC-checked
  records of 1 B - 8 KiB through write() and writev() (user/loadwriter.c); the host
  checks every piece of every record, in order, on both backends, with and without the
  host flooding RX at the same time.
* RX flood: a reader that keeps up gets every byte in order; with no reader the system
  stays responsive, the truth about what happened to the bytes is asserted (the async
  backend drops and counts them, the polling backend leaves them to QEMU, which holds
  them back), and the shell works afterwards (user/rxcheck.c).
* Syscall fuzzing: user/fuzz.c makes at least 1 000 000 random system calls from 8
  processes pinned over 4 harts; every result must be valid or a Linux errno, every
  hart must stay online (the fuzzer looks every 64 calls of each child and at the end),
  and a normal program and the console work afterwards. clone, execve and broken signal
  frames run in children of their own; the kernel's kill reports must equal the
  children killed on purpose.
* Isolation: the faults tests/test_user.py does not already cover (writing a CSR,
  sfence.vma, mret, reading MMIO and the kernel's direct map, executing data, reading
  another program's memory) each kill only the program, with the one-line report; and
  a new program cannot read a dead one's memory through a TLB entry a hart kept
  (user/stalemap.c, which found a kernel bug).
* Exit races: parents and children exiting at once (user/exitrace.c; with a kernel
  built to widen the windows it showed the two exit-path bugs fixed in process.c).
* Resource exhaustion: chains of processes and of heap hogs run memory out; spawn fails
  with ENOMEM/EAGAIN, every round gets the same (no pages lost), and the shell carries
  on; spinners pinned to every hart do not starve the shell or the console.
* Fault injection (`exhaust faults`): broken signal frames, bad clones and execves, bad
  pipe2/dup3/fcntl/ppoll/pselect6 arguments, a full descriptor table, tmpfs full: Linux's
  errno or a SIGSEGV kill each, and the same free pages and descriptors every round.
* Emergency path: a kernel fault while the async TX ring is full prints everything queued
  and then the whole report (selftest=panic-full-ring).

`make test` runs the short versions; `make soak` (tests/soak.mk) sets DUPLEX_SOAK=1 and
runs the long ones: 256 MiB of records, 1 MiB RX floods, 20 million fuzzed calls.
DUPLEX_FUZZ_SEED=N replays a fuzz run (the seed is in the guest's log and the failure).
Every guest's serial log is in build/test-logs/. No timing thresholds: counts, bytes,
orderings and states only (the timeouts only stop hung guests).
"""

import os
import random
import re
import select
import socket
import threading
import zlib

import pytest

SOAK = os.environ.get("DUPLEX_SOAK") == "1"
PANIC_STATUS = 100  # kernel/power/power.h POWER_STATUS_PANIC
PROMPT = rb"\$ "
BACKENDS = ["polling", "async"]

# Linux signal numbers and the shell's report of a kill.
SIGILL, SIGSEGV = 4, 11
SIGNAL_NAMES = {SIGILL: "SIGILL", SIGSEGV: "SIGSEGV"}


def scaled(short, soak):
    """The short value under `make test`, the long one under `make soak`."""
    return soak if SOAK else short


# ------------------------------------------------------------------ helpers

def shell(guest, line, expect, timeout=60):
    """Type `line` at the prompt, wait for the regex `expect`, then for the next prompt.
    Returns the match of `expect`."""
    guest.send(line)
    match = guest.wait_for(expect, timeout=timeout)
    guest.wait_for(PROMPT, timeout=timeout)
    return match


def boot_shell(guest_factory, image, backend, smp=4):
    """An interactive guest at its first shell prompt."""
    guest = guest_factory(image, smp=smp, append=f"console={backend}").start()
    guest.wait_for(PROMPT, timeout=60)
    return guest


def telemetry(guest):
    """Run consolestat at the prompt; its counters as a dict."""
    guest.send("consolestat\n")
    counters = {}
    for _ in range(16):
        match = guest.wait_for(rb"([a-z_]+)\s+(\d+)\r?\n", timeout=60)
        counters[match.group(1).decode()] = int(match.group(2))
    guest.wait_for(PROMPT, timeout=60)
    return counters


def idle_byte(i):
    """user/rxcheck.c rx_idle_byte: lowercase letters, never the terminator '!'."""
    return ord("a") + (i * 7 + (i >> 5)) % 26


def idle_bytes(start, length):
    return bytes(idle_byte(i) for i in range(start, start + length))


def flood_byte(i):
    """user/rxcheck.c rx_flood_byte: every byte value, no short period."""
    return (i * 131 + (i >> 8) * 7 + (i >> 16)) & 0xFF


class RxFlood(threading.Thread):
    """Send rx_idle bytes to a guest's serial input as fast as QEMU takes them, until
    stop() (or `limit` bytes). Non-blocking sends: when the guest does not read, QEMU
    stops reading its socket and this thread just waits, so stop() always returns.
    The socket's send buffer is made small, so little sits in it unsent."""

    CHUNK = 4096

    def __init__(self, guest, limit=None):
        super().__init__(name=f"flood-{guest.name}", daemon=True)
        # Guest has no public way to send without blocking: use its socket directly.
        self.sock = guest._sock
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        self.limit = limit
        self.sent = 0
        self.error = None
        self._stopping = threading.Event()

    def run(self):
        try:
            while not self._stopping.is_set() and (self.limit is None or self.sent < self.limit):
                _, writable, _ = select.select([], [self.sock], [], 0.05)
                if not writable:
                    continue
                want = self.CHUNK if self.limit is None else min(self.CHUNK,
                                                                  self.limit - self.sent)
                try:
                    self.sent += self.sock.send(idle_bytes(self.sent, want), socket.MSG_DONTWAIT)
                except BlockingIOError:
                    continue
        except OSError as error:  # the guest went away
            self.error = error

    def stop(self):
        self._stopping.set()
        self.join(10)
        assert not self.is_alive(), "flood thread did not stop"
        return self.sent


# ------------------------------------------------------------------ integrity under load

WRITERS = 16
# Payload bytes per guest. Two guests (polling, async) per run: 16 MiB in all under
# `make test`, 256 MiB under `make soak`. The flood runs write less: their output comes
# through the serial socket, which costs the host far more per byte than a log file.
LOAD_BYTES = {False: scaled(6 << 20, 96 << 20), True: scaled(2 << 20, 32 << 20)}
FRAME_SIZE = 4096

FRAME = re.compile(rb"<(\d+):(\d+):(\d):(\d):(\d+):([a-z]*):([0-9a-f]{8})>\r\n")
WRITER_END = re.compile(rb"LOADWRITER-END w=(\d+) records=(\d+) payload=(\d+)\r\n")
KERNEL_LINE = re.compile(rb"\[\s*\d+\.\d{6}\] h\d+ [^\r\n]*\r\n")


def verify_records(output, writers):
    """Check user/loadwriter.c's output, every byte between LOADWRITER-BEGIN and
    LOADWRITER-DONE: it must be frames, writers' end lines and kernel log lines only,
    each frame whole (all but a record's last exactly 4096 bytes as written), CRC
    correct, and every writer's frames in order: record 0 frame 0.., record 1 ...,
    nothing missing, repeated or extra. Returns (records, frames, bytes checked)."""
    begin = re.search(rb"LOADWRITER-BEGIN [^\r\n]*\r\n", output)
    done = output.find(b"LOADWRITER-DONE ")
    assert begin and done > begin.end(), "no LOADWRITER-BEGIN ... LOADWRITER-DONE"
    # Per writer: next record, next frame, the record's frame count and payload so far.
    state = {w: {"record": 0, "frame": 0, "frames": None, "length": None, "payload": 0,
                 "total": 0, "ended": False} for w in range(writers)}
    frames = checked = 0
    position = begin.end()
    while position < done:
        match = FRAME.match(output, position)
        if match:
            writer, record, frame, count, length = (int(g) for g in match.groups()[:5])
            payload, crc = match.group(6), int(match.group(7), 16)
            where = f"writer {writer} record {record} frame {frame} at offset {position}"
            assert writer in state, where
            s = state[writer]
            assert not s["ended"], f"{where}: after the writer's end line"
            assert (record, frame) == (s["record"], s["frame"]), \
                f"{where}: expected record {s['record']} frame {s['frame']}"
            assert zlib.crc32(payload) == crc, f"{where}: CRC mismatch"
            assert 1 <= count <= 3 and frame < count, where
            if frame == 0:
                s["frames"], s["length"], s["payload"] = count, length, 0
            assert (count, length) == (s["frames"], s["length"]), f"{where}: header changed"
            # As written, a frame ends in "\n"; the console made it "\r\n".
            written = match.end() - position - 1
            if frame < count - 1:
                assert written == FRAME_SIZE, f"{where}: {written} bytes, not {FRAME_SIZE}"
            else:
                assert written <= FRAME_SIZE, where
            s["payload"] += len(payload)
            if frame == count - 1:
                assert s["payload"] == length, f"{where}: payload {s['payload']} != {length}"
                s["total"] += length
                s["record"], s["frame"] = record + 1, 0
            else:
                s["frame"] = frame + 1
            frames += 1
            checked += match.end() - position
            position = match.end()
            continue
        match = WRITER_END.match(output, position)
        if match:
            writer, records, payload = (int(g) for g in match.groups())
            s = state[writer]
            assert (s["record"], s["frame"]) == (records, 0), \
                f"writer {writer}: ended with {records} records, saw {s['record']}"
            assert s["total"] == payload, f"writer {writer}: payload {s['total']} != {payload}"
            s["ended"] = True
            position = match.end()
            continue
        match = KERNEL_LINE.match(output, position)
        if match:
            position = match.end()
            continue
        pytest.fail(f"unparsable output at offset {position}: {output[position:position + 200]!r}")
    assert all(s["ended"] for s in state.values()), "a writer never printed its end line"
    records = sum(s["record"] for s in state.values())
    return records, frames, checked


@pytest.mark.parametrize("flood", [False, True], ids=["quiet", "rx-flood"])
def test_records_survive_load(image, guest_factory, flood):
    """Both backends at once (two QEMUs), each with 16 writers on 4 harts."""
    guests, floods = {}, {}
    for backend in BACKENDS:
        guests[backend] = guest_factory(
            image, smp=4, interactive=flood,
            append=f"console={backend} init=/bin/loadwriter -- {WRITERS} "
                   f"{LOAD_BYTES[flood]} {7 + flood}").start()
        if flood:
            floods[backend] = RxFlood(guests[backend])
            floods[backend].start()
    timeout = 120 + LOAD_BYTES[flood] / 20_000
    for backend, guest in guests.items():
        status = guest.wait_exit(timeout)
        sent = floods[backend].stop() if flood else 0
        output = guest.output
        assert b"LOADWRITER-DONE writers=16 failures=0" in output, backend
        assert status == 0, backend
        records, frames, checked = verify_records(output, WRITERS)
        payload = sum(int(p) for p in re.findall(rb"LOADWRITER-END w=\d+ records=\d+ "
                                                   rb"payload=(\d+)", output))
        assert payload >= LOAD_BYTES[flood]
        print(f"{backend}{' with RX flood' if flood else ''}: {records} records, "
              f"{frames} frames, {checked} bytes verified, {sent} bytes flooded")
        rx = re.search(rb"LOADWRITER-RX rx_bytes=(\d+) rx_overruns=(\d+)", output)
        assert rx, backend
        received, dropped = int(rx.group(1)), int(rx.group(2))
        if not flood:
            assert (received, dropped) == (0, 0)
        elif backend == "async":
            # The RX interrupt takes every byte QEMU offers; with nobody reading, the
            # 4 KiB ring fills and the rest is dropped and counted.
            assert 0 < received <= 4096 and dropped > 0
            assert received + dropped <= sent
        else:
            # Nobody reads. A writer waiting for room looks at the receiver (so that a
            # typed ^C reaches it), but only until the read buffer is nearly full (the
            # core's receive throttle, LINE_THROTTLE_ROOM = 128 bytes before its 4 KiB,
            # give or take the last 64-byte batch):
            # QEMU holds the rest back, and nothing is lost.
            assert dropped == 0 and received < 4096 - 128 + 64, (received, dropped)


# ------------------------------------------------------------------ RX flood

# The 8 drain-after-every-record writers share 64 KiB in `make test` (they all write and
# drain at once throughout), 256 KiB in `make soak` (about 90 s of one core per backend).
DRAIN_BYTES = scaled(64 << 10, 256 << 10)


@pytest.mark.parametrize("backend", BACKENDS)
def test_tcdrain_succeeds_while_others_write(image, guest_factory, backend):
    """tcdrain() waits for the console to go quiet, not for a moment that never comes:
    8 writers on 4 harts each drain after every record while the others keep the
    ring full, over the line model (a FIFO that takes real wire time to empty). Every
    drain must return 0 and every record still arrive whole and in order."""
    # -icount, output to a file: the line model's wire time and the drains' sleeps are
    # the guest's virtual time, so a host that stalls QEMU cannot make a drain late.
    guest = guest_factory(image, smp=4, icount=True, interactive=False,
                          append=f"console={backend} uart.line=1500000 "
                                 f"init=/bin/loadwriter -- -d 8 {DRAIN_BYTES} 11").start()
    status = guest.wait_exit(180)
    output = guest.output
    assert b"LOADWRITER-DRAIN-FAILED" not in output
    assert b"LOADWRITER-DONE writers=8 failures=0" in output
    assert status == 0
    records, frames, checked = verify_records(output, 8)
    print(f"{backend}: {records} records, each followed by a tcdrain, {checked} bytes")


RX_BYTES = {"polling": scaled(8 << 10, 1 << 20), "async": scaled(32 << 10, 1 << 20)}


def test_rx_flood_reader_gets_every_byte(image, guest_factory):
    """Both backends at once: the host sends as fast as QEMU accepts, a reader keeps up.
    QEMU takes one byte per RX round trip (RX trigger level 1), so the short version
    sends less than 1 MiB; `make soak` sends 1 MiB to each."""
    guests, senders = {}, {}
    for backend in BACKENDS:
        count = RX_BYTES[backend]
        guest = guest_factory(image, smp=4, append=f"console={backend} "
                                                    f"init=/bin/rxcheck -- read {count}").start()
        guest.wait_for(rb"RXCHECK-READY bytes=%d" % count, timeout=60)
        data = bytes(flood_byte(i) for i in range(count))
        senders[backend] = threading.Thread(target=guest.send, args=(data,), daemon=True)
        senders[backend].start()
        guests[backend] = guest
    for backend, guest in guests.items():
        count = RX_BYTES[backend]
        done = guest.wait_for(rb"RXCHECK-DONE bytes=(\d+) errors=(\d+) first-error=(-?\d+) reads=",
                              timeout=120 + count / 1000)
        assert (int(done.group(1)), int(done.group(2)), int(done.group(3))) == (count, 0, -1), \
            backend
        senders[backend].join(10)
        assert guest.wait_exit(60) == 0
        print(f"{backend}: {count} bytes received in order")


IDLE_OVERRUNS = scaled(4096, 256 << 10)  # bytes the async backend must have dropped


@pytest.mark.parametrize("backend", BACKENDS)
def test_rx_flood_without_reader(image, guest_factory, backend):
    guest = boot_shell(guest_factory, image, backend)
    shell(guest, "consolestat -r\n", rb"tx_busy_polls\s+\d+")
    # Nobody reads for at least 20 ticks of 10 ms, and (async) until a ring's worth or
    # more has been dropped, or at most 300 ticks (polling never drops anything, so it
    # always runs them all). Async's cap is ten times that: the host's flood slows down on
    # a loaded machine, and the run stops as soon as enough was dropped anyway.
    min_ticks, max_ticks = 20, scaled(3000 if backend == "async" else 300, 3000)
    guest.send(f"rxcheck idle {min_ticks} {max_ticks} {IDLE_OVERRUNS}\n")
    guest.wait_for(rb"RXIDLE-READY", timeout=60)
    flood = RxFlood(guest)
    flood.start()
    done_ticks = guest.wait_for(rb"RXIDLE-TICKS-DONE ticks=(\d+) rx_overruns=\d+\r?\n", timeout=120 + max_ticks)
    sent = flood.stop()
    # The system stayed responsive while the flood went on: every tick was printed.
    ticks = int(done_ticks.group(1))
    assert min_ticks <= ticks <= max_ticks
    printed = [int(k) for k in re.findall(rb"RXIDLE-TICK (\d+) pid \d+", guest.output)]
    assert printed == list(range(ticks))
    # The reader now drains what was kept; once it has made room, the terminator.
    guest.wait_for(rb"RXIDLE-DRAINING", timeout=300)
    guest.send("!")
    done = guest.wait_for(rb"RXIDLE-DONE drained=(\d+) in-order-prefix=(\d+) rx_bytes=(\d+) "
                          rb"rx_overruns=(\d+)\r?\n", timeout=300)
    drained, prefix, received, dropped = (int(g) for g in done.groups())
    guest.wait_for(PROMPT, timeout=60)
    print(f"{backend}: {sent} bytes sent, {drained} kept and read, {dropped} dropped")
    if backend == "async":
        # The RX interrupt drained the UART into the 4 KiB ring; once that was full,
        # every further byte was dropped and counted. Nothing else was lost.
        assert dropped >= IDLE_OVERRUNS
        assert drained + dropped == sent
        assert prefix >= 4095  # the ring's worth, in order, before the drops began
    else:
        # No reader polls the UART (the core's RX watch takes bytes into the read
        # buffer only until it is nearly full): QEMU stops taking bytes from its socket
        # (the host could send only what the socket buffers hold) and hands every one
        # over, in order, once someone reads. Nothing is dropped.
        assert dropped == 0
        assert sent < 64 << 10
        assert drained == prefix == sent
    # The shell still works.
    shell(guest, "echo still here\n", rb"\nstill here\r\n")
    guest.send("exit 4\n")
    assert guest.wait_exit(timeout=60) == 4


# ------------------------------------------------------------------ syscall fuzzing

FUZZ_CALLS = scaled(1_000_000, 10_000_000)  # per backend under soak: 20 million in all
FUZZ_BACKENDS = scaled(["async"], BACKENDS)
# `make soak-fuzz` (tests/soak.mk) sets these to run longer fuzzes on 1, 4 and 8 harts.
FUZZ_CALLS = int(os.environ.get("DUPLEX_FUZZ_CALLS", FUZZ_CALLS))
FUZZ_SMP = int(os.environ.get("DUPLEX_FUZZ_SMP", "4"))
# Host seconds without output, QEMU idle, after which a fuzz counts as hung: every child
# makes a call every few microseconds, and the longest sleep a call may ask for is 1 ms
# (user/fuzz.c sleep_timespec).
FUZZ_IDLE_S = 120


@pytest.mark.parametrize("backend", FUZZ_BACKENDS)
def test_fuzz_syscalls(image, guest_factory, backend):
    seed = int(os.environ.get("DUPLEX_FUZZ_SEED",
                              random.randrange(1, 1 << 32) if SOAK else 20240817))
    # Magic SysRq on (and the RX watch, so that the polling backend sees the BREAK while
    # nobody reads): a fuzz that leaves the guest idle and silent ends with the kernel's
    # task dump in the failure (duplex_qemu's GuestIdle), not with a bare timeout.
    watch = " console.rx_watch" if backend == "polling" else ""
    guest = guest_factory(image, smp=FUZZ_SMP, serial_break=True,
                          append=f"console={backend} console.sysrq{watch}").start()
    guest.wait_for(PROMPT, timeout=60)
    # A hart lost at boot is the boot's doing, not the fuzzer's: told apart here, with the
    # kernel's reason (the first report of the hart-online corruption, issue #29, came
    # from a run that never looked at the boot's "N of N harts online").
    booted = guest.output.decode("latin-1")
    assert f"{FUZZ_SMP} of {FUZZ_SMP} harts online" in booted, \
        "the boot lost a hart before any call was fuzzed: " + "; ".join(
            re.findall(r"hart \d+ did not come online[^\r\n]*", booted))
    guest.send(f"fuzz {seed} {FUZZ_CALLS} 8\n")
    guest.wait_for(rb"FUZZ-BEGIN seed=%d" % seed, timeout=60)
    done = guest.wait_for(rb"FUZZ-DONE seed=\d+ calls=\d+ children=8 respawns=(\d+) "
                          rb"failures=(\d+)\r?\n", timeout=300 + FUZZ_CALLS / 5000,
                          idle_after=FUZZ_IDLE_S)
    guest.wait_for(PROMPT, timeout=60)
    text = guest.output.decode("latin-1")
    replay = f"(replay: DUPLEX_FUZZ_SEED={seed}, or `fuzz -v {seed} ...` in the guest)"
    bad = re.findall(r"FUZZ-BAD [^\r\n]*", text)
    # A hart taken out of service comes with the calls before it (FUZZ-RECENT): keep
    # them in the failure itself, since the guest log is overwritten by the next run.
    recent = re.findall(r"FUZZ-RECENT [^\r\n]*", text)
    assert bad == [], f"{replay}\n" + "\n".join(bad + recent)
    assert re.findall(r"FUZZ-FAILED [^\r\n]*", text) == [], replay
    assert int(done.group(2)) == 0, replay
    assert "PANIC" not in text and "KERNEL FAULT" not in text
    # Case-blind: a child's random TCSETS may have OLCUC on for a moment (each child puts
    # the settings back at once), and a line written then comes out in capitals.
    children = re.findall(r"FUZZ-CHILD slot=\d+ gen=\d+ calls=(\d+) ok=(\d+) errors=(\d+) "
                          r"bad=(\d+) crashes=(\d+) skipped=\d+ forks=(\d+) execs=(\d+) "
                          r"frames=(\d+)", text, re.IGNORECASE)
    calls = sum(int(c[0]) for c in children)
    assert calls >= FUZZ_CALLS, f"{calls} calls counted"
    assert all(int(c[3]) == 0 for c in children)
    # The only kills are the children the fuzzer had killed on purpose (broken signal
    # frames, a clone onto an unmapped stack: user/frame_faults.h), one report each;
    # but a long run on the polling backend floods the kernel log (the unimplemented
    # calls of every new generation, the reports), which then drops lines and says how
    # many: reports <= crashes <= reports + dropped lines.
    crashes = sum(int(c[4]) for c in children)
    kills = re.findall(r"\]: killed by (SIG\w+)", text, re.IGNORECASE)
    dropped = sum(int(n) for n in re.findall(r"\*\* (\d+) kernel messages dropped \*\*", text,
                                             re.IGNORECASE))
    assert len(kills) <= crashes <= len(kills) + dropped, \
        f"{replay}: {len(kills)} kill reports, {crashes} crashes, {dropped} lines dropped"
    assert {k.upper() for k in kills} <= {"SIGSEGV", "SIGILL", "SIGBUS", "SIGTRAP"}, kills
    # The parent's descriptors are what they were; the free pages are reported (the
    # kernel heap keeps what it grew by, so the exact count is exhaust faults' to check).
    resources = re.search(r"FUZZ-RESOURCES descriptors=(\d+),(\d+) free_pages=(\d+),(\d+)",
                          text)
    assert resources and resources.group(1) == resources.group(2), resources
    print(f"{backend}: {calls} system calls fuzzed (seed {seed}), "
          f"{sum(int(c[1]) for c in children)} succeeded, "
          f"{sum(int(c[2]) for c in children)} returned an errno, "
          f"{done.group(1).decode()} deliberate exits; "
          f"{sum(int(c[5]) for c in children)} clones, {sum(int(c[6]) for c in children)} "
          f"execve children, {sum(int(c[7]) for c in children)} signal-frame cases, "
          f"{crashes} killed on purpose; free pages {resources.group(3)} before, "
          f"{resources.group(4)} after")
    # A normal program still runs, and the console still works both ways.
    shell(guest, "echo after the fuzz\n", rb"\nafter the fuzz\r\n")
    # Any count, so that a failure is said at once with its FAIL lines (the damage a
    # fuzzed call did, e.g. a hart off the online mask), not after a timeout.
    start = len(guest.output)
    checked = shell(guest, "test_syscalls\n", rb"test_syscalls: \d+ passed, (\d+) failed",
                    timeout=120)
    failed = re.findall(r"FAIL [^\r\n]*", guest.output[start:].decode("latin-1"))
    assert int(checked.group(1)) == 0, f"{replay}\n" + "\n".join(failed)
    guest.send("cat\n")
    guest.wait_for(rb"cat\r\n")
    guest.send("typed after fuzzing\n")
    guest.wait_for(rb"typed after fuzzing\r\n")
    guest.send("\x04")
    guest.wait_for(PROMPT)
    guest.send("exit 0\n")
    assert guest.wait_exit(timeout=60) == 0


# ------------------------------------------------------------------ isolation

# Kinds tests/test_user.py does not cover (it has null, kernel-read/-write/-jump, mmio,
# illegal, csr (a read), sret, wfi (QEMU traps U-mode wfi: SIGILL), stack, write-text,
# misaligned).
ISOLATION = [
    ("csr-write", SIGILL, "illegal instruction"),
    ("sfence", SIGILL, "illegal instruction"),
    ("mret", SIGILL, "illegal instruction"),
    ("mmio-read", SIGSEGV, "load page fault"),
    ("direct-map", SIGSEGV, "load page fault"),
    ("exec-data", SIGSEGV, "instruction page fault"),
]


def test_faults_kill_only_the_program(image, guest_factory):
    """One shell session: each fault kills its program with the one-line report, and the
    next program runs normally."""
    guest = boot_shell(guest_factory, image, "async")
    for kind, signal, cause in ISOLATION:
        name = SIGNAL_NAMES[signal]
        shell(guest, f"crash {kind}\n", rb"\[killed by signal %d \(%s\)\]" % (signal,
                                                                             name.encode()))
        shell(guest, f"echo after {kind}\n", rb"\nafter %s\r\n" % kind.encode())
    text = guest.text
    for kind, signal, cause in ISOLATION:
        assert re.search(rf"crash\[\d+\]: killed by {SIGNAL_NAMES[signal]}: {cause} at pc",
                         text), kind
    assert "crash: survived" not in text

    # Another program's memory: the child keeps a secret in a static buffer and on a heap
    # page; at the same addresses the parent sees its own empty copy, then faults.
    shell(guest, "crash other\n", rb"\[killed by signal 11 \(SIGSEGV\)\]")
    text = guest.text
    secret = re.search(r'crash: secret "(SECRET-\d+)" at (0x[0-9a-f]+) \(static\) and '
                       r"(0x[0-9a-f]+) \(heap\)", text)
    assert secret, text[-2000:]
    assert f'crash: other: {secret.group(2)} here holds ""' in text
    assert re.search(rf"crash\[\d+\]: killed by SIGSEGV: load page fault at pc 0x[0-9a-f]+, "
                     rf"address {secret.group(3)}\b", text)
    assert text.count(secret.group(1)) == 1  # only the child itself ever printed it
    shell(guest, "echo after other\n", rb"\nafter other\r\n")
    guest.send("exit 0\n")
    assert guest.wait_exit(timeout=60) == 0


STALEMAP_RUNS = scaled(1, 5)


def test_new_program_cannot_see_a_dead_programs_memory(image, guest_factory):
    """user/stalemap.c: a program maps a marked page on hart 1 and exits elsewhere while
    memory is full; the next program gets its page-table root back and runs on hart 1.
    Reading the address it never mapped must fault, not show the marker through a TLB
    entry hart 1 kept (the kernel did show it before the idle task got its own table)."""
    for run in range(STALEMAP_RUNS):
        guest = guest_factory(image, smp=4, interactive=False, append="init=/bin/stalemap")
        guest.start()
        status = guest.wait_exit(120)
        text = guest.text
        assert "STALEMAP-BREACH" not in text, f"run {run}: {text[-1500:]}"
        secret = re.search(r"stalemap: secret page at (0x[0-9a-f]+)", text).group(1)
        assert re.search(rf"stalemap\[\d+\]: killed by SIGSEGV: load page fault at pc "
                         rf"0x[0-9a-f]+, address {secret}\b", text), text[-1500:]
        # memory-was-full: the scenario ran to the end (the writer left once the hogs had
        # taken every page, so the reader got the writer's pages).
        assert "STALEMAP-DONE memory-was-full=yes reader=killed status=11" in text
        assert status == 0


EXIT_ROUNDS = scaled(3, 100)


def test_exit_races(image, guest_factory):
    """user/exitrace.c: parents exit while their children exit and are reaped while their
    children are still exiting; getppid() must only ever say the parent or 0."""
    guest = guest_factory(image, smp=4, interactive=False,
                          append=f"init=/bin/exitrace -- {EXIT_ROUNDS} 8 4").start()
    status = guest.wait_exit(120 + 5 * EXIT_ROUNDS)
    text = guest.text
    assert re.findall(r"EXITRACE-BAD [^\r\n]*", text) == []
    assert f"EXITRACE-DONE rounds={EXIT_ROUNDS} middles={8 * EXIT_ROUNDS} failures=0" in text
    assert "PANIC" not in text and "KERNEL FAULT" not in text
    assert status == 0


# ------------------------------------------------------------------ resource exhaustion

HOG_ROUNDS = scaled(3, 6)
PROC_ROUNDS = scaled(1, 4)


def test_memory_exhaustion_fails_cleanly_and_recovers(image, guest_factory):
    guest = boot_shell(guest_factory, image, "async")
    shell(guest, f"exhaust hogs {HOG_ROUNDS}\n",
          rb"EXHAUST-DONE mode=hogs rounds=%d failures=0" % HOG_ROUNDS, timeout=300)
    shell(guest, f"exhaust procs {PROC_ROUNDS}\n",
          rb"EXHAUST-DONE mode=procs rounds=%d failures=0" % PROC_ROUNDS,
          timeout=120 + 60 * PROC_ROUNDS)
    text = guest.text

    # Heap hogs: every round, the same chain: the same pages at every depth, and the
    # last spawn refused with ENOMEM or EAGAIN. A page lost in one round would show as
    # fewer pages in the next.
    hogs = {}
    for round_, depth, pages, error in re.findall(
            r"EXHAUST-HOG round=(\d+) depth=(\d+) pages=(\d+)(?: error=(\w+))?", text):
        hogs.setdefault(int(round_), {})[int(depth)] = (int(pages), error)
    assert sorted(hogs) == list(range(1, HOG_ROUNDS + 1))
    first = hogs[1]
    assert len(first) >= 2  # more than one 64 MiB heap: memory ran out across processes
    assert first[max(first)][1] in ("ENOMEM", "EAGAIN")
    for round_ in range(2, HOG_ROUNDS + 1):
        assert hogs[round_] == first, f"round {round_} differs: {hogs[round_]} vs {first}"

    # Process chains: each spawn until one fails with ENOMEM or EAGAIN. From the second
    # round on, every round reaches exactly the same depth; the first may get one
    # further, because the kernel heap keeps the pages it grew by in the first round.
    procs = [(int(r), int(d), e) for r, d, e in re.findall(
        r"EXHAUST-PROCS round=(\d+) depth=(\d+) error=(\w+)", text)]
    assert [p[0] for p in procs] == list(range(1, PROC_ROUNDS + 1))
    assert all(p[2] in ("ENOMEM", "EAGAIN") for p in procs)
    depths = [p[1] for p in procs]
    assert depths[0] > 100
    assert all(d == depths[-1] for d in depths[1:])
    assert depths[-1] <= depths[0] <= depths[-1] + 1
    print(f"hogs: {first}; process chain depths {depths}")

    # Everything exited; the system works as before. Hogs again: the kernel heap may
    # keep pages it grew by for the process chain, but two rounds still agree exactly.
    shell(guest, "echo recovered\n", rb"\nrecovered\r\n")
    start = len(guest.output)
    shell(guest, "exhaust hogs 2\n", rb"EXHAUST-DONE mode=hogs rounds=2 failures=0",
          timeout=300)
    again = {}
    for round_, depth, pages in re.findall(r"EXHAUST-HOG round=(\d+) depth=(\d+) pages=(\d+)",
                                           guest.output[start:].decode("latin-1")):
        again.setdefault(int(round_), {})[int(depth)] = int(pages)
    assert sorted(again) == [1, 2] and again[1] == again[2]
    assert sum(again[1].values()) <= sum(p for p, _ in first.values())
    guest.send("exit 0\n")
    assert guest.wait_exit(timeout=60) == 0


FAULT_ROUNDS = scaled(3, 8)


@pytest.mark.parametrize("smp", scaled([4], [1, 4]))
def test_faults_fail_cleanly_and_leak_nothing(image, guest_factory, smp):
    """`exhaust faults`: broken signal frames, bad clones, failing execves, bad pipe2 /
    dup3 / fcntl / ppoll / pselect6 arguments and a full descriptor table, tmpfs written
    full: each fails as Linux does (the FAIL lines name any that did not), every child
    that had to be killed was, with the kernel's report, nothing panicked, and from the
    second round on every round leaves exactly the same free pages, descriptors,
    processes and tmpfs room (the first warms the kernel heap, which keeps its pages)."""
    # A small tmpfs (512 KiB), so that filling it with names stays quick.
    guest = guest_factory(image, smp=smp, append="console=async tmpfs.pages=128").start()
    guest.wait_for(PROMPT, timeout=60)
    shell(guest, f"exhaust faults {FAULT_ROUNDS}\n",
          rb"EXHAUST-DONE mode=faults rounds=%d failures=\d+" % FAULT_ROUNDS, timeout=600)
    text = guest.text
    assert re.findall(r"FAIL [^\r\n]*", text) == []
    assert f"EXHAUST-DONE mode=faults rounds={FAULT_ROUNDS} failures=0" in text
    assert "PANIC" not in text and "KERNEL FAULT" not in text
    rounds = [dict(kv.split("=") for kv in m.split()) for m in
              re.findall(r"EXHAUST-FAULTS (round=\d+ checks=\d+ failed=\d+ kills=\d+ "
                         r"tmpfs_bytes=\d+ tmpfs_files=\d+ free_pages=\d+ descriptors=\d+ "
                         r"processes=\d+)", text)]
    assert [int(r["round"]) for r in rounds] == list(range(1, FAULT_ROUNDS + 1))
    first = rounds[0]
    assert int(first["kills"]) == 10 and int(first["tmpfs_bytes"]) > 0, first
    # One kernel report per kill: 10 a round (9 broken frames, a clone onto a bad stack).
    assert len(re.findall(r"exhaust\[\d+\]: killed by SIG", text)) == 10 * FAULT_ROUNDS
    for r in rounds[1:]:
        same = {k: v for k, v in r.items() if k != "round"}
        want = {k: v for k, v in rounds[1].items() if k != "round"}
        assert same == want, f"round {r['round']} differs from round 2: {r} vs {rounds[1]}"
    for key in ("checks", "kills", "tmpfs_bytes", "tmpfs_files", "descriptors", "processes"):
        assert first[key] == rounds[1][key], (key, first, rounds[1])
    print(f"{smp} harts: {first['checks']} checks a round, {first['kills']} kills, tmpfs full "
          f"at {first['tmpfs_bytes']} bytes / {first['tmpfs_files']} names; free pages "
          f"{[r['free_pages'] for r in rounds]}")
    shell(guest, "echo recovered\n", rb"\nrecovered\r\n")
    guest.send("exit 0\n")
    assert guest.wait_exit(timeout=60) == 0


PRESSURE_WRITERS, PRESSURE_WRITES = 16, 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_console_writes_do_not_need_free_memory(image, guest_factory, backend):
    """16 writers make blocking 4096-byte write() and 16-piece writev() calls of text
    (newlines to expand) while a chain of heap hogs holds every free page
    (user/pressure.c): not one console write may fail. The kernel once took a 4 KiB and
    an 8 KiB heap buffer per write, and some returned ENOMEM here."""
    guest = guest_factory(image, smp=4, icount=True, interactive=False,
                          append=f"console={backend} init=/bin/pressure -- "
                                 f"{PRESSURE_WRITERS} {PRESSURE_WRITES}").start()
    assert guest.wait_exit(timeout=300) == 0
    text = guest.text
    # Memory really ran out: the last hog's spawn failed with ENOMEM (12) or EAGAIN (11).
    assert re.search(r"PRESSURE-HOLD depth=\d+ spawn_errno=1[12]", text)
    writers = re.findall(r"PRESSURE-WRITER id=(\d+) pressure=(\d) after=(\d) ok=(\d+) "
                         r"failed=(\d+) errno=(\d+)", text)
    assert sorted(int(w[0]) for w in writers) == list(range(PRESSURE_WRITERS))
    for id_, before, after, ok, failed, error in writers:
        # Every write of this writer happened with no page free, and none failed.
        assert (before, after) == ("1", "1"), f"writer {id_} wrote without pressure"
        assert (int(ok), int(failed), int(error)) == (2 * PRESSURE_WRITES, 0, 0), id_
    assert f"PRESSURE-DONE writers={PRESSURE_WRITERS} failures=0" in text


@pytest.mark.parametrize("backend", BACKENDS)
def test_spinners_do_not_starve_anyone(image, guest_factory, backend):
    """A spinner pinned to every hart, never making a system call: the shell, the
    console both ways and other programs still get their turn (10 ms slices)."""
    guest = boot_shell(guest_factory, image, backend)
    shell(guest, "spin 4\n", rb"SPIN-STARTED 4")
    shell(guest, "echo responsive\n", rb"\nresponsive\r\n")
    guest.send("cat\n")
    guest.wait_for(rb"cat\r\n", timeout=60)
    guest.send("typed while spinning\n")
    guest.wait_for(rb"typed while spinning\r\n", timeout=60)
    guest.send("\x04")
    guest.wait_for(PROMPT, timeout=60)
    # Writers on every hart still finish, their records whole.
    shell(guest, "loadwriter 4 32768\n", rb"LOADWRITER-DONE writers=4 failures=0",
          timeout=300)
    start = guest.output.rfind(b"LOADWRITER-BEGIN")
    records, _, _ = verify_records(guest.output[start:], 4)
    assert records > 0
    counters = telemetry(guest)
    assert counters["bytes_written"] > 32768
    guest.send("exit 3\n")
    assert guest.wait_exit(timeout=60) == 3


# ------------------------------------------------------------------ emergency path

@pytest.mark.parametrize("ring", [8192, 65536])
def test_panic_with_full_ring_prints_whole_report(image, guest_factory, ring):
    # -icount: the other harts' stop and the ring's fill are in the guest's time, not
    # paced by how the host schedules four vCPU threads.
    guest = guest_factory(image, smp=4, interactive=False, icount=True,
                          append=f"console=async,ring={ring} selftest=panic-full-ring").start()
    assert guest.wait_exit(120) == PANIC_STATUS
    text = guest.text
    lines = text.splitlines()
    numbers = [int(m.group(1)) for m in
               (re.search(r"panic-full-ring: line (\d{6}) ", line) for line in lines) if m]
    # Everything that was queued comes out, in order, none twice ...
    assert numbers == list(range(len(numbers)))
    queued = sum(len(line) + 2 for line in lines if "panic-full-ring: line" in line)
    # ... and it was a full ring's worth (give or take a line, and the 16 bytes the
    # first push moved to the UART's FIFO).
    assert ring - 200 <= queued <= ring + 200
    # ... and then the whole report, after the last queued line.
    last = max(i for i, line in enumerate(lines) if "panic-full-ring: line" in line)
    report = [re.sub(r"^\[\s*\d+\.\d{6}\] h\d+ ", "", line) for line in lines[last + 1:]]
    assert re.match(r"KERNEL FAULT: load page fault \(scause 0xd\) in task init", report[0])
    assert re.match(r"sepc 0x[0-9a-f]+ stval 0x0+10 sstatus", report[1])
    registers = " ".join(report[2:10])
    for name in ["ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3",
                 "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10",
                 "s11", "t3", "t4", "t5", "t6"]:
        assert re.search(rf"(^|\s){name} [0-9a-f]{{16}}(\s|$)", registers), name
    assert report[10].startswith("backtrace")
    frames = [line for line in report[11:] if re.match(r"\s+#\d+ 0x[0-9a-f]+", line)]
    assert len(frames) >= 3 and report[11:11 + len(frames)] == frames
    assert report[11 + len(frames)] == "kernel panic: system halted (exit status 100)"
    assert report[-1] == "kernel panic: system halted (exit status 100)"
