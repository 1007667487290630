"""System tests of job control (issue #25, "Job control"): user/test_jobs.c, run as the
first program (init's session holds the console), built with picolibc (/bin/test_jobs)
and glibc (/bin/glibc/test_jobs), on both console backends.

What the checks cover (each is one "ok NAME" line): TIOCGPGRP / TIOCGSID / TIOCSPGRP /
TIOCSCTTY / TIOCNOTTY with Linux's errno rules (ENOTTY, EINVAL, ESRCH, EPERM); SIGTTIN
stopping a background reader and EIO when it is ignored, blocked or the group orphaned;
SIGTTOU for a background write under TOSTOP and for a background tcsetpgrp, and not when
ignored; wait4 WUNTRACED (0x7f | signal << 8) and WCONTINUED (0xffff) status words,
SIGCHLD on a stop and SA_NOCLDSTOP; kill(-group); a ^C typed on the serial line ending
the foreground group's process only, a ^Z stopping it; SIGHUP to the foreground group
when the session leader holding the console exits; a session leader taking the free
console back.
"""

import re

import pytest

# test_jobs makes this many checks on every run, with either libc.
TEST_JOBS_CHECKS = 40

CONFIGS = [("test_jobs", "async", 1), ("test_jobs", "polling", 2),
           ("glibc/test_jobs", "async", 4), ("glibc/test_jobs", "polling", 1)]


@pytest.mark.parametrize("program,backend,smp", CONFIGS,
                         ids=[f"{p.replace('/', '-')}-{b}-{s}harts" for p, b, s in CONFIGS])
def test_job_control_checks_pass(image, guest_factory, program, backend, smp):
    guest = guest_factory(image, smp=smp, icount=True,
                          append=f"console={backend} console.rx_watch init=/bin/{program}").start()
    # The ^C and ^Z are typed only once the test's foreground job is in place.
    guest.wait_for(rb"JOBS-TYPE \^C\r\n", timeout=120)
    guest.send(b"\x03")
    guest.wait_for(rb"ok typed \^C: the background group got no SIGINT", timeout=120)
    guest.wait_for(rb"JOBS-TYPE \^Z\r\n", timeout=120)
    guest.send(b"\x1a")
    status = guest.wait_exit(timeout=120)
    text = guest.text
    failures = [line for line in text.splitlines() if line.startswith("FAIL ")]
    assert failures == [], text[-3000:]
    assert f"test_jobs: {TEST_JOBS_CHECKS} passed, 0 failed" in text, text[-3000:]
    assert status == 0
    # ECHOCTL echoed each typed character, before its signal's effect was reported.
    assert re.search(r"JOBS-TYPE \^C\r?\n\^Cok typed \^C", text), text[-3000:]
    assert re.search(r"JOBS-TYPE \^Z\r?\n\^Zok typed \^Z", text), text[-3000:]
    assert "PANIC" not in text
    # Also after an echoed ^C / ^Z, or the "\r" a background write printed.
    names = re.findall(r"(?:^|\^[CZ]|\r)ok ([^\r\n]*)", text, re.M)
    assert len(names) == len(set(names)) == TEST_JOBS_CHECKS


@pytest.mark.parametrize("backend", ["async", "polling"])
def test_duplex_sh_ctrl_c_ends_the_program_not_the_shell(image, guest_factory, backend):
    """Duplex's sh started from sh (so not init, which no default action can end): ^C
    ends the program the inner shell waits for, the inner shell reports it and goes on."""
    guest = guest_factory(image, smp=2, icount=True, append=f"console={backend} console.rx_watch").start()
    guest.wait_for(rb"\$ ", timeout=120)
    guest.send("sh\r")
    guest.wait_for(rb"\r\n\$ ", timeout=60)
    for _ in range(2):
        guest.send("cat\r")
        guest.wait_for(rb"cat\r\n", timeout=60)
        guest.send("line\r")
        guest.wait_for(rb"line\r\nline\r\n", timeout=60)  # the echo, then cat's copy
        guest.send(b"\x03")
        guest.wait_for(rb"\^C", timeout=60)
        guest.wait_for(rb"\[killed by signal 2 \(SIGINT\)\]\r\n\$ ", timeout=60)
    guest.send("exit 3\r")
    guest.wait_for(rb"\[exit 3\]\r\n\$ ", timeout=60)  # the outer shell reports the inner
    guest.send("exit\r")
    assert guest.wait_exit(timeout=60) == 3
