#!/usr/bin/python3
"""Check the layer rule: every #include goes down the layer table in docs/design.md.

The table (section "Layers" of docs/design.md) has one row per *unit*: a folder, or one
header whose implementation sits higher up than its declarations are needed (an
interface: the UART's, the console backends', panic's). A file belongs to the row that
names it, else to the row naming the longest folder that holds it. Each row says what
its files may include:

  kind `leaf`   a low service any kernel or driver file may include; it may include only
                other leaves.
  kind `layer`  may include the units in its "may include" column, and the leaves
                (user space and libc get no leaves: they reach the kernel only through the
                user ABI, uapi/, which their rows name; uapi/ itself includes no leaf).

The checker fails, naming file and line, on:
  - an include that goes to a unit the including file's row does not list (upward or
    sideways);
  - a quoted include it cannot find, and a file in no row (a new folder needs a row);
  - a circle in the table itself (then "may include" would not point down);
  - a circle of files including each other (header include circles, within a unit too).

Run it from the repository root:  /usr/bin/python3 tools/check_layers.py
"""

import os
import re
import sys
from pathlib import Path

SOURCE_FOLDERS = ("uapi", "kernel", "drivers", "libc", "user", "boards")
SOURCE_SUFFIXES = (".c", ".h", ".S")
# Units that get no leaves for free: user space and libc, and the user ABI headers they
# share with the kernel (uapi/), which must not pull a kernel header into a program.
USER_SIDE = ("user", "libc", "uapi")
TABLE_HEADER = ("layer", "kind", "may include", "why")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


class LayerTable:
    """The rows of the table: unit name -> (kind, set of units it may include)."""

    def __init__(self, rows):
        self.rows = rows  # name -> (kind, frozenset(allowed), line number in the doc)

    def unit_of(self, path):
        """The row a repository path belongs to, or None."""
        if path in self.rows:
            return path
        folder = os.path.dirname(path)
        while folder:
            if folder in self.rows:
                return folder
            folder = os.path.dirname(folder)
        return None

    def home_of(self, unit):
        """For a row naming one file, the unit of the folder holding it (kernel/fs for
        kernel/fs/file.h); None for a folder row."""
        if not unit.endswith(SOURCE_SUFFIXES):
            return None
        return self.unit_of(os.path.dirname(unit) + "/")

    def allowed(self, source_unit):
        """The units source_unit may include besides leaves: its list, the header rows
        inside its own folder, and the header rows inside the folders it lists."""
        _, listed, _ = self.rows[source_unit]
        allowed = set(listed)
        for name in self.rows:
            home = self.home_of(name)
            if home is not None and home != name and (home == source_unit or home in listed):
                allowed.add(name)
        return allowed

    def may_include(self, source_unit, target_unit):
        if source_unit == target_unit:
            return True
        if target_unit in self.allowed(source_unit):
            return True
        target_kind = self.rows[target_unit][0]
        return target_kind == "leaf" and not source_unit.startswith(USER_SIDE)


def parse_table(markdown_text, where="docs/design.md"):
    """Read the layer table: the markdown table whose header is TABLE_HEADER.
    Raises ValueError naming the line on anything malformed."""
    rows = {}
    in_table = False
    for number, line in enumerate(markdown_text.splitlines(), 1):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not in_table:
            if line.lstrip().startswith("|") and tuple(c.lower() for c in cells) == TABLE_HEADER:
                in_table = True
            continue
        if not line.lstrip().startswith("|"):
            break
        if set(line.replace("|", "").strip()) <= set("-: "):
            continue  # the |---|---| line
        if len(cells) != len(TABLE_HEADER):
            raise ValueError(f"{where}:{number}: layer table row needs {len(TABLE_HEADER)} cells")
        names = re.findall(r"`([^`]+)`", cells[0])
        kind = cells[1].strip("`")
        if len(names) != 1 or kind not in ("leaf", "layer"):
            raise ValueError(f"{where}:{number}: a row names one `unit` and kind leaf or layer")
        allowed = frozenset(re.findall(r"`([^`]+)`", cells[2]))
        if names[0] in rows:
            raise ValueError(f"{where}:{number}: {names[0]} has two rows")
        rows[names[0]] = (kind, allowed, number)
    if not rows:
        raise ValueError(f"{where}: no layer table (a table headed | " + " | ".join(TABLE_HEADER) + " |)")
    for name, (kind, allowed, number) in rows.items():
        for target in allowed:
            if target not in rows:
                raise ValueError(f"{where}:{number}: {name} may include {target}, which has no row")
            if kind == "leaf" and rows[target][0] != "leaf":
                raise ValueError(f"{where}:{number}: leaf {name} may include only leaves, not {target}")
    return LayerTable(rows)


def find_cycle(graph):
    """One cycle of a {node: iterable of nodes} graph as a list [a, b, ..., a], or None."""
    state = {}  # node -> 1 on the current path, 2 done
    for start in sorted(graph):
        if start in state:
            continue
        stack = [(start, iter(sorted(graph.get(start, ()))))]
        path = [start]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(child) == 1:
                return path[path.index(child):] + [child]
            elif child not in state:
                state[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(graph.get(child, ())))))
    return None


def source_files(root):
    for top in SOURCE_FOLDERS:
        for folder, _, names in os.walk(root / top):
            for name in sorted(names):
                if name.endswith(SOURCE_SUFFIXES):
                    yield (Path(folder) / name).relative_to(root).as_posix()


def resolve(root, path, style, target):
    """The repository path an include names, or None for a system header (or one the
    compiler finds outside the tree). Quoted: the file's own folder, then the root (-I.).
    Angle brackets: user space and libc look in libc/include first (user.mk's -Ilibc/include),
    then the root (-idirafter .); the kernel only in the root."""
    candidates = []
    if style == '"':
        candidates.append(os.path.join(os.path.dirname(path), target))
    elif path.startswith(("user/", "libc/")):
        candidates.append(os.path.join("libc/include", target))
    candidates.append(target)
    for candidate in candidates:
        candidate = os.path.normpath(candidate)
        if (root / candidate).is_file():
            return candidate
    return None


def check(root, table):
    """Every problem in the tree under `root` as a list of "file:line: message"."""
    problems = []
    file_graph = {}
    where = {}  # (file, included file) -> line
    for path in source_files(root):
        unit = table.unit_of(path)
        if unit is None:
            problems.append(f"{path}:1: in no row of the layer table (docs/design.md)")
            continue
        file_graph.setdefault(path, set())
        text = (root / path).read_text(errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            match = INCLUDE.match(line)
            if not match or line.lstrip().startswith("#include_next"):
                continue
            style, target = match.groups()
            included = resolve(root, path, style, target)
            if included is None:
                if style == '"':
                    problems.append(f"{path}:{number}: #include \"{target}\": no such file")
                continue
            file_graph[path].add(included)
            where[(path, included)] = number
            target_unit = table.unit_of(included)
            if target_unit is None:
                continue  # reported where that file is walked
            if not table.may_include(unit, target_unit):
                problems.append(
                    f"{path}:{number}: #include \"{target}\" goes from {unit} to "
                    f"{target_unit}, which {unit}'s row does not list")
    table_graph = {name: table.allowed(name) for name in table.rows}
    cycle = find_cycle(table_graph)
    if cycle:
        number = table.rows[cycle[0]][2]
        problems.append(f"docs/design.md:{number}: the layer table has a circle: " + " -> ".join(cycle))
    cycle = find_cycle(file_graph)
    if cycle:
        steps = [f"{a}:{where[(a, b)]} includes {b}" for a, b in zip(cycle, cycle[1:])]
        problems.append(f"{cycle[0]}:{where[(cycle[0], cycle[1])]}: include circle: " + ", ".join(steps))
    return problems


def main():
    root = Path(__file__).resolve().parent.parent
    table = parse_table((root / "docs/design.md").read_text())
    problems = check(root, table)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} layer rule violation(s); the rule is the table in docs/design.md")
        return 1
    print(f"layers: {len(table.rows)} units, every include goes down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
