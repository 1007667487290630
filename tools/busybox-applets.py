#!/usr/bin/env python3
"""Print the applet names of a busybox binary, one a line (what `busybox --list` prints).

    tools/busybox-applets.py path/to/busybox

With QEMU's user-mode emulator (qemu-riscv64, Debian's qemu-user) on PATH it runs
`busybox --list`. Otherwise it reads the list from the binary without running it: busybox
keeps its applet names as one block of NUL-terminated strings in sorted order, starting
with "[" and "[[" (busybox include/applet_tables.h, made by applets/applet_tables.c:
applet_names[]). The block is accepted only if it is sorted, every name is a plain
command name and it has at least 50 of them; else this exits 1 saying why.
user/busybox.mk makes /bin/<applet> links to /bin/busybox from the list.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

NAME = re.compile(rb"^[A-Za-z0-9_.\[\]-]+$")


def from_binary(data):
    start = data.find(b"[\0[[\0")
    if start < 0:
        raise ValueError("no applet name table (\"[\", \"[[\", ...) in the binary")
    names, position = [], start
    while True:
        end = data.index(b"\0", position)
        name = data[position:end]
        if not name:
            break
        if not NAME.match(name):
            break
        names.append(name.decode())
        position = end + 1
    if len(names) < 50 or names != sorted(names):
        raise ValueError(f"the table found is not busybox's ({len(names)} names, sorted: "
                         f"{names == sorted(names)})")
    return names


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    binary = Path(argv[1])
    emulator = shutil.which("qemu-riscv64") or shutil.which("qemu-riscv64-static")
    if emulator:
        result = subprocess.run([emulator, str(binary), "--list"], capture_output=True,
                                text=True)
        if result.returncode == 0 and result.stdout.strip():
            print(result.stdout.strip())
            return 0
    try:
        names = from_binary(binary.read_bytes())
    except (OSError, ValueError) as error:
        print(f"{binary}: {error}", file=sys.stderr)
        return 1
    print("\n".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
