"""System tests of ordinary Linux programs on Duplex: floating point in user mode (the
kernel keeps each program's F/D registers its own, and every program starts with a clean
FPU), static glibc binaries from Debian's riscv64 cross toolchain (packed under
/bin/glibc/), the system calls they need, and the report of calls the kernel lacks.

The matrix is kept cheap: the whole program set on one configuration (4 harts, async),
the glibc hello world on 1 and 4 harts with both console backends.
"""

import re
from pathlib import Path

import pytest

import duplex_qemu

REPO_ROOT = Path(__file__).resolve().parent.parent


def boot(image, request, init, smp=4, console="async", timeout=90, icount=True):
    """Boot with `init` ("prog args") as the first program; return (status, text)."""
    words = init.split(" ", 1)
    append = f"console={console} init=/bin/{words[0]}"
    if len(words) > 1:
        append += f" -- {words[1]}"
    name = duplex_qemu.sanitize_name(request.node.name)
    return duplex_qemu.run_to_exit(image, append=append, smp=smp, icount=icount,
                                   timeout=timeout, name=name)


# ------------------------------------------------------------------ floating point

@pytest.mark.parametrize("smp", [1, 4])
def test_fpu_two_programs_on_one_hart_keep_their_registers(image, request, smp):
    # Both children pin themselves to hart 0 and each runs for several 10 ms slices with
    # all 32 registers and fcsr loaded, checking them every round: they take turns.
    status, text = boot(image, request, "fpcheck pair 300000", smp=smp)
    results = re.findall(r"FPCHECK-HOLD seed=(\d) rounds=300000 gaps=(\d+) sum=(\w+) "
                         r"bad_round=(\d+)", text)
    assert sorted(r[0] for r in results) == ["1", "2"], text
    for seed, gaps, sum_ok, bad_round in results:
        assert sum_ok == "OK" and bad_round == "0", text
        assert int(gaps) >= 1, f"seed {seed} was never preempted: {text}"
    # Preemption, not one after the other: the second started before the first ended.
    starts = [m.start() for m in re.finditer(r"FPCHECK-HOLD seed=\d start", text)]
    ends = [m.start() for m in re.finditer(r"FPCHECK-HOLD seed=\d rounds", text)]
    assert len(starts) == 2 and max(starts) < min(ends), text
    assert "FPCHECK-PAIR failures=0" in text
    assert status == 0


def test_fpu_every_program_starts_clean(image, request):
    # The first child leaves every register and fcsr set; the second, on the same hart,
    # must still find zeros.
    status, text = boot(image, request, "fpcheck clean", smp=2)
    assert text.count("FPCHECK-CLEAN ok") == 2, text
    assert "FPCHECK-CLEAN bad" not in text
    assert "FPCHECK-CLEAN failures=0" in text
    assert status == 0
