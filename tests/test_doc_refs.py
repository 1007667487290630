"""The docs name only things that exist: a renamed file, function, option or bench field
makes this fail, naming the document and line.

Checked in README.md and docs/**/*.md (not the generated docs/numbers/ and
docs/teaching/results.md), in every `inline code` span and every relative link:

* links and repository paths (`drivers/console/policy/async.c`, `boards/*/board.mk`, a bare
  `async.c`) exist; paths of other projects (Linux `Documentation/...`) and of build
  output (`build/...`, `results/...`) are not ours to check;
* `function()`, C identifiers, macros (`LOOKS_PER_CHARACTER`) and Spin switches
  (`NO_IDLE_KICK`) occur in the tree's code;
* kernel command-line keys (`uart.line.clock=0`) are looked up by the kernel, and
  `console=` options are ones the backends accept; make variables (`LINE=`, `ICOUNT=`)
  are used by the Makefiles; `--options` occur in the program or tool that takes them;
* bench JSON fields (`line_rate_pct`) are fields bench prints, and a field named on a line
  that names one benchmark section (S10-S45) is one that section prints. The fields come
  from one real `bench --quick` run under QEMU -icount (about 20 s).

Also: nothing in the repository points outside it (`../shared`, `/work/`), since a clone
has nothing there.
"""

import json
import re
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

import duplex_qemu

REPO = Path(__file__).resolve().parent.parent
GENERATED = {"docs/teaching/results.md"}
DOCS = [p for p in [REPO / "README.md"] + sorted((REPO / "docs").rglob("*.md"))
        if not p.relative_to(REPO).as_posix().startswith("docs/numbers/")
        and p.relative_to(REPO).as_posix() not in GENERATED]
TOP_LEVEL = {"uapi", "kernel", "drivers", "docs", "tests", "tools", "user", "libc", "boards", "labs"}
NOT_OURS = ("build/", "results/", "/", "path/to/", "~")
EXTENSIONS = (".c", ".h", ".S", ".py", ".md", ".mk", ".pml", ".dts", ".dtsi", ".ld", ".toml",
              ".cmd", ".json", ".png", ".dtb")


def tracked_files():
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=REPO, capture_output=True, text=True, check=True).stdout
    return [f for f in out.splitlines() if (REPO / f).exists()]


@lru_cache(maxsize=None)
def code_words():
    """Every identifier in the tree's code (comments included), not in its docs."""
    words = set()
    for name in tracked_files():
        if name.endswith((".md", ".png", ".dtb", ".json")) or name == "tests/test_doc_refs.py":
            continue
        try:
            words |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", (REPO / name).read_text()))
        except UnicodeDecodeError:
            continue
    return words


@lru_cache(maxsize=None)
def code_text(*prefixes):
    """The text of every tracked non-doc file under `prefixes`, joined."""
    parts = []
    for name in tracked_files():
        if name.startswith(prefixes) and not name.endswith((".md", ".png", ".dtb")):
            try:
                parts.append((REPO / name).read_text())
            except UnicodeDecodeError:
                pass
    return "\n".join(parts)


@lru_cache(maxsize=None)
def basenames():
    return {Path(f).name for f in tracked_files()}


@lru_cache(maxsize=None)
def bench_fields():
    """{section: set of JSON keys} from one bench --quick run (async, QEMU -icount)."""
    image = REPO / "build" / "qemu-virt" / "Image"
    if not image.is_file():
        pytest.fail(f"{image} not built: run make first", pytrace=False)
    with duplex_qemu.Guest(image, smp=4, icount=True, name="doc_refs_bench",
                           append="console=async init=/bin/bench -- --quick",
                           interactive=False) as guest:
        assert guest.wait_exit(300) == 0
        text = guest.output.decode("latin-1")
    fields = {}
    for line in re.findall(r"BENCH (\{.*\})", text):
        record = json.loads(line)
        fields.setdefault(record["section"], set()).update(record)
    assert "S44" in fields and "end" in fields, sorted(fields)
    return fields


# Names from other projects that the docs mention as such: name -> what it is.
EXTERNAL = {
    "nezha_defconfig": "a U-Boot defconfig of the smaeul/u-boot fork",
    "lichee_rv_dock_defconfig": "a U-Boot defconfig of the smaeul/u-boot fork",
    "uart0_pb8_pins": "a pin group label in Linux's D1 device trees",
    "kernel_addr_r": "a U-Boot environment variable",
    "fdt_addr_r": "a U-Boot environment variable",
    "BR2_TARGET_OPENSBI_CUSTOM_VERSION_VALUE": "a Buildroot configuration variable",
    "lichee_rv_dock": "a U-Boot defconfig name of the smaeul/u-boot fork",
    "console=ttyS0,115200": "Linux's console= option, in the vendor firmware's bootargs",
}
# Layers docs/design.md's layer table (the rule tests/test_layers.py checks) names ahead
# of their code, which other branches bring: path -> why it may be missing for now.
PLANNED = {
    "drivers/bind.h": "the driver table, in the layer table before its code",
}
# A path or name right after one of these is the other project's (Linux `drivers/...`).
OTHER_PROJECTS = re.compile(r"(Linux|Linux's|xv6-riscv|xv6|NuttX|Zephyr|StarryOS|U-Boot|"
                            r"QEMU|OpenSBI|Buildroot)[\s(,:]*(\S+\s+){0,3}$")


def paragraphs(path):
    """(first line number, text) of each paragraph outside fenced blocks (the commands
    there are run by tests/test_docs.py)."""
    fenced, start, lines = False, None, []
    for number, line in enumerate(path.read_text().splitlines() + [""], 1):
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.strip() and not (lines and re.match(r"\s*([-*]|\d+\.|\|) ", line)):
            start = start or number
            lines.append(line)
        elif line.strip():  # a list item or table row starts a paragraph of its own
            yield start, "\n".join(lines)
            start, lines = number, [line]
        elif lines:
            yield start, "\n".join(lines)
            start, lines = None, []


def references():
    """(doc, line number, text before the span in its paragraph, kind, span)."""
    for path in DOCS:
        for start, text in paragraphs(path):
            for match in re.finditer(r"\]\(([^)\s]+)\)|`([^`]+)`", text):
                number = start + text.count("\n", 0, match.start())
                before = text[:match.start()]
                if match.group(1):
                    yield path, number, before, "link", match.group(1)
                else:
                    yield path, number, before, "code", match.group(2).replace("\\|", "|")


def check_path(doc, span):
    """None if `span` names an existing file or folder of ours (or is not ours to check),
    else the problem."""
    if span.startswith(NOT_OURS):
        return None
    first = span.split("/", 1)[0]
    if "/" not in span:
        if span.endswith((".dtb", ".img")):
            return None  # build output
        if span.endswith(EXTENSIONS) and "*" not in span:
            return None if span in basenames() or (REPO / span).exists() else "no such file"
        return None
    if first not in TOP_LEVEL:
        return None  # another project's path (Linux, U-Boot, QEMU, ...)
    if any(c in span for c in "*?["):
        return None if list(REPO.glob(span)) else "nothing matches"
    span = span.split(":", 1)[0].split("#", 1)[0]
    if span in PLANNED:
        return None
    return None if (REPO / span).exists() else "no such file"


def check_option(span):
    """`key=value` (or `KEY=value`): the kernel, the backends or make know the key."""
    key, _, value = span.partition("=")
    key = key.strip()
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", key):
        if not re.search(rf"\b{key}\b", code_text("Makefile", "boards/", "tools/", "tests/",
                                                   "labs/", "user/user.mk")):
            return f"no make variable {key}"
        if key == "CONSOLE":
            return check_console(value)
        if key == "MODEL_FLAGS":
            for flag in re.findall(r"-D(\w+)", value):
                if flag not in code_words():
                    return f"no Spin switch {flag}"
        return None
    if not re.fullmatch(r"[a-z][a-z0-9.]*", key) or key == "key":
        return None  # kernel parameters have no underscore (U-Boot variables do)
    if key == "console":
        return check_console(value)
    if f'"{key}"' not in code_text("kernel/", "drivers/"):
        return f"the kernel never looks up {key}="
    return None


def check_console(value):
    options = [o for o in re.split(r"[,|\[\]]", value) if o and o not in ("...", "N")]
    if not options:
        return None
    text = code_text("drivers/console/", "drivers/console/")
    for option in options:
        # console=ttySN[,BAUD[n8]][,...]: the port by its Linux name, and Linux's rate
        # word, which the console core reads ("ttyS%d", "n8").
        if re.fullmatch(r"ttyS(\d+|N)", option):
            option = "ttyS"
        elif re.fullmatch(r"(\d+|BAUD)(n8)?", option):
            option = "n8"
        option = option.split("=", 1)[0] + ("=" if "=" in option else "")
        if f'"{option}' not in text and f'"{option}"' not in text \
                and f',{option}"' not in text and option not in ("polling", "async"):
            return f"no console option {option}"
    return None


def check_code(doc, before, span):
    """None if the `span` found after `before` (its paragraph up to it) names something
    that exists, else the problem."""
    span = span.strip()
    if span in EXTERNAL or OTHER_PROJECTS.search(before[-60:]) or span.startswith("."):
        return None
    if re.search(r"NAME|<|\.\.\.", span) and " " not in span:
        return None  # a placeholder: boards/NAME/
    if " " in span:
        # a command: check its options; any other phrase is prose
        if not span.startswith(("make ", "tools/", "bench ")):
            return None
        for token in span.split():
            if re.fullmatch(r"[A-Za-z][\w.]*=\S+", token):
                problem = check_option(token.strip('"\''))
                if problem:
                    return problem
        return None
    if "=" in span and not span.startswith(("-", "=")):
        return check_option(span)
    if span.startswith("--") and re.fullmatch(r"--[a-z][a-z-]*", span):
        return None if span in code_text("user/", "tools/", "Makefile") else "no such option"
    if "/" in span or span.endswith(EXTENSIONS):
        return check_path(doc, span.split("::", 1)[0])
    match = re.fullmatch(r"([A-Za-z_]\w*)\(\)", span)
    if match:
        return None if match.group(1) in code_words() else "no such function"
    if re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+", span):
        return None if span in code_words() else "no such macro or switch"
    if re.fullmatch(r"[a-z][a-z0-9]*_[a-z0-9_]+", span):
        fields = bench_fields()
        # The section a field belongs to: the last one named before it in its paragraph.
        named = [s for s in re.findall(r"\bS[1-4]\d\b", before) if s in fields]
        printed = set().union(*fields.values())
        if named and span in printed:
            section = named[-1]
            if span not in fields[section]:
                return f"{section} prints no field {span}"
            return None
        return None if span in printed or span in code_words() else \
            "neither a bench field nor a name in the code"
    return None


def test_docs_name_only_what_exists():
    problems = []
    for path, number, line, kind, span in references():
        where = f"{path.relative_to(REPO)}:{number}: `{span}`"
        if kind == "link":
            if re.match(r"[a-z]+:", span) or span.startswith("#"):
                continue
            target = (path.parent / span.split("#", 1)[0]).resolve()
            if not target.exists():
                problems.append(f"{where}: the link leads nowhere")
            continue
        problem = check_code(path, line, span)
        if problem:
            problems.append(f"{where}: {problem}")
    assert not problems, "stale references in the docs:\n" + "\n".join(problems)


def test_the_checker_catches_what_it_should():
    doc = REPO / "docs" / "labs.md"
    assert check_code(doc, "", "drivers/console/nosuch.c") == "no such file"
    assert check_code(doc, "", "drivers/console/policy/async.c") is None
    assert check_code(doc, "", "no_such_function_here()") == "no such function"
    assert check_code(doc, "", "kick_if_idle()") is None
    assert check_code(doc, "", "uart.line.clok=0") is not None
    assert check_code(doc, "", "uart.line.clock=0") is None
    assert check_code(doc, "", "console=polling,bytes") is not None
    assert check_code(doc, "", "NO_SUCH_SWITCH") is not None
    assert check_code(doc, "S44's per-worker", "p99_us") == "S44 prints no field p99_us"
    assert check_code(doc, "In each S44 line: `x`; in each S10 line", "line_rate_pct") is None
    assert check_code(doc, "S44's per-worker", "blocked_p99_us") is None


def test_nothing_points_outside_the_repository():
    found = subprocess.run(["git", "grep", "-n", "-I", "-e", "../shared", "-e", "/work/",
                            "--", ".", ":!tests/test_doc_refs.py"],
                           cwd=REPO, capture_output=True, text=True)
    assert found.returncode == 1, "paths outside the repository:\n" + found.stdout
