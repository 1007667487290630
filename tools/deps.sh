#!/usr/bin/env bash
# Install the Debian packages Duplex needs to build, run and test.
#
# Called by `make deps` (and therefore by `make test` and .ci/run). When everything is
# already installed it prints nothing and exits 0 quickly. Otherwise:
#   - as root (CI: fresh Debian 12, no stdin): apt-get update + install the missing ones;
#   - as a normal user: print the exact `sudo apt-get install ...` line and exit 1.
set -euo pipefail

# The one list of required packages.
PACKAGES=(
    gcc-riscv64-unknown-elf
    picolibc-riscv64-unknown-elf
    gcc-riscv64-linux-gnu
    libc6-dev-riscv64-cross
    qemu-system-misc
    opensbi
    u-boot-qemu
    device-tree-compiler
    gdb-multiarch
    mtools
    dosfstools
    fdisk
    u-boot-tools
    mkbootimg
    cpio
    spin
    python3-matplotlib
    python3-pytest
    python3-pytest-xdist
    gcc
    make
    clang-format
)

# One dpkg-query call for all packages. Packages dpkg has never heard of produce no line
# (and a non-zero exit status), so anything without an "installed" line counts as missing.
status="$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PACKAGES[@]}" 2>/dev/null || true)"

missing=()
for pkg in "${PACKAGES[@]}"; do
    if ! grep -qxF "$pkg installed" <<<"$status"; then
        missing+=("$pkg")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing Debian packages: ${missing[*]}" >&2
    echo "deps: install them with:" >&2
    echo "sudo apt-get install -y --no-install-recommends ${missing[*]}"
    exit 1
fi

echo "deps: installing missing Debian packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update </dev/null
apt-get install -y --no-install-recommends "${missing[@]}" </dev/null
echo "deps: installed: ${missing[*]}" >&2
