"""ls, head and tail (user/ls.c, user/head.c, user/tail.c; issue #41), typed at the
prompt of Duplex's sh as a person would: ls of the current directory, of a directory
and of a file, -l's type, permissions and size, sorted names and several operands; head
and tail with the default 10 lines, -n N and -N, of files and of a pipe, a last line
without a newline, several files for head; and the errors (a missing file: status 1,
a bad option: usage and status 2).
"""

import re

from test_sh_language import run, shell  # noqa: F401  (the prompt of Duplex's sh, typing)


def lines(first, last):
    return "".join(f"{n}\r\n" for n in range(first, last + 1))


def make_numbers(shell):
    """/tmp/n holds the lines 1 to 12."""
    run(shell, "echo 1 > /tmp/n; " + "; ".join(f"echo {n} >> /tmp/n" for n in range(2, 13)))


TIME = r"\d{4}-\d\d-\d\d \d\d:\d\d"


def test_ls(shell):
    assert run(shell, "ls") == "bin\r\ndev\r\netc\r\ntmp\r\n"  # sh starts in /
    assert run(shell, "echo b > /tmp/b; echo a > /tmp/a; cd /tmp; ls; ls /tmp/a") == \
        "a\r\nb\r\n/tmp/a\r\n"
    listing = run(shell, "echo longer > /tmp/a; ls -l /tmp")
    assert re.fullmatch(rf"-rw-r--r--        7 {TIME} a\r\n-rw-r--r--        2 {TIME} b\r\n",
                        listing), listing
    listing = run(shell, "ls -l /")
    assert re.fullmatch(rf"drwxr-xr-x +\d+ {TIME} bin\r\n"
                        rf"drwxr-xr-x +\d+ {TIME} dev\r\n"
                        rf"drwxr-xr-x +\d+ {TIME} etc\r\n"
                        rf"drwxrwxrwx +\d+ {TIME} tmp\r\n", listing), listing
    listing = run(shell, "ls -l /etc/motd-link")  # the link itself, not /etc/motd
    assert re.fullmatch(rf"lrwxrwxrwx        9 {TIME} /etc/motd-link\r\n", listing), listing
    assert run(shell, "ls /tmp /etc /etc/motd") == \
        "/tmp:\r\na\r\nb\r\n\r\n/etc:\r\n" + "".join(
            f"{name}\r\n" for name in ["fork_garbage", "fork_loop", "fork_script",
                                        "hello-link", "loop", "motd", "motd-link"]) + \
        "/etc/motd\r\n"
    assert run(shell, "ls /nope /tmp; echo $?") == \
        "ls: /nope: No such file or directory\r\n/tmp:\r\na\r\nb\r\n[exit 1]\r\n1\r\n"
    assert run(shell, "ls -a; echo $?") == "usage: ls [-l] [PATH...]\r\n[exit 2]\r\n2\r\n"
    names = run(shell, "ls /bin").split("\r\n")[:-1]
    assert names == sorted(names) and {"ls", "head", "tail", "sh"} <= set(names)


def test_head(shell):
    make_numbers(shell)
    assert run(shell, "head /tmp/n") == lines(1, 10)
    assert run(shell, "head -n 3 /tmp/n") == lines(1, 3)
    assert run(shell, "head -2 /tmp/n") == lines(1, 2)
    assert run(shell, "head -n 0 /tmp/n; head -n 20 /tmp/n") == lines(1, 12)
    assert run(shell, "cat /tmp/n | head -n 4") == lines(1, 4)
    assert run(shell, "head -n 1 /tmp/n /etc/motd") == \
        "==> /tmp/n <==\r\n1\r\n\r\n==> /etc/motd <==\r\nDuplex \u2014 type help\r\n"
    assert run(shell, "head /nope; echo $?") == \
        "head: /nope: No such file or directory\r\n[exit 1]\r\n1\r\n"
    assert run(shell, "head -n x /tmp/n; echo $?") == \
        "usage: head [-n N | -N] [FILE...]\r\n[exit 2]\r\n2\r\n"


def test_tail(shell):
    make_numbers(shell)
    assert run(shell, "tail /tmp/n") == lines(3, 12)
    assert run(shell, "tail -n 3 /tmp/n") == lines(10, 12)
    assert run(shell, "tail -1 /tmp/n") == lines(12, 12)
    assert run(shell, "tail -n 0 /tmp/n; tail -n 20 /tmp/n") == lines(1, 12)
    assert run(shell, "cat /tmp/n | tail -n 2") == lines(11, 12)
    # A last line without a newline is a line: echo -n writes "x" after "12\n".
    assert run(shell, "echo -n x >> /tmp/n; tail -n 2 /tmp/n; echo") == "12\r\nx\r\n"
    assert run(shell, "tail /nope; echo $?") == \
        "tail: /nope: No such file or directory\r\n[exit 1]\r\n1\r\n"
    assert run(shell, "tail /tmp/n /tmp/n; echo $?") == \
        "usage: tail [-n N | -N] [FILE]\r\n[exit 2]\r\n2\r\n"
