"""The layer rule: every #include in uapi/, kernel/, drivers/, libc/ and user/ goes down the
layer table in docs/design.md, and no files include each other in a circle.

The checker is tools/check_layers.py. Besides running it on the tree, these tests copy
the tree's sources into a temporary folder, break the rule there in one place (an upward
include, a sideways one, a header circle, a circle in the table, a folder without a row)
and check that the checker fails naming that file and line.
"""

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


def test_a_backend_reaching_into_a_uart_driver_fails(tree, table):
    # Sideways: the backends see a UART only through drivers/uart/uart.h.
    line = add_line(tree, "drivers/console/backend/async.c", '#include "drivers/uart/uart_16550.h"')
    problems = check_layers.check(tree, table)
    assert problems == [
        f'drivers/console/backend/async.c:{line}: #include "drivers/uart/uart_16550.h" goes from '
        "drivers/console/backend to drivers/uart, which drivers/console/backend's row does not list"
    ]


def test_a_backend_reaching_up_into_the_console_core_fails(tree, table):
    # The core and its backends share a folder; the rows still keep the lower half from
    # reaching up: a backend sees the core only through the ops table it implements.
    line = add_line(tree, "drivers/console/backend/polling.c", '#include "drivers/console/console.h"')
    problems = check_layers.check(tree, table)
    assert problems == [
        f'drivers/console/backend/polling.c:{line}: #include "drivers/console/console.h" goes from '
        "drivers/console/backend to drivers/console, which drivers/console/backend's row does not list"
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
