"""Exhaustive checks of the async console's TX protocol model, tests/model/async_tx.pml.

For each configuration Spin turns the model into a verifier (pan.c), gcc builds it and
it runs in a temporary directory, in two modes:

* safety   -- pan built with -DNOCLAIM, run plainly: assertions (no FIFO overrun, counts
              consistent, tcdrain returns only when the bytes before it are out) and
              invalid end states (a process stuck while everything else stops: deadlock
              or lost wake-up).
* liveness -- pan built with the model's ltl claim `all_done`, run with -a -f (acceptance
              cycles under weak fairness): the writer and the drain waiter both return
              and every byte is transmitted.

The correct protocol must give "errors: 0" in both modes; each broken variant (a -D
switch that removes one piece of the protocol, see tests/model/README.md) must give
errors in both. Spin is a Debian package (`spin`) that `make deps` installs.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
MODEL = REPO_ROOT / "tests" / "model" / "async_tx.pml"
# Each verification takes a few seconds (the largest about 15 with its compile); the
# timeout only stops a run that has gone badly wrong.
TIMEOUT_SECONDS = 300

# Configurations in which the protocol must hold: name -> spin -D options.
CORRECT = {
    "default": [],  # N=3 chunks of 2 bytes, ring of 2, FIFO depth 2
    "byte-fifo": ["-DCHUNK=1", "-DDEPTH=1"],  # a FIFO that takes one byte per THRE
    # Without anyone swallowing THRE, starting TX by the interrupt-enable edge alone
    # (Linux's start_tx) is sound too: the hang needs both changes.
    "edge-only-no-swallow": ["-DNO_IDLE_KICK", "-DNO_SWALLOW"],
    # Stopping TX interrupts only when a refill finds nothing (one more interrupt per
    # burst than stop_tx at the refill that empties the ring, the default) is sound too.
    "stop-when-idle": ["-DSTOP_WHEN_IDLE"],
}

# Broken variants that must fail: name -> spin -D options.
BROKEN = {
    # TX starts only by an edge, and a polled printk's IIR read swallows it.
    "no-idle-kick": ["-DNO_IDLE_KICK"],
    # The writer kicks, but the path that swallowed THRE does not.
    "no-printk-kick": ["-DNO_PRINTK_KICK"],
    # A wake between the waiter's check and its park is lost.
    "no-wake-pending": ["-DNO_WAKE_PENDING"],
    # The handler decides to stop TX interrupts on a second look at the ring.
    "stop-on-recheck": ["-DSTOP_ON_RECHECK", "-DNO_IDLE_KICK", "-DNO_SWALLOW"],
}

# What pan reports for an error found in each mode.
ERROR_KIND = {"safety": "invalid end state", "liveness": "acceptance cycle"}


def _require_tools():
    """Fail (never skip) when spin or gcc is missing."""
    for tool in ("spin", "gcc"):
        if shutil.which(tool) is None:
            pytest.fail(f"`{tool}` not found: run `make deps` (tools/deps.sh installs the "
                        "Debian packages spin and gcc)", pytrace=False)


def _run(command, cwd):
    """Run one step; fail the test with its output if it exits non-zero."""
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                            timeout=TIMEOUT_SECONDS)
    if result.returncode != 0:
        pytest.fail(f"`{' '.join(command)}` exited with status {result.returncode}\n"
                    f"--- stdout ---\n{result.stdout}\n--- stderr ---\n{result.stderr}",
                    pytrace=False)
    return result.stdout + result.stderr


def _verify(directory, defines, mode, expect_errors):
    """spin -a, gcc, ./pan for one mode in `directory`; returns (errors, pan's output).

    A search that should pass is worth compiling with optimisation (it visits millions
    of states); one that should fail stops at the first error, so compile time rules."""
    _run(["spin", "-a", *defines, str(MODEL)], directory)
    optimise = "-O0" if expect_errors else "-O1"
    if mode == "safety":
        _run(["gcc", optimise, "-DNOCLAIM", "-o", "pan", "pan.c"], directory)
        output = _run(["./pan"], directory)
    else:
        _run(["gcc", optimise, "-DNFAIR=3", "-o", "pan", "pan.c"], directory)
        output = _run(["./pan", "-a", "-f"], directory)
    match = re.search(r"errors: (\d+)", output)
    if match is None:
        pytest.fail(f"no `errors:` line in pan's output:\n{output}", pytrace=False)
    return int(match.group(1)), output


@pytest.mark.parametrize("mode", ["safety", "liveness"])
@pytest.mark.parametrize("name", list(CORRECT))
def test_protocol_holds(tmp_path, name, mode):
    """The protocol as designed: Spin explores every interleaving and finds no error."""
    _require_tools()
    errors, output = _verify(tmp_path, CORRECT[name], mode, expect_errors=False)
    assert errors == 0, f"{name} ({mode}): Spin found {errors} error(s)\n{output}"
    # A search cut short by the depth limit would prove nothing.
    assert "max search depth too small" not in output, output


@pytest.mark.parametrize("mode", ["safety", "liveness"])
@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_variant_fails(tmp_path, name, mode):
    """Each piece of the protocol is needed: without it Spin finds a hang."""
    _require_tools()
    errors, output = _verify(tmp_path, BROKEN[name], mode, expect_errors=True)
    assert errors > 0, f"{name} ({mode}): Spin found no error, but it should\n{output}"
    assert ERROR_KIND[mode] in output, \
        f"{name} ({mode}): expected an {ERROR_KIND[mode]}, got\n{output}"
