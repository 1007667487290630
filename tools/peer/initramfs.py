#!/usr/bin/python3
"""Write the Linux peer's initramfs: a cpio "newc" archive (the format Linux unpacks,
Documentation/driver-api/early-userspace/buffer-format.rst) holding /init, the benchmark
at /bin/glibc/bench and a /dev/console device node (5:1), which Linux opens as init's
standard streams before any /dev exists.

    tools/peer/initramfs.py --init build/linux-peer/init --bench BENCH --out FILE

Written directly, not with cpio(1), so that the device node needs no mknod (no root) and
the archive is the same bytes for the same inputs (times 0, owner root).
Called by tools/linux-peer.sh.
"""

import argparse
import sys
from pathlib import Path

S_IFDIR, S_IFREG, S_IFCHR = 0o040000, 0o100000, 0o020000


def entry(inode, name, mode, data=b"", device=(0, 0)):
    """One newc record: the 110-byte header in hex, the name with its NUL, the data,
    each padded to 4 bytes."""
    fields = [inode, mode, 0, 0, 1, 0, len(data), 0, 0, device[0], device[1],
              len(name) + 1, 0]
    record = b"070701" + "".join(f"{value:08x}" for value in fields).encode()
    record += name.encode() + b"\0"
    record += b"\0" * (-len(record) % 4)
    return record + data + b"\0" * (-len(data) % 4)


def archive(init, bench):
    """The archive's bytes for the /init and bench files' contents."""
    items = [("dev", S_IFDIR | 0o755, b"", (0, 0)),
             ("dev/console", S_IFCHR | 0o600, b"", (5, 1)),
             ("proc", S_IFDIR | 0o755, b"", (0, 0)),
             ("bin", S_IFDIR | 0o755, b"", (0, 0)),
             ("bin/glibc", S_IFDIR | 0o755, b"", (0, 0)),
             ("bin/glibc/bench", S_IFREG | 0o755, bench, (0, 0)),
             ("init", S_IFREG | 0o755, init, (0, 0))]
    out = b"".join(entry(i + 1, *item) for i, item in enumerate(items))
    return out + entry(len(items) + 1, "TRAILER!!!", 0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--init", required=True, type=Path)
    parser.add_argument("--bench", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args(argv)
    args.out.write_bytes(archive(args.init.read_bytes(), args.bench.read_bytes()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
