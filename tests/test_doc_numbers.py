"""Numbers the docs quote from generated files are the generated files' numbers.

docs/timeline/summary.txt (make timeline; tests/test_trace.py checks it against a new
run) and docs/teaching/results.md (make lab-results; tests/test_labs.py checks it with
`tools/lab results --check`) are regenerated when the kernel changes; a number typed
into a doc from them would go stale without anyone noticing. So:

* tracing.md's table of the four backends is summary.txt's numbers, cell by cell, as
  rounded in the table;
* every measured time the teacher's guide and the lab handouts quote (a µs or ns figure
  of four digits or more: the character-time constants are smaller or computed) is a
  number in results.md, rounded as the doc writes it.

No QEMU: text against text.
"""

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SUMMARY = REPO / "docs" / "timeline" / "summary.txt"
RESULTS = REPO / "docs" / "teaching" / "results.md"

# tracing.md's row label -> the summary line's pattern (one number per backend)
TRACING_ROWS = {
    "`write()` returns after": r"write\(\) returned after ([\d.]+) µs",
    "written and drained after": r"write \+ tcdrain took ([\d.]+) µs",
    "writer's hart busy": r"writer's hart \d+: busy ([\d.]+) µs",
    "all harts busy": r"all harts busy: ([\d.]+) µs",
    "UART TX interrupts": r"UART TX interrupts: (\d+)",
    "context switches": r"context switches: (\d+)",
    "THR loads on the wire": r"wire: \d+ bytes in (\d+) loads",
}


def summary_blocks():
    """{backend: its block of summary.txt}"""
    text = SUMMARY.read_text()
    return {m.group(1): m.group(0) for m in
            re.finditer(r"^== ([\w,]+): .*?(?=^== |\Z)", text, re.M | re.S)}


def rounded_as(value, written):
    """`value` rounded to as many decimals as `written` shows."""
    decimals = len(written.split(".", 1)[1]) if "." in written else 0
    return f"{round(float(value), decimals):.{decimals}f}" == written


def test_tracing_table_is_the_timeline_summary():
    blocks = summary_blocks()
    text = (REPO / "docs" / "tracing.md").read_text()
    header = re.search(r"^\| \| (polling,byte.*) \|$", text, re.M)
    assert header, "tracing.md has no table of the four backends"
    backends = [b.strip() for b in header.group(1).split("|")]
    assert set(backends) <= set(blocks), (backends, list(blocks))
    stale = []
    for label, pattern in TRACING_ROWS.items():
        row = re.search(rf"^\| {re.escape(label)} \| (.*) \|$", text, re.M)
        assert row, f"tracing.md's table has no row {label!r}"
        cells = [c.strip() for c in row.group(1).split("|")]
        for backend, cell in zip(backends, cells):
            written = re.match(r"[\d.]+", cell).group()
            value = re.search(pattern, blocks[backend]).group(1)
            if not rounded_as(value, written):
                stale.append(f"{label}, {backend}: the doc says {cell}, "
                             f"summary.txt {value}")
    assert not stale, ("docs/tracing.md's table is stale against docs/timeline/summary.txt:\n"
                       + "\n".join(stale))


def results_numbers():
    text = RESULTS.read_text()
    found = re.findall(r"\d{1,3}(?: \d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", text)
    return [n.replace(" ", "") for n in found]


QUOTING_DOCS = [REPO / "docs" / "teaching" / "guide.md"] + sorted(
    (REPO / "docs" / "teaching" / "labs").glob("*.md"))
MEASURED = re.compile(r"(\d{1,3}(?: \d{3})+|\d{4,})(\.\d+)? (µs|ns)")


@pytest.mark.parametrize("path", QUOTING_DOCS, ids=[p.name for p in QUOTING_DOCS])
def test_measured_times_quoted_are_in_results(path):
    numbers = results_numbers()
    missing = []
    for match in MEASURED.finditer(path.read_text()):
        written = match.group(1).replace(" ", "") + (match.group(2) or "")
        if not any(rounded_as(n, written) for n in numbers):
            missing.append(f"{match.group(0)!r}")
    assert not missing, (f"{path.relative_to(REPO)} quotes {', '.join(missing)}, which "
                         f"docs/teaching/results.md does not have (stale: quote results.md "
                         f"again after `make lab-results`)")


def test_the_check_catches_a_stale_number():
    assert rounded_as("14.3", "14.3") and rounded_as("5556.6", "5557")
    assert not rounded_as("14.3", "40") and not rounded_as("2", "18")
