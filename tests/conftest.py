"""pytest configuration for Duplex (loaded by pytest for everything under tests/).

Puts tools/ on sys.path so tests can `import duplex_qemu`, and provides:

* `image`         -- path of the kernel image build/qemu-virt/Image; fails (never skips)
                     if it has not been built.
* `guest_factory` -- call it like duplex_qemu.Guest (without `name`) to get a Guest named
                     after the test; every Guest it made is killed at teardown.
* `backports`     -- QEMU 10 and OpenSBI 1.5 from bookworm-backports, unpacked into
                     build/qemu-backports/ by tools/qemu-backports.sh (once per session):
                     `.qemu` (has the thead-c906 CPU) and `.firmware` (SBI 2.0, DBCN).
                     Fails, with apt's error, if the archive cannot be reached.
* `build_lock(name)` -- a context manager: an exclusive lock on build/locks/NAME.lock, for
                     fixtures that build or fetch into a shared path (`make test` runs the
                     tests in pytest-xdist workers, and a session fixture runs once in each).

Under pytest-xdist (`make test`: -n JOBS --dist loadgroup) tests that write the same build
outputs share a worker (pytest.mark.xdist_group), and so do a lab's grading tests (their
boots are shared within a worker: tests/labs/labrun.py).
"""

import contextlib
import fcntl
import os
import re
import subprocess
from types import SimpleNamespace

import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

import duplex_qemu  # noqa: E402  (needs the sys.path entry above)

IMAGE_PATH = REPO_ROOT / "build" / "qemu-virt" / "Image"


@pytest.fixture
def image():
    """Path to the built qemu-virt kernel image; fails the test if it is missing."""
    if not IMAGE_PATH.is_file():
        pytest.fail(f"kernel image {IMAGE_PATH} not found: run make first", pytrace=False)
    return IMAGE_PATH


@contextlib.contextmanager
def build_lock(name):
    """Hold build/locks/NAME.lock exclusively (fixtures that build or fetch something two
    pytest-xdist workers would otherwise build at once; sleeps until the other is done)."""
    folder = REPO_ROOT / "build" / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="session")
def backports():
    """build/qemu-backports/: the QEMU binary and the OpenSBI fw_jump firmware."""
    with build_lock("qemu-backports"):
        result = subprocess.run(["bash", str(REPO_ROOT / "tools" / "qemu-backports.sh")],
                                capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"tools/qemu-backports.sh failed:\n{result.stderr}", pytrace=False)
    qemu = Path(result.stdout.strip().splitlines()[-1])
    root = qemu.parent.parent.parent
    # The .bin: OpenSBI 1.5's ELF is position-independent, linked at 0, which QEMU would
    # load there; the raw image goes to the start of RAM like fw_jump.elf 1.1 does.
    firmware = root / "usr" / "lib" / "riscv64-linux-gnu" / "opensbi" / "generic" / "fw_jump.bin"
    return SimpleNamespace(qemu=qemu, firmware=firmware)


@pytest.fixture
def guest_factory(request):
    """Factory for Guests named after the test; kills all of them at teardown.

    Usage: guest = guest_factory(image, smp=2, append="...", icount=True).start()
    The first Guest of a test logs to build/test-logs/<test name>.log, further ones to
    <test name>-2.log, -3.log, ...
    """
    base = duplex_qemu.sanitize_name(request.node.name)
    guests = []

    def make_guest(image, **kwargs):
        if "name" not in kwargs:
            kwargs["name"] = base if not guests else f"{base}-{len(guests) + 1}"
        guest = duplex_qemu.Guest(image, **kwargs)
        guests.append(guest)
        return guest

    yield make_guest
    for guest in guests:
        guest.kill()


def pytest_runtest_logreport(report):
    """Every test's outcome and recorded properties go to tools/lab_records.py's record
    of this tree, so that `tools/lab results --check` (tests/test_labs.py) can rebuild
    docs/teaching/results.md from the lab grading tests this session ran, without running
    them again. Only in a git checkout (not in tools/lab's graded copies)."""
    if not (REPO_ROOT / ".git").exists():
        return
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # the controller gets every worker's reports and notes them, once
    if report.when == "call" or (report.when == "setup" and not report.passed):
        import lab_records
        # --dist loadgroup names a grouped test "<node id>@<group>"; the record keeps the
        # node id itself, which tools/lab looks up.
        node_id = re.sub(r"@[\w.-]+$", "", report.nodeid)
        lab_records.note_test(node_id, report.when == "call" and report.passed,
                              report.user_properties)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Each lab's grading tests (tests/labs/test_lab_*.py) in one xdist group, so that the
    boots tests/labs/labrun.py shares between them are made once (before xdist's own hook
    reads the groups: tryfirst)."""
    for item in items:
        path = Path(str(item.fspath))
        if path.parent.name == "labs" and path.name.startswith("test_lab_"):
            item.add_marker(pytest.mark.xdist_group(path.stem))
