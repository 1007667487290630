#!/usr/bin/env python3
"""Run a command with N CPU hogs beside it: `with_load.py N command [args...]`.

Used by `make test-loaded` to run the test suite as on a shared machine (a student's
laptop with a browser open, a CI runner shared by a class). Each hog is a plain busy loop
in its own process; all of them are killed when the command ends, whatever its result,
also on Ctrl-C or SIGTERM. The command finds the hogs' pids in DUPLEX_LOAD_PIDS (comma
separated). Exits with the command's status and prints, at the end, the
hogs, the host time the command took and the load average.
Python 3 standard library only.
"""

import os
import signal
import subprocess
import sys
import time

HOG_PROGRAM = "while True:\n    pass\n"


def start_hogs(count):
    """Start `count` busy-loop processes; returns their Popen objects."""
    return [subprocess.Popen([sys.executable, "-c", HOG_PROGRAM], stdin=subprocess.DEVNULL)
            for _ in range(count)]


def stop_hogs(hogs):
    """Kill every hog (by its own pid) and reap it."""
    for hog in hogs:
        if hog.poll() is None:
            hog.kill()
    for hog in hogs:
        hog.wait()


def interrupted(signal_number, frame):
    """SIGTERM handler: end like Ctrl-C, so that main's finally kills the hogs."""
    raise KeyboardInterrupt


def main(argv):
    if len(argv) < 2 or not argv[0].isdigit():
        print("usage: with_load.py N command [args...]", file=sys.stderr)
        return 2
    count, command = int(argv[0]), argv[1:]
    hogs = start_hogs(count)
    signal.signal(signal.SIGTERM, interrupted)
    started = time.monotonic()
    status = 1
    try:
        print(f"with_load: {count} CPU hogs (pids {' '.join(str(h.pid) for h in hogs)}) "
              f"beside: {' '.join(command)}", file=sys.stderr, flush=True)
        environment = dict(os.environ, DUPLEX_LOAD_PIDS=",".join(str(h.pid) for h in hogs))
        status = subprocess.call(command, env=environment)
    except KeyboardInterrupt:
        status = 130
    finally:
        stop_hogs(hogs)
    load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"with_load: status {status} after {time.monotonic() - started:.0f} s with "
          f"{count} hogs on {os.cpu_count()} CPUs (load average {load})", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
