"""Handing the labs out and collecting them (tools/lab export, handin, grade-handin).

`tools/lab export DIR` writes the student repository: every lab in its starting state,
no reference body anywhere in it (its files and its git objects), no teacher's files
(the guide's answers, results.md, the flawed variants), one commit tagged lab-start.
`make handin` there bundles the diff since lab-start, answers.md and the grade table;
`tools/lab grade-handin` here rebuilds the student's tree from this checkout's starting
state and the patch, puts back any grading file the student changed, and grades it.
"""

import shutil
import subprocess
import tarfile

from test_labs import PYTHON, REPO, lab

BODIES = list(lab.reference_bodies())


def export(tmp_path):
    destination = tmp_path / "student"
    result = subprocess.run([PYTHON, "tools/lab", "export", str(destination)], cwd=REPO,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return destination


def test_the_reference_finder_finds_the_references():
    # Run on this checkout, the finder the export test relies on finds every body.
    found = {(name, function) for name, function, _ in
             lab.leaked_references(REPO / "drivers", BODIES) +
             lab.leaked_references(REPO / "tests" / "model", BODIES)}
    assert found == {(name, function["name"]) for name, function, _ in BODIES}


def test_export_holds_no_reference_body(tmp_path):
    destination = export(tmp_path)
    # Every file, and the git objects unpacked (git stores them compressed).
    leaks = lab.leaked_references(destination, BODIES)
    assert leaks == [], leaks
    objects = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"],
                             cwd=destination, capture_output=True).stdout.decode("utf-8",
                                                                                 "replace")
    dump = tmp_path / "objects.txt"
    dump.write_text(objects)
    assert lab.leaked_references(tmp_path, BODIES) == [], "a reference body in git objects"
    log = subprocess.run(["git", "log", "--format=%s"], cwd=destination,
                         capture_output=True, text=True).stdout.splitlines()
    assert len(log) == 1 and log[0].startswith("Duplex labs: every lab in its starting")
    for left_out in lab.EXPORT_LEAVES_OUT:
        assert not (destination / left_out).exists(), left_out
    assert not list(destination.glob("labs/*/flawed"))
    answers = (destination / lab.ANSWERS_FILE).read_text()
    for name in lab.lab_names():
        assert f"## {name}: " in answers
    assert "Answer:" in answers


def test_handin_is_graded_by_the_teachers_copy(tmp_path):
    destination = export(tmp_path)
    # The build outputs, so that the student's first build is incremental here.
    for built in ("qemu-virt", "host"):
        shutil.copytree(REPO / "build" / built, destination / "build" / built, symlinks=True)
    # The student solves tx-refill (the reference body) with every other lab still in its
    # starting state, answers a question, and "helps" a grading test.
    for name, function, body in BODIES:
        if function["name"] == "refill_fifo":
            path = destination / function["file"]
            text = path.read_text()
            start, end = lab.function_body_span(text, "refill_fifo")
            path.write_text(text[:start + 1] + body + text[end:])
    with open(destination / lab.ANSWERS_FILE, "a") as answers:
        answers.write("\nThe direct path.\n")
    grading = destination / "tests" / "labs" / "test_lab_tx_refill.py"
    grading.write_text(grading.read_text() + "\n# edited by the student\n")
    result = subprocess.run(["make", "-s", "handin", "LAB=tx-refill"], cwd=destination,
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "score 100/100" in result.stdout, result.stdout
    bundle = destination / "handin.tar.gz"
    with tarfile.open(bundle) as opened:
        names = set(opened.getnames())
    assert {"handin/diff.patch", "handin/grades.txt", "handin/answers.md"} <= names
    teacher = subprocess.run([PYTHON, "tools/lab", "grade-handin", str(bundle)], cwd=REPO,
                             capture_output=True, text=True, timeout=900)
    assert teacher.returncode == 0, teacher.stdout + teacher.stderr
    assert "put back: tests/labs/test_lab_tx_refill.py" in teacher.stdout, teacher.stdout
    assert "The direct path." in teacher.stdout
    assert teacher.stdout.rstrip().endswith("score 100/100 (pass; 70 of 100 to pass)"), \
        teacher.stdout
