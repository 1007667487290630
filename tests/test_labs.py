"""The graded labs cannot rot (tools/lab, labs/*/lab.toml).

For every lab: its starting state (the functions the student writes, emptied) still
builds and scores at most 10 of 100 (a lab scores 0 until its core tests all pass;
tools/lab run_grading). That it passes on the committed tree is the lab's grading
tests themselves (tests/labs/), which `make test` runs like every other test. The check
runs in a copy under build/labs/NAME/ so the checkout is never modified, reusing the
build outputs so that only the changed files are recompiled. The flawed variants are
tests/test_lab_variants.py.

Also: every lab's definition is complete (points for exactly the tests it has, a handout
that exists), the function finder copes with what C files contain, and `make lab-start`
makes its branch and commit (in a clone, not here).
"""

import importlib.machinery
import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PYTHON = "/usr/bin/python3"


def load_tool():
    loader = importlib.machinery.SourceFileLoader("lab_tool", str(REPO / "tools" / "lab"))
    spec = importlib.util.spec_from_loader("lab_tool", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


lab = load_tool()
LABS = lab.lab_names()


def test_there_are_at_least_five_code_changing_labs():
    assert len(LABS) >= 5, LABS


@pytest.mark.parametrize("name", LABS)
def test_lab_definition_is_complete(name):
    definition = lab.load_lab(name)
    assert (REPO / definition["handout"]).is_file(), definition["handout"]
    collected = subprocess.run(
        [PYTHON, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         *definition["tests"]], cwd=REPO, capture_output=True, text=True)
    assert collected.returncode == 0, collected.stdout + collected.stderr
    tests = [line.split("::", 1)[1] for line in collected.stdout.splitlines() if "::" in line]
    assert tests, collected.stdout
    for test in tests:
        assert lab.points_for(definition, test) > 0, test
    bases = {t.split("[", 1)[0] for t in tests} | set(tests)
    assert set(definition["points"]) <= bases, \
        f"points for tests that do not exist: {set(definition['points']) - bases}"
    for function in definition["function"]:
        source = (REPO / function["file"]).read_text()
        lab.function_body_span(source, function["name"])  # exactly one definition


def in_the_labs_copy(name, *values):
    """A parameter for a test that grades lab NAME in its copy, build/labs/NAME/tree
    (tools/lab): one pytest-xdist worker runs every test that does (the starting state
    here, the flawed variants in tests/test_lab_variants.py)."""
    return pytest.param(*values, marks=pytest.mark.xdist_group(f"lab-copy-{name}"))


@pytest.mark.parametrize("name", [in_the_labs_copy(name, name) for name in LABS])
def test_starting_state_fails_its_grade(name):
    result = subprocess.run([PYTHON, "tools/lab", "check", name], cwd=REPO,
                            capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stdout + result.stderr
    score = re.search(r"the starting state scores (\d+)/(\d+)", result.stdout)
    assert score and int(score.group(1)) * 100 <= lab.START_MAX * int(score.group(2)), \
        result.stdout
    # It says why: the first failure names the number it expected and the one it got.
    assert re.search(r"failed \S+: [^\n]*(\n[^\n]*)*?(expected|Spin found)", result.stdout), \
        result.stdout
    print(result.stdout)


def test_make_grade_prints_a_score_table():
    name = "polling-fifo"
    result = subprocess.run(["make", "-s", "grade", f"LAB={name}"], cwd=REPO,
                            capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stdout + result.stderr
    total = sum(lab.points_for(lab.load_lab(name), t) for t in
                [line.split()[1] for line in result.stdout.splitlines()
                 if line.startswith("  ok ")])
    assert f"score {total}/{total}" in result.stdout, result.stdout


def test_lab_results_are_current():
    """docs/teaching/results.md is what `make lab-results` writes for the labs as they are:
    every lab, every grading test with its points, full marks on the reference tree and
    less in the starting state. (Regenerate it when a lab or its tests change.)"""
    results = (REPO / "docs" / "teaching" / "results.md").read_text()
    assert "Written by `make lab-results`" in results
    for name in LABS:
        definition = lab.load_lab(name)
        section = results.split(f"## {name}: ", 1)
        assert len(section) == 2, f"results.md has no section for lab {name}"
        section = section[1].split("\n## ", 1)[0]
        rows = re.findall(r"^\| `([^`]+)` \| (\d+) \| (\d+) \| (\w+[^|]*) \|", section, re.M)
        collected = subprocess.run(
            [PYTHON, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
             *definition["tests"]], cwd=REPO, capture_output=True, text=True).stdout
        tests = [line.split("::", 1)[1] for line in collected.splitlines() if "::" in line]
        assert [r[0] for r in rows] == tests, f"{name}: results.md is stale (make lab-results)"
        for test, points, reference, start in rows:
            assert int(points) == lab.points_for(definition, test), (name, test)
            assert reference == points, (name, test, "the reference tree lost points")
        total = sum(int(p) for _, p, _, _ in rows)
        assert f"Score: reference {total}/{total}, start " in section
        start_score = int(re.search(r"start (\d+)/", section).group(1))
        assert start_score * 100 <= lab.START_MAX * total, \
            f"{name}: the starting state scored {start_score}/{total}"
        variants = re.findall(r"^\| `([^`]+)` \| [^|]+ \| (\d+)/(\d+) \|", section, re.M)
        assert [v[0] for v in variants] == lab.variant_names(name), \
            f"{name}: results.md's flawed variants are stale (make lab-results)"
        for variant, score, out_of in variants:
            assert int(score) * 100 < definition["pass_mark"] * int(out_of), (name, variant)


SOURCE = r'''
#define CALL(x) kick_if_idle(x) /* a macro, not a definition { */
static void kick_if_idle(void);
/* kick_if_idle() { in a comment } */
static const char *text = "kick_if_idle() { in a string";
static void kick_if_idle(void)
{
	if (x) {
		y('}');
	}
}
static int __attribute__((noinline)) other(int a,
                                           int b)
{
	return kick_if_idle(), a + b;
}
'''


def test_function_finder_finds_only_the_definition():
    new = lab.replace_body(SOURCE, "kick_if_idle", "/* LAB */\nreturn;")
    assert "static void kick_if_idle(void)\n{\n\t/* LAB */\n\treturn;\n}\n" in new
    assert "y('}')" not in new and "return kick_if_idle(), a + b;" in new
    new = lab.replace_body(SOURCE, "other", "return 0;")
    assert "int b)\n{\n\treturn 0;\n}\n" in new


def test_function_finder_refuses_missing_and_duplicate_definitions():
    with pytest.raises(lab.LabError, match="no definition of absent"):
        lab.function_body_span(SOURCE, "absent")
    with pytest.raises(lab.LabError, match="2 definitions"):
        lab.function_body_span(SOURCE + SOURCE.split("#define", 1)[1].split("\n", 1)[1],
                               "other")


def test_lab_start_makes_a_branch_and_a_commit(tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--shared", str(REPO), str(clone)], check=True)
    name = LABS[0]
    result = subprocess.run(["make", "-s", "lab-start", f"LAB={name}"], cwd=clone,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    branch = subprocess.run(["git", "branch", "--show-current"], cwd=clone,
                            capture_output=True, text=True).stdout.strip()
    assert branch == f"lab/{name}"
    log = subprocess.run(["git", "log", "-1", "--format=%s"], cwd=clone,
                         capture_output=True, text=True).stdout
    assert log.startswith(f"lab {name}: starting state")
    definition = lab.load_lab(name)
    function = definition["function"][0]
    text = (clone / function["file"]).read_text()
    start, end = lab.function_body_span(text, function["name"])
    assert f"LAB {name}" in text[start:end]
    # A second start refuses, and says how to go back.
    again = subprocess.run(["make", "-s", "lab-start", f"LAB={name}"], cwd=clone,
                           capture_output=True, text=True)
    assert again.returncode != 0 and "exists already" in again.stderr


def test_without_tomllib_the_tool_says_what_to_install():
    # Python 3.10 has no tomllib: tools/lab falls back to tomli (Debian's and Ubuntu's
    # python3-tomli) and, without it either, says so instead of a traceback.
    block = ("import sys; sys.modules['tomllib'] = None; sys.modules['tomli'] = None; "
             "sys.argv = ['tools/lab', 'list']; "
             "exec(compile(open('tools/lab').read(), 'tools/lab', 'exec'))")
    result = subprocess.run([PYTHON, "-c", block], cwd=REPO, capture_output=True, text=True)
    assert result.returncode != 0 and "python3-tomli" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr, result.stderr


def test_results_check_allows_only_measured_noise():
    # tools/lab results --check: on several harts a flawed variant's overrun count or
    # p99 varies by a fraction of a percent between runs; nothing else may differ.
    same = lab.same_results
    assert same("line_overruns = 52045, p99 = 10002.1 µs", "line_overruns = 52039, p99 = 10002.2 µs")
    assert not same("score 0/100", "score 1/100")          # a score
    assert not same("polling.c:74:34: error", "polling.c:75:34: error")  # a line number
    assert not same("busy_ns_per_byte=4170.0", "busy_ns_per_byte=4300.0")  # 3 %: a change
    assert not same("| `ring-empty-only` |", "| `tx-idle-spin` |")  # words
