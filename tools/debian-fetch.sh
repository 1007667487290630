#!/usr/bin/env bash
# Fetch Debian packages of any suite and architecture into a folder of the build tree and
# unpack them there, leaving the system untouched:
#
#   tools/debian-fetch.sh --suite SUITE [--arch ARCH] --out DIR PACKAGE[=VERSION] ...
#
# unpacks every PACKAGE (`dpkg -x`) into DIR/root/ and prints DIR/root. A private apt
# configuration under DIR/apt/ has its own source list, package lists and cache; the
# system's /etc/apt sources and lists are not touched and nothing is installed with dpkg.
# --arch (default: the machine's) makes apt see only that architecture, so riscv64
# packages of Debian trixie (busybox-static, linux-image-riscv64) come the same way as
# amd64 ones of bookworm-backports (QEMU 10).
#
# Called by tools/qemu-backports.sh, tools/busybox-fetch.sh and tools/linux-peer.sh. Exits
# non-zero with apt's own words when the archive cannot be reached or a package (or that
# version of it) is not in the suite; for a missing version it lists the ones there are.
# Works as a normal user too (it writes only under DIR).
set -euo pipefail

suite=""
arch=""
out=""
packages=()
while [ $# -gt 0 ]; do
    case "$1" in
        --suite) suite="$2"; shift 2 ;;
        --arch) arch="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        -*) echo "debian-fetch: unknown option $1" >&2; exit 2 ;;
        *) packages+=("$1"); shift ;;
    esac
done
if [ -z "$suite" ] || [ -z "$out" ] || [ ${#packages[@]} -eq 0 ]; then
    echo "usage: tools/debian-fetch.sh --suite SUITE [--arch ARCH] --out DIR PACKAGE[=VERSION]..." >&2
    exit 2
fi

KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
say() { echo "debian-fetch: $*" >&2; }

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
    say "$KEYRING is missing (Debian's debian-archive-keyring package): cannot check $suite's signature"
    exit 1
fi

APT="$out/apt"
ROOT="$out/root"
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$APT/download"
arch_option=""
[ -n "$arch" ] && arch_option="arch=$arch "
echo "deb [${arch_option}signed-by=$KEYRING] $mirror $suite main" >"$APT/sources.list"
# Every path apt writes is private; the system's dpkg status is only read.
apt_options=(
    -o "Dir::Etc::sourcelist=$APT/sources.list"
    -o "Dir::Etc::sourceparts=-"
    -o "Dir::State::Lists=$APT/lists"
    -o "Dir::Cache=$APT/cache"
    -o "Dir::State::status=/var/lib/dpkg/status"
    -o "APT::Sandbox::User=$(id -un)"
)
if [ -n "$arch" ]; then
    apt_options+=(-o "APT::Architecture=$arch" -o "APT::Architectures=$arch")
fi

say "fetching ${packages[*]} from $mirror $suite${arch:+ ($arch)} into $out"
if ! apt-get "${apt_options[@]}" update </dev/null >"$APT/update.log" 2>&1; then
    say "apt-get update of $suite failed:"
    cat "$APT/update.log" >&2
    exit 1
fi
rm -f "$APT/download/"*.deb
if ! (cd "$APT/download" && apt-get "${apt_options[@]}" download "${packages[@]}" </dev/null \
        >"$APT/download.log" 2>&1); then
    say "apt-get download ${packages[*]} failed:"
    cat "$APT/download.log" >&2
    for package in "${packages[@]}"; do
        name="${package%%=*}"
        if [ "$name" != "$package" ]; then
            say "versions of $name in $suite: $(apt-cache "${apt_options[@]}" madison "$name" \
                2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); printf "%s ", $2 }')"
        fi
    done
    exit 1
fi
rm -rf "$ROOT"
for deb in "$APT/download/"*.deb; do
    dpkg -x "$deb" "$ROOT"
    say "unpacked $(basename "$deb")"
done
echo "$ROOT"
