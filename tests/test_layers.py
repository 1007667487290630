"""The layer rule: every #include in uapi/, kernel/, drivers/, libc/ and user/ goes down the
layer table in docs/design.md, and no files include each other in a circle.

The checker is tools/check_layers.py. Besides running it on the tree, these tests copy
the tree's sources into a temporary folder, break the rule there in one place (an upward
include, a sideways one, a header circle, a circle in the table, a folder without a row)
and check that the checker fails naming that file and line.
"""

import re
import shutil
from pathlib import Path

import pytest

import check_layers

REPO = Path(__file__).resolve().parent.parent
DESIGN = (REPO / "docs" / "design.md").read_text()


@pytest.fixture
def table():
    return check_layers.parse_table(DESIGN)


@pytest.fixture
def tree(tmp_path):
    """A copy of the tree's C and assembly sources (nothing else), to break."""
    for path in check_layers.source_files(REPO):
        destination = tmp_path / path
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / path, destination)
    return tmp_path


def add_line(root, path, text):
    """Append `text` as a new last line of root/path; returns its line number."""
    file = root / path
    lines = file.read_text().splitlines()
    lines.append(text)
    file.write_text("\n".join(lines) + "\n")
    return len(lines)


def test_the_tree_follows_the_layer_table(table):
    problems = check_layers.check(REPO, table)
    assert problems == [], "\n".join(problems)


def test_every_source_folder_has_a_row(table):
    folders = {str(Path(p).parent) for p in check_layers.source_files(REPO)}
    assert all(table.unit_of(folder + "/x.c") for folder in folders)


def test_an_upward_include_fails_naming_file_and_line(tree, table):
    assert check_layers.check(tree, table) == []
    line = add_line(tree, "kernel/lib/string.c", '#include "kernel/sched/sched.h"')
    problems = check_layers.check(tree, table)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"kernel/lib/string.c:{line}: ")
    assert "kernel/lib to kernel/sched" in problems[0]


def test_a_leaf_cannot_include_a_layer(tree, table):
    line = add_line(tree, "kernel/panic/panic.h", '#include "kernel/trap/trap.h"')
    problems = check_layers.check(tree, table)
    assert [p for p in problems if p.startswith(f"kernel/panic/panic.h:{line}: ")], problems


def test_a_policy_reaching_into_a_uart_driver_fails(tree, table):
    # Sideways: the TX policies see a UART only through drivers/uart/uart.h.
    line = add_line(tree, "drivers/console/policy/async.c", '#include "drivers/uart/uart_16550.h"')
    problems = check_layers.check(tree, table)
    assert problems == [
        f'drivers/console/policy/async.c:{line}: #include "drivers/uart/uart_16550.h" goes from '
        "drivers/console/policy to drivers/uart, which drivers/console/policy's row does not list"
    ]


def test_a_policy_reaching_up_into_the_console_core_fails(tree, table):
    # The core and its policies share a folder; the rows still keep the lower half from
    # reaching up: a policy sees the core only through the port it is handed.
    line = add_line(tree, "drivers/console/policy/polling.c", '#include "drivers/console/console.h"')
    problems = check_layers.check(tree, table)
    assert problems == [
        f'drivers/console/policy/polling.c:{line}: #include "drivers/console/console.h" goes from '
        "drivers/console/policy to drivers/console, which drivers/console/policy's row does not list"
    ]


def test_the_port_cannot_name_a_policy(tree, table):
    # The port is what every policy shares: it reaches a policy only through the ops
    # table in port.h, never a policy's own header, so no policy can become a special case.
    line = add_line(tree, "drivers/console/port/port.c", '#include "drivers/console/policy/policy.h"')
    problems = check_layers.check(tree, table)
    assert problems == [
        f'drivers/console/port/port.c:{line}: #include "drivers/console/policy/policy.h" goes '
        "from drivers/console/port to drivers/console/policy, which drivers/console/port's row "
        "does not list"
    ]


def test_user_space_cannot_include_kernel_internals(tree, table):
    line = add_line(tree, "libc/io.c", "#include <kernel/lib/string.h>")
    problems = check_layers.check(tree, table)
    assert len(problems) == 1 and problems[0].startswith(f"libc/io.c:{line}: "), problems


def test_libc_reaching_into_kernel_or_drivers_fails(tree, table):
    # libc sees the kernel only through the user ABI in uapi/: the syscall layer's own
    # header and the console core are off limits, whichever include style names them.
    first = add_line(tree, "libc/stat.c", '#include "kernel/syscall/syscall.h"')
    second = add_line(tree, "libc/stat.c", "#include <drivers/console/console.h>")
    problems = check_layers.check(tree, table)
    assert problems == [
        f'libc/stat.c:{first}: #include "kernel/syscall/syscall.h" goes from libc to '
        "kernel/syscall, which libc's row does not list",
        f'libc/stat.c:{second}: #include "drivers/console/console.h" goes from libc to '
        "drivers/console, which libc's row does not list",
    ]


def test_the_user_abi_includes_nothing_of_the_kernel(tree, table):
    # uapi/ is a leaf, but one that gets no other leaf: a program including it must not
    # get kernel/lib's errno.h (or anything else of the kernel) with it.
    line = add_line(tree, "uapi/stat.h", '#include "kernel/lib/errno.h"')
    problems = check_layers.check(tree, table)
    assert problems == [
        f'uapi/stat.h:{line}: #include "kernel/lib/errno.h" goes from uapi to kernel/lib, '
        "which uapi's row does not list"
    ]


def test_libc_and_the_kernel_share_the_user_abi(table):
    assert table.may_include("libc", "uapi") and table.may_include("user", "uapi")
    assert table.may_include("kernel/syscall", "uapi") and table.may_include("drivers/console", "uapi")
    assert not table.may_include("uapi", "libc") and not table.may_include("uapi", "kernel/syscall")


def test_a_header_circle_fails_even_inside_one_folder(tree, table):
    # page.h includes page_pool.h (both kernel/mm); page_pool.h including page.h closes
    # a circle that no row can see.
    line = add_line(tree, "kernel/mm/page_pool.h", '#include "kernel/mm/page.h"')
    problems = check_layers.check(tree, table)
    assert len(problems) == 1, problems
    assert "include circle" in problems[0]
    assert f"kernel/mm/page_pool.h:{line} includes kernel/mm/page.h" in problems[0]
    assert "kernel/mm/page.h:" in problems[0] and "includes kernel/mm/page_pool.h" in problems[0]


def test_a_circle_in_the_table_fails(tree):
    # Let the harts include the scheduler, which includes the harts.
    text = DESIGN.replace("| `kernel/hart` | layer | `kernel/mm`,",
                          "| `kernel/hart` | layer | `kernel/sched`, `kernel/mm`,")
    assert text != DESIGN
    problems = check_layers.check(tree, check_layers.parse_table(text))
    assert len(problems) == 1 and "the layer table has a circle" in problems[0], problems
    assert "kernel/hart" in problems[0] and "kernel/sched" in problems[0]


def test_a_folder_without_a_row_fails(tree, table):
    (tree / "kernel" / "newthing").mkdir()
    (tree / "kernel" / "newthing" / "newthing.c").write_text('#include "kernel/lib/string.h"\n')
    problems = check_layers.check(tree, table)
    assert problems == ["kernel/newthing/newthing.c:1: in no row of the layer table (docs/design.md)"]


def test_a_missing_quoted_include_fails(tree, table):
    line = add_line(tree, "kernel/irq/irq.c", '#include "timer/clock.h"')  # the old -Ikernel path
    problems = check_layers.check(tree, table)
    assert problems == [f'kernel/irq/irq.c:{line}: #include "timer/clock.h": no such file']


def test_a_malformed_table_is_an_error():
    with pytest.raises(ValueError, match="has no row"):
        check_layers.parse_table(DESIGN.replace("| `kernel/power` | layer | `kernel/sbi` |",
                                                "| `kernel/power` | layer | `kernel/nowhere` |"))


# Console state belongs to a terminal or its port (drivers/console/tty.h, port/port.h):
# the one table of terminals in console.c is the only static, mutable state the console
# code may keep. A static variable elsewhere would be one more singleton a second UART
# could not have.
CONSOLE_STATE_ALLOWED = {("drivers/console/console.c", "ttys")}
STATIC_VARIABLE = re.compile(
    r"^\s*static\s+(?!inline\b)(?:volatile\s+)?(?P<type>[\w\s\*]+?)\s*\**\s*(?P<name>\w+)\s*(?:\[[^\]]*\])*\s*(?:=|;)")


def console_static_state(root):
    """(path, name) of every static, non-const variable in the console's C files, file
    scope or function scope."""
    found = []
    for path in sorted((root / "drivers" / "console").rglob("*.c")):
        for line in path.read_text().splitlines():
            match = STATIC_VARIABLE.match(line)
            if not match or "const" in match.group("type").split() or "(" in line.split("=")[0]:
                continue
            found.append((str(path.relative_to(root)), match.group("name")))
    return found


def test_console_code_keeps_no_static_state():
    found = set(console_static_state(REPO))
    assert found == CONSOLE_STATE_ALLOWED, (
        "console state outside a terminal or port (put it in struct console_tty or "
        f"struct console_port): {sorted(found - CONSOLE_STATE_ALLOWED)}")


def test_the_static_state_check_sees_a_new_singleton(tree):
    # The check must be able to fail: a file-static counter and a function-static buffer
    # added to a policy are both found.
    add_line(tree, "drivers/console/policy/polling.c", "static uint64_t polls_seen;")
    add_line(tree, "drivers/console/port/port.c", "\tstatic uint8_t scratch[64];")
    found = set(console_static_state(tree))
    assert ("drivers/console/policy/polling.c", "polls_seen") in found
    assert ("drivers/console/port/port.c", "scratch") in found
