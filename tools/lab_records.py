"""What a grading run measured, kept for the tree it measured (tools/lab, tests/conftest.py).

`tools/lab results` writes docs/teaching/results.md from four kinds of grading run per
lab: the reference tree, the starting state and each flawed variant. `make test` makes
every one of them already (the lab grading tests, tests/test_labs.py's starting-state
check, tests/test_lab_variants.py), so each run leaves its result here, under a key
that names the tree it graded; `tools/lab results --check` then rebuilds results.md
from these and compares, measuring again only what no run of this tree left behind.

The key is a SHA-256 over every file git knows of or would add (tracked, and untracked
but not ignored), as it is in the working tree, except docs/ and *.md, which no grade
reads: any change to a source file, a lab, a test or a flawed variant is a new key.
Records live in build/labs/records/KEY/: LAB/KIND.json (KIND: reference, start,
variant-NAME) and pytest.jsonl (one line per test of any pytest session on this tree:
node id, passed, the properties it recorded). Python standard library only.
"""

import hashlib
import json
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RECORDS = REPO / "build" / "labs" / "records"
_keys = {}


def tree_key(root=REPO):
    """The key of the tree at `root` as it is now (cached for the process: a grading
    command does not edit the tree it grades)."""
    root = Path(root).resolve()
    if root in _keys:
        return _keys[root]
    listing = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], cwd=root, capture_output=True,
                             check=True).stdout.decode()
    digest = hashlib.sha256()
    for relative in sorted(filter(None, listing.split("\0"))):
        if relative.startswith("docs/") or relative.endswith(".md"):
            continue
        path = root / relative
        if not path.is_file():
            continue  # deleted in the working tree
        digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    _keys[root] = digest.hexdigest()[:24]
    return _keys[root]


def save(lab, kind, data):
    path = RECORDS / tree_key() / lab / f"{kind}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, indent=1))
    temporary.replace(path)


def load(lab, kind):
    """The record, or None if no run of this tree left one."""
    path = RECORDS / tree_key() / lab / f"{kind}.json"
    return json.loads(path.read_text()) if path.is_file() else None


def note_test(node_id, passed, properties):
    """tests/conftest.py: one test's outcome in this session (a later line for the same
    test wins)."""
    path = RECORDS / tree_key() / "pytest.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps({"id": node_id, "passed": passed,
                       "properties": {str(k): str(v) for k, v in properties}})
    with open(path, "a") as file:
        file.write(line + "\n")


def tests_seen():
    """{node id: (passed, properties)} from every pytest session on this tree."""
    path = RECORDS / tree_key() / "pytest.jsonl"
    seen = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a line cut short by a killed session
            seen[entry["id"]] = (entry["passed"], entry["properties"])
    return seen
