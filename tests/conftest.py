"""pytest configuration for Duplex (loaded by pytest for everything under tests/).

Puts tools/ on sys.path so tests can `import duplex_qemu`, and provides:

* `image`         -- path of the kernel image build/qemu-virt/Image; fails (never skips)
                     if it has not been built.
* `guest_factory` -- call it like duplex_qemu.Guest (without `name`) to get a Guest named
                     after the test; every Guest it made is killed at teardown.
"""

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
