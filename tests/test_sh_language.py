"""The command language of Duplex's own sh (user/sh/, issue #41), typed at its prompt over
the serial line as a person would: `;`, `&&`, `||`, `$VAR`, `${VAR}`, `$?`, `$$`, `~`,
`export`, `unset`, `cd`, NAME=VALUE alone and before a program, quoting as POSIX does for
these ('...' literal, "..." expands $VAR, \\ quotes a character), field splitting of an
unquoted $VAR, [N]> [N]>> [N]>&M redirections and # comments. What it does not do is
refused with a message and status 2 before any of the line runs, never misread: the
issue's `echo abc > /tmp/f; cat /tmp/f` once made a file named "/tmp/f;".
"""

import re

import pytest

PROMPT = rb"\$ "


@pytest.fixture
def shell(image, guest_factory):
    guest = guest_factory(image, smp=2, icount=True, append="console=async init=/bin/sh").start()
    guest.wait_for("Duplex \u2014 type help", timeout=120)
    guest.wait_for(PROMPT, timeout=60)
    return guest


def run(guest, line):
    """Type `line` and return what the shell and its programs printed before the next
    prompt (the echo of the line taken off)."""
    guest.send(line.encode() + b"\r")
    return guest.wait_for(re.escape(line.encode()) + rb"\r\n([\s\S]*?)" + PROMPT,
                          timeout=60).group(1).decode()


def test_lists_and_status(shell):
    assert run(shell, "echo abc > /tmp/f; cat /tmp/f") == "abc\r\n"
    assert run(shell, "cat '/tmp/f;'") == \
        "cat: /tmp/f;: No such file or directory\r\n[exit 1]\r\n"  # never created
    assert run(shell, "true && echo yes || echo no") == "yes\r\n"
    assert run(shell, "false && echo yes || echo no") == "[exit 1]\r\nno\r\n"
    assert run(shell, "false || false && echo skipped; echo $?") == \
        "[exit 1]\r\n[exit 1]\r\n1\r\n"
    assert run(shell, "sh -c 'exit 3'; echo status $?; echo again $?") == \
        "[exit 3]\r\nstatus 3\r\nagain 0\r\n"
    assert run(shell, "echo one; echo two;") == "one\r\ntwo\r\n"
    assert run(shell, "echo a # a comment; echo b") == "a\r\n"


def test_variables_and_quoting(shell):
    # ~/x is $HOME then /x, as in bash (the kernel gives init HOME=/, as Linux does).
    assert run(shell, "echo $HOME ~ ~/x \"$HOME\" '$HOME' \\$HOME") == \
        "/ / //x / $HOME $HOME\r\n"
    # Unquoted, $X is split into two words (echo joins them with one space); quoted, one.
    assert run(shell, "X='a   b'; echo \"<$X>\" -$X-") == "<a   b> -a b-\r\n"
    assert run(shell, "Y=\"it's\"; echo ${Y}s \"${Y}\"'\"'") == "it'ss it's\"\r\n"
    # A quoted empty expansion is a word, an unquoted one none: echo gets "", "", "end".
    assert run(shell, "echo \"$NOTSET\" \"\" $NOTSET end") == "  end\r\n"
    assert run(shell, "echo $$") == "2\r\n"  # pid 1 only waits; the shell is pid 2
    assert run(shell, "echo \"a\\\"b\" 'c\\d' e\\ f") == "a\"b c\\d e f\r\n"


def test_export_unset_and_assignments(shell):
    # Not exported: a program does not see it; exported: it does.
    assert run(shell, "V=local; sh -c 'echo \"[$V]\"'") == "[]\r\n"
    assert run(shell, "export V; sh -c 'echo \"[$V]\"'") == "[local]\r\n"
    assert run(shell, "export W=given; sh -c 'echo $W'") == "given\r\n"
    assert "export W='given'\r\n" in run(shell, "export")
    # Before a program: in its environment only.
    assert run(shell, "Z=once sh -c 'echo $Z'; echo \"[$Z]\"") == "once\r\n[]\r\n"
    assert run(shell, "unset V W; echo \"[$V$W]\"; sh -c 'echo \"[$W]\"'") == "[]\r\n[]\r\n"
    assert run(shell, "export 1x") == "sh: export: 1x: not a valid name\r\n"


def test_cd(shell):
    assert run(shell, "cd /tmp; echo $PWD; echo hi > here; cat /tmp/here") == "/tmp\r\nhi\r\n"
    assert run(shell, "cd /no/such; echo $?") == \
        "sh: cd: /no/such: No such file or directory\r\n1\r\n"
    assert run(shell, "cd; echo $PWD; cat here") == \
        "/\r\ncat: here: No such file or directory\r\n[exit 1]\r\n"


def test_redirections(shell):
    assert run(shell, "echo x 1>/tmp/g; echo y >>/tmp/g; cat < /tmp/g") == "x\r\ny\r\n"
    assert run(shell, "cat /no 2>/tmp/e; cat /tmp/e") == \
        "[exit 1]\r\ncat: /no: No such file or directory\r\n"
    assert run(shell, "echo to-err >&2 2>/dev/null") == "to-err\r\n"  # left to right
    assert run(shell, "F=/tmp/named; echo z > $F; cat \"$F\"") == "z\r\n"


REFUSED = [
    ("echo *", "sh: *: pattern matching (* ? [) is not supported; quote it"),
    ("echo $(echo x)", "sh: $(...): command substitution is not supported"),
    ("echo `echo x`", "sh: `...`: command substitution is not supported"),
    ("(echo x)", "sh: '(' and ')': subshells and grouping are not supported"),
    ("if true; then echo x; fi", "sh: if: not supported (no compound commands)"),
    ("cat << END", "sh: '<<': here-documents are not supported"),
    ("echo $1", "sh: $1: not supported (of the special parameters only $? and $$)"),
    ("echo ${X:-y}", "sh: ${X:-y}: only ${NAME} is supported"),
    ("echo 'open", "sh: missing closing '"),
    ("echo a &&", "sh: syntax error: nothing after && or ||"),
    ("; echo a", "sh: syntax error: an empty command"),
    ("echo a | | cat", "sh: syntax error: | without a command on each side"),
    ("echo a >", "sh: syntax error: a redirection without a file"),
    ("true && echo a &", "sh: & after a list with && or || is not supported"),
    ("echo >&x", "sh: syntax error: >& takes a descriptor, 0 to 9"),
]


def test_refused_before_anything_runs(shell):
    for number, (line, message) in enumerate(REFUSED):
        # The line's first command would leave a file if anything on it ran.
        assert run(shell, f"echo ran > /tmp/ran{number}; {line}") == message + "\r\n"
        assert run(shell, f"echo $?; cat /tmp/ran{number}") == \
            f"2\r\ncat: /tmp/ran{number}: No such file or directory\r\n[exit 1]\r\n"
