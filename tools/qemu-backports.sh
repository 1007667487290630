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
# How: tools/debian-fetch.sh (a private apt configuration under build/qemu-backports/apt/,
# `apt-get download` of the packages, then `dpkg -x` into build/qemu-backports/root/; the
# system's /etc/apt sources and lists are not touched). Nothing is installed with dpkg: the binary runs from there against the system's
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

say() { echo "qemu-backports: $*" >&2; }

if [ -x "$QEMU" ] && [ -f "$FIRMWARE" ] && "$QEMU" -cpu help 2>/dev/null | grep -qw thead-c906; then
    echo "$QEMU"
    exit 0
fi

bash "$REPO/tools/debian-fetch.sh" --suite "$SUITE" --out "$OUT" "${PACKAGES[@]}" >/dev/null
deb="$(ls "$OUT/apt/download/"qemu-system-riscv_*.deb)"

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
