#!/usr/bin/env python3
"""The one place that knows how to start QEMU for Duplex.

Used two ways:

* As a command line tool, by `make run` / `make debug`::

      python3 tools/duplex_qemu.py run --board qemu-virt --image build/qemu-virt/Image \\
          --smp 4 --append "console=async" [--icount] [--gdb] [--drive disk.img] \\
          [--bios firmware] [--qemu binary] [--record F | --replay F] [-- extra qemu args]

  (`make run-uboot` passes U-Boot as --image and the SD image as --drive.)

  It prints the QEMU command on stderr, then execs QEMU with the serial port on stdio
  (`-nographic`: Ctrl-A X quits). The exit status is QEMU's, i.e. the code the kernel wrote
  to the sifive test finisher.

* As a module, by the pytest suites under tests/ (via tests/conftest.py)::

      from duplex_qemu import Guest, GuestTimeout
      with Guest("build/qemu-virt/Image", smp=2, icount=True, name="boot") as guest:
          guest.wait_for(r"login: ")
          guest.send("ls\\n")
          guest.wait_for(rb"\\$ ")
          assert guest.wait_exit(timeout=30) == 0

Board settings come from boards/<board>/board.mk (simple `NAME := value` lines).
Python 3 standard library only.
"""

import argparse
import atexit
import fcntl
import os
import re
try:  # the regex parser, to learn a pattern's width and literal ending (Python >= 3.11)
    from re import _constants as sre_constants, _parser as sre_parse
except ImportError:  # Python < 3.11
    import sre_constants
    import sre_parse
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
BOARDS_DIR = REPO_ROOT / "boards"
QEMU_BINARY = "qemu-system-riscv64"
DEFAULT_BOARD = "qemu-virt"
DEFAULT_LOG_DIR = "build/test-logs"
# QEMU's character multiplexer's escape (Ctrl-A, `-echr` default): Ctrl-A b sends a
# BREAK, Ctrl-A Ctrl-A one Ctrl-A (QEMU's documentation, "Keys in the character backend
# multiplexer").
MUX_ESCAPE = b"\x01"

# Keys every board.mk must define for QEMU boards.
REQUIRED_BOARD_KEYS = ("QEMU_MACHINE", "QEMU_MEMORY", "QEMU_BIOS", "DEFAULT_SMP")

# `-icount shift=0,sleep=off`: 1 ns of virtual time per instruction, idle time skipped;
# runs repeat events, orders and counts, times to within a few hundred ns (QEMU
# docs/devel/tcg-icount.rst; byte for byte only under record/replay below;
# docs/design.md, "Determinism").
ICOUNT_ARGS = ["-icount", "shift=0,sleep=off"]
# Record/replay (QEMU docs/system/replay.rst): `rr=record,rrfile=F` writes every
# non-deterministic event (clock reads, warps of idle time, serial input) to F with the
# instruction count it came at; `rr=replay` feeds them back, so the run repeats to the
# byte. QEMU 7.2 (and 10) refuse it on several harts ("Record/replay feature is not
# supported for 'smp'"; docs/design.md, "Determinism").
RR_MODES = ("record", "replay")
# DUPLEX_RECORD=1: every Guest that can be recorded (-icount, one hart, no disk) writes
# its record to <log_dir>/<name>.rr beside its log, so a failed run can be replayed with
# `make run REPLAY=build/test-logs/<name>.rr` (the next run of the test overwrites it).
RECORD_GUESTS = os.environ.get("DUPLEX_RECORD", "") not in ("", "0")
# `-s`: gdbserver on tcp::1234; `-S`: do not start the CPUs until gdb says so.
GDB_ARGS = ["-s", "-S"]
# Serial port on stdio for interactive use (mon:stdio, Ctrl-A X quits).
STDIO_SERIAL_ARGS = ["-nographic"]

# How long Guest.start() waits for QEMU to create and accept the serial socket.
SOCKET_CONNECT_TIMEOUT = 10.0
# How long wait_exit() lets the reader take the output still in flight when QEMU exits
# (a wall-clock guard for a loaded host, not a measurement).
READER_DRAIN_TIMEOUT = 120.0
# How many bytes of output a timeout message shows.
TAIL_BYTES = 2000
# A wait's `timeout` is host seconds in which QEMU has the CPU, not seconds of the host's
# clock: a timeout is the guest's fault only once QEMU has had at least FAIR_CPU_SHARE of
# a core for that long (its CPU time, from /proc/<pid>/stat). A QEMU starved by other
# work on the host is waited for, up to `timeout` x HOST_SLOW_STRETCH seconds of the
# host's clock (environment DUPLEX_HOST_TIMEOUT_SCALE; `make test-loaded` raises it),
# and then HostTooSlow says that the host was too slow, not that the test failed.
FAIR_CPU_SHARE = 0.5
HOST_SLOW_STRETCH = float(os.environ.get("DUPLEX_HOST_TIMEOUT_SCALE", "4"))
# How often a starved wait looks at QEMU's CPU time again (host seconds).
HOST_CLOCK_POLL = 0.5
# wait_for's idle_after: a guest that printed nothing while QEMU ran less than this share
# of one CPU sat in wfi (a busy guest, or one starved by the host, is not idle).
IDLE_CPU_SHARE = 0.02


class GuestError(RuntimeError):
    """A Guest could not be started or used (missing image, QEMU failed to start, ...)."""


class GuestTimeout(GuestError):
    """Guest.wait_for() or Guest.wait_exit() did not see what it waited for in time.

    The message says what was awaited, the timeout, the log path and the output tail.
    """


class HostTooSlow(GuestTimeout):
    """A wait ran out of host time before QEMU had the CPU time it was allowed.

    Not a verdict on the guest: the message says "the host was too slow (N s of host
    time, QEMU ran M s), not a test failure". Only on a busy host (load average at least
    the CPU count): there a guest that hangs idle without -icount (QEMU asleep, no CPU
    used) ends the same way; its log shows how far it got.
    A subclass of GuestTimeout, so code catching GuestTimeout also catches this.
    """


class GuestIdle(GuestTimeout):
    """Guest.wait_for(..., idle_after=N) saw the guest print nothing for N host seconds
    while QEMU used almost no CPU (under IDLE_CPU_SHARE of one): every hart waits in wfi
    and nothing will come. The message has the kernel's task dump (Magic SysRq `t` and
    `w`) when the guest was started with serial_break=True and `console.sysrq`.

    A subclass of GuestTimeout, so code catching GuestTimeout also catches this.
    """


class GuestExited(GuestTimeout):
    """QEMU exited while Guest.wait_for() was still waiting, so the pattern can never appear.

    A subclass of GuestTimeout, so code catching GuestTimeout also catches this.
    """


# --------------------------------------------------------------------------------------
# Board settings and the QEMU command line
# --------------------------------------------------------------------------------------

_ASSIGNMENT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?::=|::=|\?=|=)\s*(.*?)\s*$")


def load_board(name):
    """Return the settings of boards/<name>/board.mk as a dict of strings.

    Only simple `NAME := value` lines are understood (also `=` and `?=`); comment lines and
    trailing ` # comments` are ignored. Raises GuestError if the board does not exist or
    lacks one of QEMU_MACHINE, QEMU_MEMORY, QEMU_BIOS, DEFAULT_SMP.
    Called by qemu_command(), Guest and the CLI.
    """
    path = BOARDS_DIR / name / "board.mk"
    if not path.is_file():
        known = sorted(p.name for p in BOARDS_DIR.iterdir() if (p / "board.mk").is_file()) \
            if BOARDS_DIR.is_dir() else []
        raise GuestError(f"unknown board {name!r}: {path} does not exist "
                         f"(known boards: {', '.join(known) or 'none'})")
    settings = {}
    for line in path.read_text().splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line)  # drop comments
        match = _ASSIGNMENT.match(line)
        if match:
            settings[match.group(1)] = match.group(2)
    missing = [key for key in REQUIRED_BOARD_KEYS if key not in settings]
    if missing:
        raise GuestError(f"{path} does not define {', '.join(missing)}")
    return settings


def _board_settings(board):
    """Accept either a board name or an already loaded board dict."""
    return load_board(board) if isinstance(board, str) else board


def qemu_command(board, image, smp=None, append="", icount=False, serial=None, gdb=False,
                 extra=(), drive=None, bios=None, qemu=None, rr=None, rrfile=None):
    """Return the QEMU argument list (a list of str) that boots `image` on `board`.

    board   -- board name (e.g. "qemu-virt") or a dict from load_board()
    image   -- kernel image passed to -kernel
    smp     -- number of harts; None means the board's DEFAULT_SMP
    append  -- kernel command line (-append)
    icount  -- add `-icount shift=0,sleep=off` (deterministic time)
    serial  -- arguments that wire up serial/display/monitor; None means `-nographic`
    gdb     -- add `-s -S` (gdbserver on tcp::1234, CPUs halted until gdb continues)
    extra   -- further QEMU arguments, appended last
    drive   -- a raw disk image attached as a virtio block device (the U-Boot boot path
               boots the SD image from it; `image` is then U-Boot itself)
    bios    -- firmware instead of the board's QEMU_BIOS
    qemu    -- the QEMU binary instead of the system's qemu-system-riscv64 (the C906
               tests pass the backports QEMU from tools/qemu-backports.sh)
    rr      -- "record" or "replay": record/replay to or from `rrfile` (implies icount;
               one hart only, GuestError otherwise)

    Used by the CLI (`run`) and by Guest.start().
    """
    settings = _board_settings(board)
    if smp is None:
        smp = settings["DEFAULT_SMP"]
    command = [
        str(qemu) if qemu is not None else QEMU_BINARY,
        "-M", settings["QEMU_MACHINE"],
        "-m", settings["QEMU_MEMORY"],
        "-smp", str(int(smp)),
        "-bios", str(bios) if bios is not None else settings["QEMU_BIOS"],
        "-kernel", str(image),
        "-append", append,
    ]
    if drive is not None:
        command += ["-drive", f"file={drive},format=raw,if=virtio"]
    command += list(STDIO_SERIAL_ARGS if serial is None else serial)
    if rr is not None:
        if rr not in RR_MODES or rrfile is None:
            raise GuestError(f"record/replay needs a mode in {RR_MODES} and a file")
        if int(smp) != 1:
            raise GuestError(f"record/replay needs SMP=1: QEMU refuses it on {smp} harts "
                             "(\"Record/replay feature is not supported for 'smp'\")")
        command += ["-icount", f"{ICOUNT_ARGS[1]},rr={rr},rrfile={rrfile}"]
    elif icount:
        command += ICOUNT_ARGS
    if gdb:
        command += GDB_ARGS
    command += [str(arg) for arg in extra]
    return command


def _check_can_boot(board_settings, image, drive=None, bios=None, qemu=None):
    """Raise GuestError with a clear message if QEMU, the firmware, the image or the disk
    image is missing."""
    if qemu is not None:
        if not os.access(qemu, os.X_OK):
            raise GuestError(f"QEMU binary {qemu} not found (run `make qemu-backports`)")
    elif shutil.which(QEMU_BINARY) is None:
        raise GuestError(f"{QEMU_BINARY} not found on PATH (run `make deps`)")
    bios = str(bios) if bios is not None else board_settings["QEMU_BIOS"]
    if bios not in ("none", "default") and not Path(bios).is_file():
        raise GuestError(f"firmware {bios} not found (run `make deps`)")
    if not Path(image).is_file():
        raise GuestError(f"kernel image {image} not found (run `make` first)")
    if drive is not None and not Path(drive).is_file():
        raise GuestError(f"disk image {drive} not found (run `make image` first)")


# --------------------------------------------------------------------------------------
# Host time: a wait's timeout counts the CPU time QEMU got, so load cannot fail a test
# --------------------------------------------------------------------------------------

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _process_cpu_seconds(pid):
    """User + system CPU seconds of process `pid` (all its threads), or None if /proc
    cannot tell (not Linux, or the process has been reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # fields from the 3rd (state) on
    return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS  # utime, stime


def _host_is_busy():
    """True if the host has more runnable work than CPUs (1-minute load average), so a
    QEMU that used little CPU may have been starved rather than idle by its own choice."""
    try:
        return os.getloadavg()[0] >= (os.cpu_count() or 1)
    except OSError:
        return True


class _HostDeadline:
    """The deadline of one wait: `timeout` seconds in which QEMU (process `pid`) had the
    CPU, stretched up to `timeout` x HOST_SLOW_STRETCH host seconds while it had not.

    verdict() is None while the wait may go on, "guest" once QEMU has had its share for
    `timeout` s (a real timeout), "host" once the stretched deadline passed without that
    (the host was too slow). A QEMU that used little CPU on a host with CPUs to spare
    (load average below the CPU count) sat idle by itself: that is the guest's timeout.
    Used by Guest.wait_for and Guest.wait_exit.
    """

    def __init__(self, pid, timeout):
        self.pid = pid
        self.timeout = timeout
        self.started = time.monotonic()
        self.cpu_started = _process_cpu_seconds(pid) if pid is not None else None

    def elapsed(self):
        return time.monotonic() - self.started

    def cpu(self):
        """CPU seconds QEMU used since the wait began (None if unknown)."""
        if self.cpu_started is None:
            return None
        now = _process_cpu_seconds(self.pid)
        return None if now is None else now - self.cpu_started

    def verdict(self):
        elapsed = self.elapsed()
        if elapsed < self.timeout:
            return None
        cpu = self.cpu()
        if cpu is None or cpu >= FAIR_CPU_SHARE * self.timeout or not _host_is_busy():
            return "guest"  # QEMU had the CPU, or could have had it and sat idle
        if elapsed >= self.timeout * max(HOST_SLOW_STRETCH, 1.0):
            return "host"
        return None

    def remaining(self):
        """Host seconds to sleep before verdict() is worth asking again."""
        left = self.timeout - self.elapsed()
        return left if left > 0 else HOST_CLOCK_POLL

    def too_slow(self):
        """The HostTooSlow sentence (with the measured times)."""
        cpu = self.cpu()
        ran = "?" if cpu is None else f"{cpu:.1f}"
        return (f"the host was too slow ({self.elapsed():.0f} s of host time, QEMU ran "
                f"{ran} s of the {FAIR_CPU_SHARE * self.timeout:g} s it needs to time "
                f"out), not a test failure (DUPLEX_HOST_TIMEOUT_SCALE={HOST_SLOW_STRETCH:g})")


def run_host_program(command, timeout, **popen_arguments):
    """Run a host program (a host unit-test binary) to its end under the same deadline as
    a guest's wait: `timeout` seconds in which it had the CPU, stretched on a busy host.

    Returns (status, stdout bytes, stderr bytes). On timeout the program is killed and
    GuestTimeout raised (it had the CPU and did not finish), or HostTooSlow (the host
    did not let it run); either message holds the output so far. (test_ring_tsan needs
    7 s of CPU; at a load average of 18 on 2 CPUs it got 12 % of one, 59 s of host time.)
    Called by tests/test_host.py.
    """
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, **popen_arguments)
    deadline = _HostDeadline(process.pid, timeout)
    while True:
        try:
            stdout, stderr = process.communicate(timeout=deadline.remaining())
            return process.returncode, stdout, stderr
        except subprocess.TimeoutExpired:
            verdict = deadline.verdict()
            if verdict is None:
                continue
            too_slow = deadline.too_slow().replace("QEMU", "it") + "\n" \
                if verdict == "host" else ""
            process.kill()
            stdout, stderr = process.communicate()
            error = HostTooSlow if verdict == "host" else GuestTimeout
            raise error(f"{too_slow}{command[0]} did not finish within {timeout:g} s "
                        f"(killed it)\n--- stdout ---\n{stdout.decode(errors='replace')}\n"
                        f"--- stderr ---\n{stderr.decode(errors='replace')}") from None


# --------------------------------------------------------------------------------------
# Guest: a QEMU instance driven over a unix-socket serial port, for tests
# --------------------------------------------------------------------------------------

# Every started, not yet killed Guest, so the atexit hook can kill leftovers.
_live_guests = weakref.WeakSet()


@atexit.register
def _kill_all_guests():
    """Kill every QEMU this process started and did not clean up (atexit hook)."""
    for guest in list(_live_guests):
        guest.kill()


def sanitize_name(name):
    """Turn an arbitrary string (e.g. a pytest node name) into a safe file name stem."""
    cleaned = re.sub(r"[^A-Za-z0-9_.-]+", "_", str(name)).strip("._")
    return cleaned[:120] or "guest"


def _resolve(path):
    """Relative paths are taken relative to the repository root."""
    path = Path(path)
    return path if path.is_absolute() else REPO_ROOT / path


def _compile_pattern(pattern):
    """Compile a str/bytes/compiled regex into a bytes regex."""
    if isinstance(pattern, re.Pattern):
        if isinstance(pattern.pattern, bytes):
            return pattern
        flags = pattern.flags & ~re.UNICODE
        return re.compile(pattern.pattern.encode("utf-8"), flags)
    if isinstance(pattern, str):
        pattern = pattern.encode("utf-8")
    return re.compile(pattern)


# Opcodes after which a match's success depends on what follows its end (lookarounds,
# `$`, `\Z`, `\b`, conditionals): a pattern using any of them is searched whole each time.
_CONTEXT_OPS = {sre_constants.ASSERT, sre_constants.ASSERT_NOT, sre_constants.GROUPREF_EXISTS}
_HARMLESS_ANCHORS = {sre_constants.AT_BEGINNING, sre_constants.AT_BEGINNING_STRING,
                     sre_constants.AT_BEGINNING_LINE}
# A maximum match width above this counts as unbounded.
_MAX_OVERLAP = 1 << 16


def _subpatterns(argument):
    """The parsed sub-patterns inside one regex item's argument (groups, repeats, branches)."""
    if isinstance(argument, sre_parse.SubPattern):
        yield argument
    elif isinstance(argument, (tuple, list)):
        for part in argument:
            yield from _subpatterns(part)


def _context_free(parsed):
    """True if no item in `parsed` looks past the end of a match."""
    for op, argument in parsed.data:
        if op in _CONTEXT_OPS or (op is sre_constants.AT and argument not in _HARMLESS_ANCHORS):
            return False
        if not all(_context_free(sub) for sub in _subpatterns(argument)):
            return False
    return True


def _literal_ending(parsed):
    """The literal bytes every match of `parsed` ends with (b"" if none are known)."""
    ending = []
    for op, argument in reversed(parsed.data):
        if op is sre_constants.LITERAL:
            ending.append(argument)
            continue
        if op is sre_constants.SUBPATTERN and not argument[1] and not argument[2]:
            inner = _literal_ending(argument[3])
            ending.extend(reversed(inner))
            if len(inner) == len(argument[3].data) and inner:
                continue  # the whole group was literal: keep going left
        break
    return bytes(reversed(ending))


def _without_final_repeat(parsed):
    """`parsed` with its last item, if that is an unbounded repeat `R{m,}` (alone or at
    the end of a group), cut to `R{m}`; None if it ends otherwise. Both match at the same
    places (the first m copies of a longer match are a match), and the cut one may be
    bounded: `DONE bytes=(\\d+)` becomes `DONE bytes=(\\d)`."""
    if not parsed.data:
        return None
    op, argument = parsed.data[-1]
    if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT) \
            and argument[1] == sre_constants.MAXREPEAT:
        last = (op, (argument[0], argument[0], argument[2]))
    elif op is sre_constants.SUBPATTERN:
        inner = _without_final_repeat(argument[3])
        if inner is None:
            return None
        last = (op, argument[:3] + (inner,))
    else:
        return None
    return sre_parse.SubPattern(parsed.state, parsed.data[:-1] + [last])


class _IncrementalSearch:
    r"""Guest.wait_for's search for one regex in a buffer that only grows.

    Searching the whole buffer from the cursor on every chunk that arrives costs
    O(output) per chunk, O(output^2) per wait (worse for a lazy `[\s\S]*?`, which scans
    to the end from every place its head matches). Once a search from the cursor has
    failed on the first `searched` bytes, a match that appears later must end in the
    new bytes, provided the pattern never looks past a match's end (no lookarounds, `$`
    or `\b`). So, with the same result as the full search (the leftmost match at or
    after the cursor):
      * a pattern at most W bytes long is searched from `searched - W` (a bounded
        overlap) instead of from the cursor; so is one that ends in an unbounded repeat
        and is at most W bytes long with that repeat cut to its minimum;
      * an unbounded pattern that ends in literal bytes (`...DONE\r\n`, `\$ `) is
        searched from the cursor only when the new bytes, with the overlap the literal
        needs, contain that literal; otherwise nothing can have appeared;
      * any other pattern is searched from the cursor every time, as before.
    Used by Guest.wait_for with the Guest's lock held; one instance per wait.
    """

    def __init__(self, regex):
        self.regex = regex
        self.searched = None  # buffer length at the last failed search
        self.width = None
        self.ending = b""
        try:
            parsed = sre_parse.parse(regex.pattern, regex.flags)
        except Exception:  # an internal parser we could not read: search whole
            return
        if not _context_free(parsed):
            return
        longest = parsed.getwidth()[1]
        cut = _without_final_repeat(parsed) if longest > _MAX_OVERLAP else None
        if cut is not None:
            longest = cut.getwidth()[1]
        if longest <= _MAX_OVERLAP:
            self.width = longest
        elif not regex.flags & re.IGNORECASE:
            self.ending = _literal_ending(parsed)

    def search(self, buffer, cursor):
        """The leftmost match in `buffer` at or after `cursor`, or None."""
        start = cursor
        if self.searched is not None and self.searched > cursor:
            if self.width is not None:
                start = max(cursor, self.searched - self.width)
            elif self.ending:
                since = max(cursor, self.searched - len(self.ending) + 1)
                if buffer.find(self.ending, since) < 0:
                    self.searched = len(buffer)
                    return None
        match = self.regex.search(buffer, start)
        if match is None:
            self.searched = len(buffer)
        return match


class Guest:
    """One QEMU run of a Duplex kernel image, with its serial port on a unix socket.

    Created by tests (usually through the `guest_factory` fixture in tests/conftest.py).

    Guest(image, board="qemu-virt", smp=4, append="", icount=False, name="guest",
          log_dir="build/test-logs", interactive=True, drive=None, bios=None, extra=(),
          qemu=None, record=None, replay=None, serial_break=False)

    `serial_break`: the serial socket goes through QEMU's multiplexer (mux=on), whose
    escape Ctrl-A b puts a BREAK on the guest's RX line (send_break, sysrq); send() then
    doubles every Ctrl-A byte so that the guest still gets it as typed.
    `record`: a file to write a QEMU record of the run to (-icount, one hart; default:
    <log_dir>/<name>.rr if DUPLEX_RECORD=1 and the guest can be recorded, else none).
    `replay`: a record to replay instead (same image, append and smp=1 as recorded).
    Relative `image`, `log_dir` and `drive` paths are relative to the repository root.
    `smp=None` means the board's DEFAULT_SMP. `drive` attaches a raw disk image as a
    virtio disk, `bios` replaces the board's firmware, `extra` is appended to QEMU's
    arguments and `qemu` replaces the system's QEMU binary (see qemu_command()).

    start()                        launch QEMU (own process group), connect to the serial
                                   socket; returns self
    wait_for(pattern, timeout=60)  regex (str or bytes) searched from a cursor that moves past
                                   each match; returns the re.Match (bytes groups); raises
                                   GuestTimeout (GuestExited if QEMU exits first,
                                   HostTooSlow if the host did not let QEMU run)
    send(data)                     write str (UTF-8) or bytes to the guest's serial RX
    send_break() / sysrq(key)      (serial_break=True) a BREAK / a BREAK then `key`: Magic
                                   SysRq when the kernel runs with console.sysrq
    wait_exit(timeout=60) -> int   wait for QEMU to exit, drain output, return exit status
                                   (negative = killed by that signal); GuestTimeout on timeout
    kill()                         SIGKILL the process group and clean up; idempotent
    output / text / lines()        everything received so far (bytes / str / list of str)
    log_path                       <log_dir>/<name>.log, the same bytes as `output` (<name>.2
                                   ... while another running guest holds the name)
    returncode, pid, command       QEMU's exit status (None while running), pid, argv

    As a context manager, entering starts the guest (if not started) and leaving always
    kills it.
    """

    def __init__(self, image, board=DEFAULT_BOARD, smp=4, append="", icount=False,
                 name="guest", log_dir=DEFAULT_LOG_DIR, interactive=True, drive=None,
                 bios=None, extra=(), qemu=None, record=None, replay=None,
                 serial_break=False):
        self.image = _resolve(image)
        self.serial_break = serial_break
        self.qemu = _resolve(qemu) if qemu is not None else None
        self.extra = [str(arg) for arg in extra]
        self.drive = _resolve(drive) if drive is not None else None
        self.bios = _resolve(bios) if bios is not None else None
        # interactive: serial through a socket (send() works). Otherwise QEMU writes the
        # serial output straight to the log file, which the reader tails: no host-side
        # back-pressure can reach the guest (a slow reader would make its UART wait).
        self.interactive = interactive
        self.board = board
        self.smp = smp
        self.append = append
        self.icount = icount
        self.name = sanitize_name(name)
        self.log_dir = _resolve(log_dir)
        self.log_path = self.log_dir / f"{self.name}.log"
        recordable = icount and smp is not None and int(smp) == 1 and drive is None
        # The default record sits beside the log, so it follows the name _claim_log picks.
        self._record_beside_log = (record is None and replay is None and RECORD_GUESTS
                                   and recordable)
        if self._record_beside_log:
            record = self.log_dir / f"{self.name}.rr"
        self.record_path = _resolve(record) if record is not None else None
        self.replay_path = _resolve(replay) if replay is not None else None
        self.command = None
        self.proc = None
        self._tmpdir = None
        self._log_claim = None
        self._stderr_path = None
        self._sock = None
        self._reader = None
        self._cond = threading.Condition()
        self._buffer = bytearray()
        self._cursor = 0
        self._reader_done = False
        self._killed = False

    # -- properties -------------------------------------------------------------------

    @property
    def output(self):
        """All bytes received from the guest's serial port so far."""
        with self._cond:
            return bytes(self._buffer)

    @property
    def text(self):
        """`output` decoded as UTF-8 (undecodable bytes replaced)."""
        return self.output.decode("utf-8", errors="replace")

    def lines(self):
        """`output` decoded and split into lines (\\r\\n, \\n and \\r all end a line)."""
        return self.text.splitlines()

    @property
    def pid(self):
        """QEMU's process id (also its process group id), or None before start()."""
        return self.proc.pid if self.proc else None

    @property
    def returncode(self):
        """QEMU's exit status once it has exited, else None."""
        return self.proc.poll() if self.proc else None

    # -- lifecycle --------------------------------------------------------------------

    def start(self):
        """Launch QEMU and connect to its serial socket. Returns self.

        QEMU is told to wait for the socket client before running the guest, so no
        output is lost. Raises GuestError if anything needed is missing or QEMU does not
        come up.
        """
        if self.proc is not None:
            raise GuestError(f"guest {self.name!r} already started")
        settings = load_board(self.board)
        _check_can_boot(settings, self.image, drive=self.drive, bios=self.bios,
                        qemu=self.qemu)

        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._claim_log()
        self._tmpdir = Path(tempfile.mkdtemp(prefix="duplex-qemu-"))
        sock_path = self._tmpdir / "serial.sock"
        if self.interactive:
            serial_args = [
                "-display", "none",
                "-monitor", "none",
                "-serial", "chardev:ser0",
                "-chardev", f"socket,id=ser0,path={sock_path},server=on,wait=on"
                + (",mux=on" if self.serial_break else ""),
            ]
        else:
            self.log_path.write_bytes(b"")
            serial_args = ["-display", "none", "-monitor", "none",
                           "-serial", f"file:{self.log_path}"]
        self.command = qemu_command(settings, self.image, smp=self.smp, append=self.append,
                                    icount=self.icount, serial=serial_args, drive=self.drive,
                                    bios=self.bios, extra=self.extra, qemu=self.qemu,
                                    rr=("replay" if self.replay_path else
                                        "record" if self.record_path else None),
                                    rrfile=self.replay_path or self.record_path)
        # setpriv --pdeathsig KILL: QEMU dies with this process even if it is SIGKILLed and
        # the atexit hook never runs. setpriv execs QEMU, so the pid stays QEMU's. (The
        # "parent" is the starting thread: start guests from a thread that outlives them.)
        launcher = []
        if shutil.which("setpriv"):
            launcher = ["setpriv", "--pdeathsig", "KILL", "--"]
        self._stderr_path = self._tmpdir / "qemu.stderr"
        with open(self._stderr_path, "wb") as stderr:
            self.proc = subprocess.Popen(launcher + self.command, stdin=subprocess.DEVNULL,
                                         stdout=stderr, stderr=stderr,
                                         start_new_session=True)
        _live_guests.add(self)
        if not self.interactive:
            self._reader = threading.Thread(target=self._tail_log_file,
                                            name=f"guest-{self.name}-reader", daemon=True)
            self._reader.start()
            return self
        try:
            self._sock = self._connect(sock_path)
        except BaseException:
            self.kill()
            raise
        log_file = open(self.log_path, "wb")
        self._reader = threading.Thread(target=self._read_serial, args=(log_file,),
                                         name=f"guest-{self.name}-reader", daemon=True)
        self._reader.start()
        return self

    def _claim_log(self):
        """Hold this guest's log for its life (start(); does not sleep): an exclusive
        flock on <log_dir>/<name>.log, kept until kill(). Guests running at once (pytest
        workers, `make grade` inside the suite, a test name shared by two files) must not
        share a log: a non-interactive guest's output is read back from it. A name another
        live guest holds becomes <name>.2, <name>.3, ... (the log, and the record beside it).
        """
        base = self.name
        for attempt in range(1, 1000):
            name = base if attempt == 1 else f"{base}.{attempt}"
            path = self.log_dir / f"{name}.log"
            claim = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                fcntl.flock(claim, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(claim)
                continue
            self._log_claim = claim
            self.name, self.log_path = name, path
            if self._record_beside_log:
                self.record_path = self.log_dir / f"{name}.rr"
            return
        raise GuestError(f"every log name {base}.N in {self.log_dir} is held by a running guest")

    def _connect(self, sock_path):
        """Connect to QEMU's serial socket, retrying until it exists and accepts."""
        deadline = time.monotonic() + SOCKET_CONNECT_TIMEOUT
        while True:
            status = self.proc.poll()
            if status is not None:
                raise GuestError(
                    f"QEMU exited with status {status} before opening the serial socket\n"
                    f"command: {shlex.join(self.command)}\n"
                    f"stderr:\n{self._stderr_text()}")
            if sock_path.exists():
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    sock.connect(str(sock_path))
                    return sock
                except (ConnectionRefusedError, FileNotFoundError):
                    sock.close()
            if time.monotonic() > deadline:
                raise GuestError(
                    f"QEMU did not open its serial socket {sock_path} within "
                    f"{SOCKET_CONNECT_TIMEOUT:g} s\ncommand: {shlex.join(self.command)}\n"
                    f"stderr:\n{self._stderr_text()}")
            time.sleep(0.01)

    def _read_serial(self, log_file):
        """Reader thread: copy serial bytes into the buffer and the log until EOF."""
        try:
            while True:
                try:
                    data = self._sock.recv(65536)
                except OSError:
                    break
                if not data:
                    break  # QEMU exited (or kill() shut the socket down)
                log_file.write(data)
                log_file.flush()
                with self._cond:
                    self._buffer += data
                    self._cond.notify_all()
        finally:
            log_file.close()
            with self._cond:
                self._reader_done = True
                self._cond.notify_all()

    def _tail_log_file(self):
        """Reader thread for non-interactive guests: follow the log file QEMU writes
        until QEMU has exited and everything it wrote has been read."""
        try:
            with open(self.log_path, "rb") as log_file:
                while True:
                    exited = self.proc.poll() is not None or self._killed
                    data = log_file.read(65536)
                    if data:
                        with self._cond:
                            self._buffer += data
                            self._cond.notify_all()
                    elif exited:
                        break
                    else:
                        time.sleep(0.02)
        finally:
            with self._cond:
                self._reader_done = True
                self._cond.notify_all()

    def _stderr_text(self):
        """QEMU's stdout+stderr so far, for error messages."""
        if self._stderr_path is None:
            return "(unavailable)"
        try:
            return self._stderr_path.read_text(errors="replace").strip() or "(empty)"
        except OSError:
            return "(unavailable)"

    def _record_note(self):
        """For failure messages: where the run's record is, and how to replay it."""
        if self.record_path is None:
            return ""
        return (f"\nrecord: {self.record_path} (replay: make run REPLAY={self.record_path} "
                f"with the run's command line)")

    def _require_started(self):
        if self.proc is None:
            raise GuestError(f"guest {self.name!r} was not started (call start())")

    def _tail(self):
        with self._cond:
            tail = bytes(self._buffer[-TAIL_BYTES:])
            total = len(self._buffer)
        text = tail.decode("utf-8", errors="replace")
        return f"--- last {len(tail)} of {total} bytes of output ---\n{text}\n--- end ---"

    # -- interaction ------------------------------------------------------------------

    def wait_for(self, pattern, timeout=60, idle_after=None):
        """Wait until `pattern` (regex, str or bytes) appears after the cursor.

        The search starts where the previous successful wait_for() match ended; on success
        the cursor moves past this match and the re.Match is returned (its groups are bytes).
        Raises GuestTimeout after `timeout` seconds in which QEMU had the CPU, HostTooSlow
        (a GuestTimeout) if the host starved QEMU for timeout x HOST_SLOW_STRETCH seconds,
        or GuestExited (a GuestTimeout) if QEMU exits without the pattern appearing.
        `idle_after` (host seconds): raise GuestIdle, with the kernel's task dump when
        the guest can give one (dump_tasks), once the guest has printed nothing for that
        long while QEMU used under IDLE_CPU_SHARE of a CPU (a hung, idle guest).
        """
        self._require_started()
        search = _IncrementalSearch(_compile_pattern(pattern))
        shown = pattern.pattern if isinstance(pattern, re.Pattern) else pattern
        deadline = _HostDeadline(self.pid, timeout)
        silence = _HostDeadline(self.pid, idle_after) if idle_after else None
        heard = len(self._buffer)
        idle = False
        with self._cond:
            while True:
                match = search.search(self._buffer, self._cursor)
                if match:
                    self._cursor = match.end()
                    return match
                if self._reader_done:
                    exited = True
                    break
                verdict = deadline.verdict()
                if verdict is not None:
                    exited = False
                    break
                if silence is not None:
                    if len(self._buffer) != heard:
                        heard = len(self._buffer)
                        silence = _HostDeadline(self.pid, idle_after)
                    elif silence.elapsed() >= idle_after:
                        # On a busy host a starved QEMU also runs little: wait longer.
                        quiet = silence.elapsed()
                        cpu = silence.cpu()
                        if cpu is not None and cpu >= IDLE_CPU_SHARE * quiet:
                            silence = _HostDeadline(self.pid, idle_after)
                        elif cpu is not None and (not _host_is_busy() or
                                                  quiet >= idle_after * HOST_SLOW_STRETCH):
                            exited, idle = False, True
                            break
                wait = deadline.remaining()
                if silence is not None:
                    wait = min(wait, max(idle_after - silence.elapsed(), 5.0))
                self._cond.wait(wait)
        if idle:
            dump = self.dump_tasks() if self.can_dump_tasks() else "(no task dump: " \
                "start the guest with serial_break=True and console.sysrq)"
            raise GuestIdle(
                f"guest {self.name!r}: idle (nothing printed for {silence.elapsed():.0f} s, "
                f"QEMU used {silence.cpu():.2f} s of CPU) while waiting for {shown!r}\n"
                f"log: {self.log_path}\n{dump}\n{self._tail()}")
        if exited:
            self._reap(1.0)
            raise GuestExited(
                f"guest {self.name!r}: QEMU exited (status {self.returncode}) before "
                f"{shown!r} appeared (waited up to {timeout:g} s)\n"
                f"log: {self.log_path}{self._record_note()}\n"
                f"QEMU's stderr: {self._stderr_text()}\n{self._tail()}")
        message = (f"guest {self.name!r}: timed out after {timeout:g} s waiting for "
                   f"{shown!r}\nlog: {self.log_path}{self._record_note()}\n{self._tail()}")
        if verdict == "host":
            raise HostTooSlow(f"{deadline.too_slow()}\n{message}")
        raise GuestTimeout(message)

    def send(self, data):
        """Send str (encoded as UTF-8) or bytes to the guest's serial port."""
        self._require_started()
        if not self.interactive:
            raise GuestError(f"guest {self.name!r} is not interactive: it has no serial input")
        if isinstance(data, str):
            data = data.encode("utf-8")
        if self.serial_break:
            data = data.replace(MUX_ESCAPE, MUX_ESCAPE * 2)
        self._sock.sendall(data)

    def send_break(self):
        """Put a BREAK on the guest's serial RX line (QEMU's mux escape Ctrl-A b, which
        the 16550 model receives as a break: LSR BI). Needs serial_break=True."""
        self._require_started()
        if not self.serial_break:
            raise GuestError(f"guest {self.name!r} was started without serial_break=True")
        self._sock.sendall(MUX_ESCAPE + b"b")

    def can_dump_tasks(self):
        """True if the guest takes Magic SysRq: started with serial_break=True and a
        command line with `console.sysrq`."""
        return self.serial_break and "console.sysrq" in self.append.split()

    def dump_tasks(self, keys="tw", timeout=30):
        """Ask the kernel for its task dumps (SysRq `t`, then `w`) and return their lines
        (also in the log). Does not move the wait_for cursor. For a hung guest: see
        wait_for's idle_after."""
        dumps = []
        for key in keys:
            start = len(self.output)
            self.sysrq(key)
            end = re.compile(rb"sysrq: end[^\n]*\n")
            give_up = time.monotonic() + timeout
            with self._cond:
                while not end.search(self._buffer, start) and not self._reader_done:
                    left = give_up - time.monotonic()
                    if left <= 0:
                        break
                    self._cond.wait(min(left, HOST_CLOCK_POLL))
                text = bytes(self._buffer[start:]).decode("latin-1")
            dumps.append("\n".join(line for line in text.splitlines() if "sysrq:" in line)
                         or f"(no answer to SysRq {key!r} in {timeout} s)")
        return "\n".join(dumps)

    def sysrq(self, key):
        """Magic SysRq: a BREAK, then `key` (a one-character str), as Linux's serial
        console takes it; the kernel acts on it when booted with `console.sysrq`."""
        self.send_break()
        self.send(key)

    def wait_exit(self, timeout=60):
        """Wait for QEMU to exit, drain the remaining output and return its exit status.

        The status is the code the kernel wrote to the test finisher (negative if QEMU
        was killed by a signal). On timeout QEMU is killed and GuestTimeout raised
        (HostTooSlow if it was the host that had not let QEMU run; see wait_for).
        """
        self._require_started()
        deadline = _HostDeadline(self.pid, timeout)
        while True:
            try:
                status = self.proc.wait(deadline.remaining())
                break
            except subprocess.TimeoutExpired:
                verdict = deadline.verdict()
                if verdict is None:
                    continue
                too_slow = deadline.too_slow() + "\n" if verdict == "host" else ""
                self.kill()
                error = HostTooSlow if verdict == "host" else GuestTimeout
                raise error(
                    f"{too_slow}guest {self.name!r}: QEMU did not exit within {timeout:g} s "
                    f"(killed it)\nlog: {self.log_path}{self._record_note()}\n{self._tail()}") from None
        if self._reader is not None:
            # EOF follows QEMU's exit, so the reader ends once it has taken every byte;
            # on a loaded host that can take a while, and a short join followed by
            # kill() (which shuts the socket) used to drop the unread tail.
            self._reader.join(READER_DRAIN_TIMEOUT)
            if self._reader.is_alive():
                self.kill()
                raise HostTooSlow(
                    f"the host was too slow ({READER_DRAIN_TIMEOUT:g} s of host time to read "
                    f"the output QEMU left), not a test failure\nguest {self.name!r}: QEMU "
                    f"exited but its output was not read to the end\nlog: {self.log_path}")
        self.kill()  # tidy up socket and temp dir; QEMU is already gone
        return status

    def _reap(self, timeout):
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pass

    def kill(self):
        """SIGKILL QEMU's whole process group and release everything. Idempotent.

        SIGKILL, not SIGTERM: under `-icount sleep=off` QEMU can spin deaf to SIGTERM.
        """
        if self._killed:
            return
        self._killed = True
        if self.proc is not None:
            if self.proc.poll() is None:  # not reaped yet, so the pgid cannot be reused
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.proc.wait()
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self._reader is not None and self._reader is not threading.current_thread():
            self._reader.join(5.0)
        if self._sock is not None:
            self._sock.close()
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
        if self._log_claim is not None:
            os.close(self._log_claim)  # the log's name is free for the next guest
            self._log_claim = None
        _live_guests.discard(self)

    def __enter__(self):
        if self.proc is None:
            self.start()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.kill()
        return False

    def __repr__(self):
        return f"Guest(name={self.name!r}, image={str(self.image)!r}, pid={self.pid})"


def run_to_exit(image, append="", smp=None, icount=False, timeout=60, name="run",
                board=DEFAULT_BOARD, log_dir=DEFAULT_LOG_DIR, extra=(), qemu=None, bios=None,
                record=None):
    """Boot `image`, wait for QEMU to exit and return (exit_status, output_text).

    For tests that only need the final status and the whole console output. `extra`:
    further QEMU arguments; `qemu`: another QEMU binary; `bios`: other firmware.
    `record`: write a QEMU record of the run there (see Guest).
    Raises GuestTimeout (after killing QEMU) if it does not exit within `timeout` s.
    """
    with Guest(image, board=board, smp=smp, append=append, icount=icount, name=name,
               log_dir=log_dir, interactive=False, extra=extra, qemu=qemu,
               bios=bios, record=record) as guest:
        status = guest.wait_exit(timeout)
        return status, guest.text


# --------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------

def _cli_run(args, extra):
    settings = load_board(args.board)
    image = Path(args.image) if args.image else REPO_ROOT / "build" / args.board / "Image"
    try:
        _check_can_boot(settings, image, drive=args.drive, bios=args.bios, qemu=args.qemu)
    except GuestError as error:
        print(f"duplex_qemu: {error}", file=sys.stderr)
        return 2
    rr = rrfile = None
    if args.record and args.replay:
        print("duplex_qemu: --record and --replay exclude each other", file=sys.stderr)
        return 2
    if args.record:
        rr, rrfile = "record", args.record
    elif args.replay:
        if not Path(args.replay).is_file():
            print(f"duplex_qemu: record {args.replay} not found", file=sys.stderr)
            return 2
        rr, rrfile = "replay", args.replay
    command = qemu_command(settings, image, smp=args.smp, append=args.append,
                           icount=args.icount, gdb=args.gdb, extra=extra, drive=args.drive,
                           bios=args.bios, qemu=args.qemu, rr=rr, rrfile=rrfile)
    print(f"duplex_qemu: {shlex.join(command)}", file=sys.stderr)
    if args.gdb:
        print("duplex_qemu: CPUs halted; attach with gdb-multiarch "
              "-ex 'target remote localhost:1234'", file=sys.stderr)
    sys.stderr.flush()
    os.execvp(command[0], command)  # exit status is QEMU's


def main(argv=None):
    """CLI entry point (used by `make run` and `make debug`)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = []
    if "--" in argv:
        split = argv.index("--")
        argv, extra = argv[:split], argv[split + 1:]
    parser = argparse.ArgumentParser(
        prog="duplex_qemu.py", description="Start QEMU for a Duplex kernel image.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser(
        "run", help="boot an image with the serial port on stdio (Ctrl-A X quits)",
        description="Boot an image with the serial port on stdio (Ctrl-A X quits). "
                    "Arguments after `--` are passed to QEMU. Exits with QEMU's status.")
    run.add_argument("--board", default=DEFAULT_BOARD, help="board under boards/ "
                     f"(default {DEFAULT_BOARD})")
    run.add_argument("--image", help="kernel image (default build/<board>/Image)")
    run.add_argument("--smp", type=int, help="number of harts (default: board DEFAULT_SMP)")
    run.add_argument("--append", default="", help="kernel command line")
    run.add_argument("--icount", action="store_true",
                     help="deterministic time: -icount shift=0,sleep=off")
    run.add_argument("--gdb", action="store_true",
                     help="gdbserver on tcp::1234, CPUs halted until gdb continues (-s -S)")
    run.add_argument("--drive", help="raw disk image to attach as a virtio disk "
                     "(make run-uboot: the SD image U-Boot boots from)")
    run.add_argument("--record", metavar="FILE", help="record the run to FILE "
                     "(QEMU record/replay; implies --icount; one hart only)")
    run.add_argument("--replay", metavar="FILE", help="replay the run recorded in FILE "
                     "(same image, command line and --smp 1)")
    run.add_argument("--bios", help="firmware instead of the board's QEMU_BIOS")
    run.add_argument("--qemu", help="QEMU binary instead of the system's "
                     f"{QEMU_BINARY} (e.g. the one `make qemu-backports` prints)")
    args = parser.parse_args(argv)
    try:
        return _cli_run(args, extra)
    except GuestError as error:
        print(f"duplex_qemu: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
