"""docs/teaching/results.md is what `make lab-results` writes for this tree: every score,
every flawed variant's message, every number measured (those within 2 %: on several
harts a flawed variant's overrun count or p99 varies by a fraction of a percent from run
to run; tools/lab same_results).

`tools/lab results --check` rebuilds it from what this tree's grading runs left behind
(tools/lab_records.py) and compares. In `make test` every one of them has run before this
file: the lab grading tests (tests/labs/test_lab_*.py and tests/test_host.py, which
pytest collects first: the files of tests/ come before its subfolders, and test_lab_*
before test_results_*), the starting states (tests/test_labs.py) and the flawed variants
(tests/test_lab_variants.py); so this measures nothing again and takes seconds. Run on
its own it grades whatever no run of this tree left (about ten minutes).

Not in a student's export (tools/lab export leaves results.md out).
"""

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
PYTHON = "/usr/bin/python3"


def test_lab_results_match_regeneration():
    result = subprocess.run([PYTHON, "tools/lab", "results", "--check"], cwd=REPO,
                            capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, (
        "docs/teaching/results.md is stale: `make lab-results` (it reuses this session's "
        f"runs) and commit it\n{result.stdout[-6000:]}{result.stderr[-2000:]}")
