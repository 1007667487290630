"""The Linux peer (`make peer`, issue #28): the same glibc bench binary on Duplex and on
Debian trixie's riscv64 Linux 6.12, on the same QEMU with the same flags, one hart,
-icount. The short version of what `make bench` runs: a few sections on both kernels.

It asserts that both kernels ran the very same binary to its end with the same sections
and no failures, that the report put them side by side and named the kernel, and that
the initramfs is what Linux needs — never how fast either kernel was (the report says
that; docs/benchmark.md, "Linux beside Duplex").
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PEER = REPO / "build" / "linux-peer"
SECTIONS = "S10,S20,S43"

sys.path.insert(0, str(REPO / "tools" / "peer"))
import initramfs  # noqa: E402
from conftest import build_lock  # noqa: E402


@pytest.fixture(scope="module")
def peer():
    """build/linux-peer/, made by `make peer-build` (fetches the kernel on first use)."""
    with build_lock("peer-build"):  # once per pytest-xdist worker: one at a time
        result = subprocess.run(["make", "-s", "peer-build"], cwd=REPO, capture_output=True,
                                text=True)
    if result.returncode != 0:
        pytest.fail(f"make peer-build failed:\n{result.stdout}\n{result.stderr}",
                    pytrace=False)
    return PEER


@pytest.fixture(scope="module")
def pair(peer, tmp_path_factory):
    """Both kernels' logs and the report of one --peer-only --quick run."""
    out = tmp_path_factory.mktemp("peer")
    result = subprocess.run(
        [sys.executable, str(REPO / "tools" / "run-bench"), "--peer", str(peer), "--peer-only",
         "--quick", "--sections", SECTIONS, "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return out


def bench_lines(log):
    """Every BENCH line of a log, parsed; Linux ends its lines \\r\\r\\n, Duplex \\r\\n."""
    text = log.read_text(errors="replace")
    return [json.loads(m.group(1)) for m in re.finditer(r"BENCH (\{.*\})\r*$", text, re.M)]


def test_initramfs_holds_init_bench_and_console(tmp_path):
    data = initramfs.archive(b"INIT", b"BENCH!")
    names = re.findall(rb"070701[0-9a-f]{104}([^\0]+)\0", data)
    assert names == [b"dev", b"dev/console", b"proc", b"bin", b"bin/glibc",
                     b"bin/glibc/bench", b"init", b"TRAILER!!!"]
    console = data.index(b"dev/console") - 110
    header = data[console:console + 110].decode()
    fields = [int(header[6 + 8 * i:14 + 8 * i], 16) for i in range(13)]
    assert fields[1] == 0o020600  # a character device
    assert (fields[9], fields[10]) == (5, 1)  # Linux's /dev/console
    assert len(data) % 4 == 0


def test_both_kernels_ran_the_same_binary_to_the_end(pair):
    duplex = bench_lines(pair / "peer-duplex-async.log")
    linux = bench_lines(pair / "peer-linux-8250.log")
    for lines in (duplex, linux):
        assert lines[0]["section"] == "header" and lines[-1]["section"] == "end"
        assert lines[-1]["failures"] == 0, lines[-1]
    headers = duplex[0], linux[0]
    assert headers[0]["kernel"].startswith("Duplex")
    assert headers[1]["kernel"].startswith("Linux 6.12"), headers[1]["kernel"]
    # The same build of the same program: the build id it was compiled with.
    assert headers[0]["build"] == headers[1]["build"] != "unknown"
    # Duplex has cpu_times; Linux has not, and says so instead of printing zeros.
    assert headers[0]["cpu_times"] is True and headers[1]["cpu_times"] is False
    assert all(x.get("busy_ns_per_byte") is None for x in linux if x["section"] == "S10")
    assert all(x["harts"] == 1 for x in headers)

    def groups(lines):
        return [(x["section"], x["size"], x.get("load")) for x in lines
                if x["section"] not in ("header", "end", "samples")]
    assert groups(duplex) == groups(linux)
    assert {g[0] for g in groups(duplex)} == set(SECTIONS.split(","))


def test_report_sets_linux_beside_duplex(pair):
    report = (pair / "report.md").read_text()
    section = report.split("## Linux beside Duplex (same QEMU, same binary)", 1)[1]
    section = section.split("\n## ", 1)[0]
    assert "Linux 6.12" in section and "/bin/glibc/bench" in section
    # It names the QEMU command each kernel ran under.
    assert section.count("-icount shift=0,sleep=off") == 2 and "-initrd" in section
    for measure in ("S20 1-byte write + tcdrain p50", "S10 64 B writes, bytes/s",
                    "S10 1024 B writes, bytes/s", "p99/p50 where Linux's exceeds 1.5"):
        assert measure in section
    runs = json.loads((pair / "runs.json").read_text())
    linux = next(r for r in runs if r["backend"] == "linux-8250")
    # The QEMU flags it ran under are recorded: the same machine, firmware and -icount.
    assert "-icount shift=0,sleep=off" in linux["qemu"] and "-initrd" in linux["qemu"]
    duplex = next(r for r in runs if r["backend"] == "duplex-async")
    strip = lambda command: re.sub(r"-kernel \S+|-initrd \S+|-no-reboot", "", command)
    assert strip(linux["qemu"]).split() == strip(duplex["qemu"]).split()
