"""`make help` (tools/help.mk, issue #41) lists every target of the makefiles, one line
each, and nothing that is not one: the targets are read from the makefiles themselves
(rules whose target is a plain name, and .PHONY lists), so a target added without its
help line, or a help line left after its target went, fails here.
"""

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MAKEFILES = ["Makefile", "tests/soak.mk", "boards/boards.mk", "tools/bench.mk",
             "labs/labs.mk", "user/user.mk", "tools/help.mk"]
# A rule line: plain target names, then one ':' (not ':=' or '::='), at a line's start.
RULE = re.compile(r"^([A-Za-z][\w.-]*(?: +[A-Za-z][\w.-]*)*) *:(?![=:])", re.M)


def makefile_targets():
    targets = set()
    for name in MAKEFILES:
        text = (REPO / name).read_text().replace("\\\n", " ")
        for match in RULE.finditer(text):
            targets |= set(match.group(1).split())
        for phony in re.findall(r"^\.PHONY *:(.*)$", text, re.M):
            targets |= set(phony.split())
    return targets


def test_help_lists_every_target_once():
    result = subprocess.run(["make", "-s", "help"], cwd=REPO, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    listed = re.findall(r"^  ([\w.-]+) +\S", result.stdout, re.M)
    targets = makefile_targets()
    assert len(targets) >= 30, sorted(targets)  # the reader found the makefiles' rules
    assert {"all", "run", "test", "soak", "image", "bench", "grade", "help"} <= targets
    assert sorted(listed) == sorted(set(listed)), "a target listed twice"
    assert set(listed) == targets, (f"not in make help: {sorted(targets - set(listed))}; "
                                    f"not a target: {sorted(set(listed) - targets)}")
    for line in result.stdout.splitlines():
        assert len(line) <= 100, line
