"""tools/with_load.py, the CPU hogs of `make test-loaded`: the command runs beside N busy
loops, its status is passed on, and every hog is gone afterwards whatever the result."""

import os
import re
import subprocess
import sys
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "with_load.py"


def run(*args):
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          timeout=120)


def hog_pids(stderr):
    return [int(pid) for pid in re.search(r"\(pids ([\d ]+)\)", stderr).group(1).split()]


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_command_runs_beside_the_hogs_and_its_status_is_kept():
    # The command sees the hogs: each is a running process while it runs.
    result = run("2", "sh", "-c", "ps -o stat= -p $DUPLEX_LOAD_PIDS; exit 3")
    assert result.returncode == 3
    pids = hog_pids(result.stderr)
    assert len(pids) == 2
    assert len(result.stdout.split()) == 2  # ps listed both hogs
    assert "status 3 after" in result.stderr and "with 2 hogs" in result.stderr
    assert not any(alive(pid) for pid in pids)


def test_hogs_are_killed_when_the_command_fails_to_start():
    result = run("1", "/nonexistent/command")
    assert result.returncode != 0
    assert not any(alive(pid) for pid in hog_pids(result.stderr))


def test_usage():
    assert run("x").returncode == 2


def test_make_test_loaded_runs_the_tests_it_is_given():
    result = subprocess.run(["make", "-s", "test-loaded", "LOAD=1",
                             "TESTS=tests/test_with_load.py", "PYTEST_ARGS=-k test_usage"],
                            cwd=TOOL.parent.parent, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "1 passed" in result.stdout
    assert "with_load: status 0" in result.stderr and "with 1 hogs" in result.stderr
    assert not any(alive(pid) for pid in hog_pids(result.stderr))
