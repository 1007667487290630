#!/usr/bin/env bash
# Put Debian trixie's busybox-static for riscv64 (a static glibc build, unmodified) into
# build/busybox/, and print the path of the binary. Used by `make ... USERLAND=busybox`
# (user/busybox.mk), which packs it as /bin/busybox with its applet links, and by
# tests/test_busybox.py.
#
# How: as tools/qemu-backports.sh does for QEMU, a private apt configuration under
# build/busybox/apt/ (its own source list for trixie with arch=riscv64, its own package
# lists, cache and an empty dpkg status; the system's /etc/apt sources, lists and dpkg
# database are not touched), `apt-get download` of the pinned version, then `dpkg -x`
# into build/busybox/root/. Nothing is installed. Trixie merged /bin into /usr, so the
# binary is root/usr/bin/busybox.
#
# The version is pinned (BUSYBOX_VERSION below, or the environment's): the same bytes
# every time, whatever trixie's archive moves on to. To move it: look up the new version
# with this script's own apt configuration,
#     apt-get -o Dir::Etc::sourcelist=build/busybox/apt/sources.list ... policy busybox-static
# (or https://packages.debian.org/trixie/busybox-static), set BUSYBOX_VERSION, run the
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
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

say() { echo "busybox-fetch: $*" >&2; }

if [ -x "$BINARY" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$VERSION" ]; then
    echo "$BINARY"
    exit 0
fi

# The Debian mirror this machine already uses, else Debian's own redirector (the same
# search as tools/qemu-backports.sh).
mirror=""
for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    mirror="$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/ && $i ~ /debian\/?$/) { print $i; exit } }' "$file")"
    [ -n "$mirror" ] && break
done
if [ -z "$mirror" ]; then
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$file" ] || continue
        mirror="$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^(https?|file):/ && $i !~ /security/ && $i ~ /debian\/?$/) { print $i; exit } }' "$file")"
        [ -n "$mirror" ] && break
    done
fi
mirror="${mirror:-http://deb.debian.org/debian}"
if [ ! -r "$KEYRING" ]; then
    say "$KEYRING is missing (Debian's debian-archive-keyring package): cannot check $SUITE's signature"
    exit 1
fi

APT="$OUT/apt"
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/download"
echo "deb [arch=riscv64 signed-by=$KEYRING] $mirror $SUITE main" >"$APT/sources.list"
: >"$APT/status"
apt_options=(
    -o "Dir::Etc::sourcelist=$APT/sources.list"
    -o "Dir::Etc::sourceparts=-"
    -o "Dir::State::Lists=$APT/lists"
    -o "Dir::Cache=$APT/cache"
    -o "Dir::State::status=$APT/status"
    -o "APT::Architecture=riscv64"
    -o "APT::Architectures::=riscv64"
    -o "APT::Sandbox::User=$(id -un)"
)

say "fetching busybox-static $VERSION (riscv64) from $mirror $SUITE into $OUT"
if ! apt-get "${apt_options[@]}" update </dev/null >"$APT/update.log" 2>&1; then
    say "apt-get update of $SUITE failed (is the network or $mirror unreachable?):"
    cat "$APT/update.log" >&2
    exit 1
fi
rm -f "$APT/download/"*.deb
if ! (cd "$APT/download" && apt-get "${apt_options[@]}" download \
        "busybox-static:riscv64=$VERSION" </dev/null >"$APT/download.log" 2>&1); then
    say "apt-get download busybox-static $VERSION failed:"
    cat "$APT/download.log" >&2
    say "versions $SUITE has now: $(apt-cache "${apt_options[@]}" madison busybox-static 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); printf "%s ", $2 }')"
    exit 1
fi
rm -rf "$ROOT"
deb="$(ls "$APT/download/"busybox-static_*.deb)"
dpkg -x "$deb" "$ROOT"
if [ ! -x "$BINARY" ]; then
    say "$(basename "$deb") has no usr/bin/busybox"
    exit 1
fi
echo "$VERSION" >"$STAMP"
say "unpacked $(basename "$deb")"
echo "$BINARY"
