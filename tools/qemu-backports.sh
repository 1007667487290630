#!/usr/bin/env bash
# Put QEMU 10 and OpenSBI 1.5 from Debian's bookworm-backports into build/qemu-backports/,
# beside (never instead of) the system's QEMU 7.2 and OpenSBI 1.1, and print the path of
# its qemu-system-riscv64 (the firmware is in root/usr/lib/riscv64-linux-gnu/opensbi/).
#
# Why: QEMU 7.2 (Debian 12) has no T-Head C906 CPU model; QEMU >= 8 has `thead-c906`,
# which the C906 boot tests (tests/test_c906.py) run the lichee-rv-d1 kernel on. OpenSBI
# 1.5 implements SBI 2.0 with the debug console (DBCN), which Debian 12's OpenSBI 1.1
# lacks: tests/test_breadcrumbs.py boots on it to run that path and its fallbacks. The
# system's QEMU and firmware stay what they are: the benchmark's -icount numbers are
# measured with them.
#
# How: a private apt configuration under build/qemu-backports/apt/ (its own source list,
# package lists and cache; the system's /etc/apt sources and lists are not touched),
# `apt-get download` of the packages, then `dpkg -x` into build/qemu-backports/root/.
# Nothing is installed with dpkg: the binary runs from there against the system's
# libraries (the same ones Debian 12's QEMU uses); the tests pass the firmware with
# -bios.
#
# Called by the `qemu-backports` make target and by the tests. Idempotent: when the
# binary and the firmware are there and run, it only prints the path. Works as a normal
# user too (it writes only under build/). Exits non-zero with apt's own error when the
# archive cannot be reached.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${QEMU_BACKPORTS_DIR:-$REPO/build/qemu-backports}"
ROOT="$OUT/root"
QEMU="$ROOT/usr/bin/qemu-system-riscv64"
FIRMWARE="$ROOT/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf"
SUITE=bookworm-backports
# Since QEMU 10 Debian ships the RISC-V emulators in their own package (qemu-system-misc
# depends on it); the rest of its dependencies are libraries Debian 12 already has.
PACKAGES=(qemu-system-riscv opensbi)
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

say() { echo "qemu-backports: $*" >&2; }

if [ -x "$QEMU" ] && [ -f "$FIRMWARE" ] && "$QEMU" -cpu help 2>/dev/null | grep -qw thead-c906; then
    echo "$QEMU"
    exit 0
fi

# The Debian mirror this machine already uses (deb822 .sources or one-line .list files),
# else Debian's own redirector.
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
echo "deb [signed-by=$KEYRING] $mirror $SUITE main" >"$APT/sources.list"
# Every path apt writes is private; the system's dpkg status is only read.
apt_options=(
    -o "Dir::Etc::sourcelist=$APT/sources.list"
    -o "Dir::Etc::sourceparts=-"
    -o "Dir::State::Lists=$APT/lists"
    -o "Dir::Cache=$APT/cache"
    -o "Dir::State::status=/var/lib/dpkg/status"
    -o "APT::Sandbox::User=$(id -un)"
)

say "fetching ${PACKAGES[*]} from $mirror $SUITE into $OUT"
if ! apt-get "${apt_options[@]}" update </dev/null >"$APT/update.log" 2>&1; then
    say "apt-get update of $SUITE failed:"
    cat "$APT/update.log" >&2
    exit 1
fi
rm -f "$APT/download/"*.deb
if ! (cd "$APT/download" && apt-get "${apt_options[@]}" download "${PACKAGES[@]}" </dev/null \
        >"$APT/download.log" 2>&1); then
    say "apt-get download ${PACKAGES[*]} failed:"
    cat "$APT/download.log" >&2
    exit 1
fi
rm -rf "$ROOT"
for deb in "$APT/download/"*.deb; do
    dpkg -x "$deb" "$ROOT"
    say "unpacked $(basename "$deb")"
done
deb="$(ls "$APT/download/"qemu-system-riscv_*.deb)"

# Libraries it needs that this system lacks (none on Debian 12 with qemu-system-misc).
missing="$(ldd "$QEMU" | awk '/not found/ { print $1 }')"
if [ -n "$missing" ]; then
    say "$QEMU needs libraries this system lacks: $missing"
    say "its Depends: $(dpkg-deb -f "$deb" Depends)"
    exit 1
fi
if ! "$QEMU" -cpu help | grep -qw thead-c906; then
    say "$("$QEMU" --version | head -1) has no thead-c906 CPU model"
    exit 1
fi
if [ ! -f "$FIRMWARE" ]; then
    say "the opensbi package has no $FIRMWARE"
    exit 1
fi
say "$("$QEMU" --version | head -1)"
echo "$QEMU"
