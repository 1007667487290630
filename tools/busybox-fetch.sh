#!/usr/bin/env bash
# Put Debian trixie's busybox-static for riscv64 (a static glibc build, unmodified) into
# build/busybox/, and print the path of the binary. Used by `make ... USERLAND=busybox`
# (user/busybox.mk), which packs it as /bin/busybox with its applet links, and by
# tests/test_busybox.py.
#
# How: tools/debian-fetch.sh, as for QEMU 10 and the Linux peer: a private apt
# configuration under build/busybox/apt/ (its own source list for trixie with
# arch=riscv64, its own package lists and cache; the system's /etc/apt sources and lists
# are not touched), `apt-get download` of the pinned version, then `dpkg -x` into
# build/busybox/root/. Nothing is installed. Trixie merged /bin into /usr, so the
# binary is root/usr/bin/busybox.
#
# The version is pinned (BUSYBOX_VERSION below, or the environment's): the same bytes
# every time, whatever trixie's archive moves on to. To move it: look up the new version
# (https://packages.debian.org/trixie/busybox-static; a pinned version that is gone makes
# the fetch list the versions there are), set BUSYBOX_VERSION, run the
# busybox tests (tests/test_busybox.py), and update the version named in README.md.
# Once trixie's archive drops a version, apt-get download of it fails: the error says so.
#
# Idempotent: when the pinned version is unpacked already it only prints the path.
# Exits non-zero with apt's own error when the archive cannot be reached.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${BUSYBOX_DIR:-$REPO/build/busybox}"
VERSION="${BUSYBOX_VERSION:-1:1.37.0-6+b9}"
ROOT="$OUT/root"
BINARY="$ROOT/usr/bin/busybox"
STAMP="$OUT/version"
SUITE=trixie

say() { echo "busybox-fetch: $*" >&2; }

if [ -x "$BINARY" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$VERSION" ]; then
    echo "$BINARY"
    exit 0
fi

root="$(bash "$REPO/tools/debian-fetch.sh" --suite "$SUITE" --arch riscv64 --out "$OUT" \
    "busybox-static=$VERSION")"
if [ ! -x "$root/usr/bin/busybox" ]; then
    say "busybox-static $VERSION has no usr/bin/busybox"
    exit 1
fi
echo "$VERSION" >"$STAMP"
echo "$BINARY"
