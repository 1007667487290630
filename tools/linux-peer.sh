#!/usr/bin/env bash
# The Linux peer: Debian trixie's riscv64 Linux kernel, booted on the same QEMU, firmware
# and flags as Duplex with the same benchmark binary as /init's child (docs/benchmark.md,
# "Linux beside Duplex"). This script puts what that takes into build/linux-peer/:
#
#   Image            the kernel (the package's boot/vmlinux-*: an uncompressed RISC-V
#                    Image with the booti header, which QEMU's -kernel loads as Duplex's)
#   initramfs.cpio   /init (tools/peer/init.c), /bin/glibc/bench, /dev/console
#   kernel-version   the package and version, for the report
#
#   tools/linux-peer.sh BENCH INIT     (the `peer` make target passes the glibc builds)
#
# The kernel comes through tools/debian-fetch.sh (a private apt configuration, `apt-get
# download`, `dpkg -x`; the system untouched), pinned to one version so that a report's
# Linux column names what it measured. To move it: LINUX_PEER_VERSION=6.12.NNN-M (the
# package version; `apt-cache madison linux-image-riscv64` with trixie's lists shows the
# current one, and debian-fetch lists them when the pinned one is gone). The package has
# no -unsigned variant on riscv64; only its Image is used, not its modules.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${LINUX_PEER_DIR:-$REPO/build/linux-peer}"
VERSION="${LINUX_PEER_VERSION:-6.12.117-1}"
# linux-image-<upstream>+deb13-riscv64 is the package of version <upstream>-<debian>.
PACKAGE="linux-image-${VERSION%-*}+deb13-riscv64"
bench="$1"
init="$2"

say() { echo "linux-peer: $*" >&2; }

if [ ! -f "$OUT/Image" ] || [ "$(cat "$OUT/kernel-version" 2>/dev/null)" != "$PACKAGE $VERSION" ]; then
    rm -f "$OUT/Image" "$OUT/kernel-version"
    root="$(bash "$REPO/tools/debian-fetch.sh" --suite trixie --arch riscv64 \
        --out "$OUT/fetch" "$PACKAGE=$VERSION")"
    image="$(ls "$root"/boot/vmlinux-* 2>/dev/null | head -1)"
    if [ -z "$image" ]; then
        say "$PACKAGE $VERSION has no boot/vmlinux-*"
        exit 1
    fi
    # The RISC-V Image header's magic "RSC\x05" at 0x38 (Linux
    # Documentation/arch/riscv/boot-image-header.rst): what booti and QEMU look for.
    if [ "$(od -An -tx1 -j 56 -N 4 "$image" | tr -d ' ')" != "52534305" ]; then
        say "$image is not a RISC-V Image (no RSC\\x05 at 0x38)"
        exit 1
    fi
    cp "$image" "$OUT/Image"
    rm -rf "$root" "$OUT/fetch/apt/download" # the modules (100 MB) are not used
    echo "$PACKAGE $VERSION" >"$OUT/kernel-version"
    say "kernel: $PACKAGE $VERSION"
fi
riscv64-linux-gnu-objcopy --strip-all "$bench" "$OUT/bench"
/usr/bin/python3 "$REPO/tools/peer/initramfs.py" --init "$init" --bench "$OUT/bench" \
    --out "$OUT/initramfs.cpio"
say "ready: $OUT/Image, $OUT/initramfs.cpio ($(cat "$OUT/kernel-version"))"
