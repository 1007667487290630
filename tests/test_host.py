"""Runs every host unit-test binary build/host/test_* as one pytest case each.

The binaries are built by `make check-host-build` (the top-level Makefile). Each one runs
from the repository root and must exit 0; on failure its stdout and stderr are shown.
Its timeout is a guard that counts the CPU time the binary got, like a guest's wait.
"""

import os
from pathlib import Path

import pytest

import duplex_qemu

REPO_ROOT = Path(__file__).resolve().parent.parent
HOST_BUILD_DIR = REPO_ROOT / "build" / "host"
TIMEOUT_SECONDS = 120


def _host_test_binaries():
    """Executable files build/host/test_*, found at collection time."""
    return sorted(path for path in HOST_BUILD_DIR.glob("test_*")
                  if path.is_file() and os.access(path, os.X_OK))


HOST_TESTS = _host_test_binaries()


if HOST_TESTS:
    @pytest.mark.parametrize("binary", HOST_TESTS, ids=[path.name for path in HOST_TESTS])
    def test_host_binary(binary):
        """Run one host unit-test binary; it passes if it exits with status 0."""
        # The timeout counts the CPU time the binary got (duplex_qemu.run_host_program):
        # a loaded host stretches it and then says HostTooSlow, not a failure.
        status, stdout, stderr = duplex_qemu.run_host_program([str(binary)], TIMEOUT_SECONDS,
                                                              cwd=REPO_ROOT)
        if status != 0:
            pytest.fail(f"{binary.relative_to(REPO_ROOT)} exited with status "
                        f"{status}\n{_format_output(stdout, stderr)}", pytrace=False)
else:
    def test_host_binaries_built():
        """Placeholder that fails when no host test binary has been built."""
        pytest.fail(f"no host test binaries {HOST_BUILD_DIR.relative_to(REPO_ROOT)}/test_* "
                    "found: run `make check-host-build` (or `make test`) first", pytrace=False)


def _format_output(stdout, stderr):
    """Both output streams of a host test, decoded, for a failure message."""
    def decode(data):
        return (data or b"").decode("utf-8", errors="replace").rstrip() or "(empty)"
    return f"--- stdout ---\n{decode(stdout)}\n--- stderr ---\n{decode(stderr)}"
