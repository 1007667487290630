"""Every flawed variant of every lab fails its grade, saying why (tools/lab variant).

labs/NAME/flawed/VARIANT.toml is a solution a student might write from the handout
alone, with the mistake the lab is about: a spin inside the spinlock, a whole write in
one lock hold, a leaked lock, a busy-wait in the refill, a skipped note_load, a dropped
byte, a drain that spins on tx_idle(), a model left relying on the THRE edge, a register
shifted twice, a build error. Each is graded in a copy (build/labs/NAME/tree; the
checkout is never touched) and must score below the lab's pass mark, with its `expect`
text (the property it breaks) in the grade's output; every failure message names the
number it expected and the one it got (or Spin's error count, a host test's failing
check, the compiler's first error) and, if a guest ran, the path of its log. The grade
stops at the first failing test, so most variants cost one boot.
"""

import re
import subprocess

import pytest

from test_labs import LABS, PYTHON, REPO, in_the_labs_copy, lab

VARIANTS = [(name, variant) for name in LABS for variant in lab.variant_names(name)]


def test_every_lab_has_flawed_variants():
    for name in LABS:
        assert len(lab.variant_names(name)) >= 2, f"lab {name} has fewer than 2 variants"


def failure_messages(output):
    """{test: its message lines} from a grade's `failed: TEST:` blocks."""
    messages, current = {}, None
    for line in output.splitlines():
        found = re.match(r"  failed: (\S+):$", line)
        if found:
            current = messages.setdefault(found.group(1), [])
        elif current is not None and line.startswith("      "):
            current.append(line.strip())
        else:
            current = None
    return messages


@pytest.mark.parametrize("name,variant", [in_the_labs_copy(n, n, v) for n, v in VARIANTS],
                         ids=[f"{n}-{v}" for n, v in VARIANTS])
def test_flawed_variant_fails_and_says_why(name, variant):
    result = subprocess.run([PYTHON, "tools/lab", "variant", name, variant], cwd=REPO,
                            capture_output=True, text=True, timeout=1200)
    output = result.stdout + result.stderr
    print(output)
    assert result.returncode == 0, output
    if "the build failed" in output:
        assert "first errors" in output and "error:" in output, output
        return
    messages = failure_messages(result.stdout)
    assert messages, f"the grade names no failed test:\n{output}"
    for test, lines in messages.items():
        text = "\n".join(lines)
        assert re.search(r"expected|Spin found \d+ error|exited with status", text), \
            f"{test}: the message names no expected value:\n{text}"
        if "guest" in text or "console=" in text:
            assert "guest log: /" in text, f"{test}: the message names no guest log:\n{text}"
