"""System tests of USERLAND=busybox: Debian trixie's busybox-static (riscv64, unmodified),
fetched by tools/busybox-fetch.sh and packed by `make USERLAND=busybox` as /bin/busybox
with its applet links, in build/qemu-virt-busybox/.

On both console backends: the shell's builtins; applets started as `busybox APPLET`;
/etc/shell-check.sh, a script of pipelines, redirections, command substitution, external
programs (fork + execve), background jobs, the working directory and files in /tmp, run
by busybox's shell on 1 and 4 harts with every line checked; the StarryOS start-up shape
(`/bin/sh -c /etc/init.sh`, which runs an interactive shell). Each boot also lists the
system calls busybox tried that Duplex lacks.

Skips only when Debian's archive cannot be reached at all (no network); any other
failure of the fetch fails the test.
"""

import re
import subprocess
from pathlib import Path

import pytest

import duplex_qemu
from conftest import build_lock

REPO_ROOT = Path(__file__).resolve().parent.parent
IMAGE = REPO_ROOT / "build" / "qemu-virt-busybox" / "Image"
BACKENDS = ["async", "polling"]


@pytest.fixture(scope="module")
def busybox_image():
    with build_lock("busybox"):  # once per pytest-xdist worker: one at a time
        return fetch_and_build_busybox()


def fetch_and_build_busybox():
    fetch = subprocess.run(["bash", str(REPO_ROOT / "tools" / "busybox-fetch.sh")],
                           capture_output=True, text=True)
    if fetch.returncode != 0:
        unreachable = re.search(r"Could not resolve|Temporary failure resolving|"
                                r"Network is unreachable|Failed to fetch", fetch.stderr)
        if unreachable:
            pytest.skip(f"Debian's archive is unreachable: {unreachable.group(0)}")
        pytest.fail(f"tools/busybox-fetch.sh failed:\n{fetch.stderr}", pytrace=False)
    build = subprocess.run(["make", "-j2", "USERLAND=busybox", "all"], cwd=REPO_ROOT,
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    return IMAGE


def run(image, request, words, backend, smp=1):
    """Boot with `busybox WORDS` as the first program (the kernel command line quotes
    with double quotes); return (exit status, its output lines, the whole log)."""
    name = duplex_qemu.sanitize_name(f"{request.node.name}-{words.split()[0]}")
    status, text = duplex_qemu.run_to_exit(
        image, append=f"console={backend} init=/bin/busybox -- {words}", smp=smp,
        icount=True, timeout=90, name=name)
    start = text.index("starting /bin/busybox")
    program = text[text.index("\n", start) + 1:]
    output = [line for line in program.replace("\r", "").splitlines()
              if not line.startswith("[")]
    return status, output, text


def test_archive_has_busybox_and_its_applet_links(busybox_image):
    listing = subprocess.run(["cpio", "-tv"], stdin=open(busybox_image.parent /
                                                          "initramfs.cpio", "rb"),
                             capture_output=True, text=True).stdout
    assert re.search(r"^-rwxr-xr-x .* bin/busybox$", listing, re.M)
    assert re.search(r"^lrwxrwxrwx .* bin/sh -> busybox$", listing, re.M)
    assert re.search(r"^lrwxrwxrwx .* bin/seq -> busybox$", listing, re.M)
    # busybox's ls, head and tail replace Duplex's small ones (user.mk BUSYBOX_REPLACES).
    for applet in ["ls", "head", "tail"]:
        assert re.search(rf"^lrwxrwxrwx .* bin/{applet} -> busybox$", listing, re.M), applet
    # Duplex's own programs keep their names; /etc/init.sh is the start-up script.
    assert re.search(r"^-rwxr-xr-x .* bin/test_misc$", listing, re.M)
    assert re.search(r" etc/init.sh$", listing, re.M)


def test_check_program_accepts_busybox(busybox_image):
    binary = REPO_ROOT / "build" / "busybox" / "root" / "usr" / "bin" / "busybox"
    subprocess.run(["python3", str(REPO_ROOT / "tools" / "check-program.py"), str(binary)],
                   check=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_shell_builtins(busybox_image, request, backend):
    status, output, text = run(
        busybox_image, request,
        'sh -c "echo hello; echo $((6 * 7)); x=ab; echo ${x}c; '
        'test 3 -gt 2 && echo three; for i in 1 2; do echo loop $i; done; exit 5"',
        backend)
    assert output == ["hello", "42", "abc", "three", "loop 1", "loop 2"], text[-2000:]
    assert status == 5


@pytest.mark.parametrize("backend", BACKENDS)
def test_applets(busybox_image, request, backend):
    build_seconds = int(busybox_image.stat().st_mtime)
    status, output, text = run(busybox_image, request, "date +%s", backend)
    # Not before the build (the same second when the image was just made).
    assert status == 0 and int(output[0]) >= build_seconds, text[-2000:]
    status, output, text = run(busybox_image, request, "id", backend)
    assert (status, output) == (0, ["uid=0(root) gid=0(root)"]), text[-2000:]
    status, output, text = run(busybox_image, request, "whoami", backend)
    assert (status, output) == (0, ["root"]), text[-2000:]
    status, output, text = run(busybox_image, request, "uname -a", backend)
    assert status == 0 and re.match(r"Duplex duplex 0\.1 #1 SMP .* riscv64 GNU/Linux$",
                                    output[0]), output
    status, output, text = run(busybox_image, request, "seq 3", backend)
    assert (status, output) == (0, ["1", "2", "3"])
    status, output, text = run(busybox_image, request, "echo a b", backend)
    assert (status, output) == (0, ["a b"])
    # cat moves the file with sendfile.
    status, output, text = run(busybox_image, request, "cat /etc/motd", backend)
    assert (status, output) == (0, ["Duplex — type help"]), text[-2000:]


def test_four_harts(busybox_image, request):
    status, output, text = run(busybox_image, request, 'sh -c "echo $((1 << 10))"', "async",
                               smp=4)
    assert (status, output) == (0, ["1024"]), text[-2000:]


def test_unknown_calls_busybox_still_makes(busybox_image, request):
    # Every distinct missing call, once each; printed so that the run's log lists them.
    _, _, text = run(busybox_image, request,
                     'sh -c "pwd; mkdir /tmp/x; echo hi > /dev/null; ls | cat"', "async")
    missing = re.findall(r"busybox\[\d+\]: system call (\d+) \((\w+)\) not implemented", text)
    print("busybox's missing calls:", missing)
    assert len(missing) == len(set(missing)), missing


# /etc/shell-check.sh's checks, in the order it makes them (user/busybox/shell-check.sh).
SHELL_CHECKS = ["pipeline", "substitution-nested", "external-program", "external-exit-status",
                "child-shell-exit-status", "cd-pwd", "write-append", "read-redirect",
                "stderr-to-stdout", "stderr-to-null", "removed", "mkdir-p", "background-wait",
                "background-output", "date-after-build", "id-root", "tmp-empty"]


@pytest.mark.parametrize("backend,smp", [("async", 1), ("async", 4), ("polling", 1),
                                         ("polling", 4)])
def test_shell_script(busybox_image, request, backend, smp):
    """busybox's shell runs a script whose every line needs the kernel: each check must
    pass, in order, and the script's exit status is its failure count."""
    build_seconds = int(busybox_image.stat().st_mtime)
    status, text = duplex_qemu.run_to_exit(
        busybox_image, smp=smp, icount=True, timeout=120,
        append=f"console={backend} init=/bin/sh -- /etc/shell-check.sh {build_seconds}",
        name=duplex_qemu.sanitize_name(request.node.name))
    results = re.findall(r"^(ok|FAIL) ([\w-]+)(.*?)\r?$", text, re.M)
    assert [name for _, name, _ in results] == SHELL_CHECKS, text[-3000:]
    failures = [f"{name}{rest}" for verdict, name, rest in results if verdict != "ok"]
    assert failures == [], "\n".join(failures)
    assert f"shell-check: {len(SHELL_CHECKS)} passed, 0 failed" in text
    assert status == 0
    assert "PANIC" not in text and "killed by" not in text


def test_starryos_start_up_shape(busybox_image, guest_factory):
    """The kernel starts `/bin/sh -c /etc/init.sh` and the script starts an
    interactive shell, as the StarryOS benchmark image starts: typed commands run, and
    `exit` ends the first program (QEMU exits with its status)."""
    guest = guest_factory(busybox_image, smp=2, icount=True,
                          append="console=async init=/bin/sh -- -c /etc/init.sh").start()
    guest.wait_for(rb"Duplex: busybox userland, /etc/init.sh", timeout=60)
    guest.wait_for(rb"# ", timeout=60)
    guest.send("echo $((20 + 22)) > /tmp/x; cat /tmp/x\n")
    guest.wait_for(rb"\r\n42\r\n", timeout=60)
    guest.send("exit 4\n")
    assert guest.wait_exit(timeout=60) == 4
