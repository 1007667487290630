"""QEMU tests of the console's line discipline (drivers/console/line_discipline.c, input.c)
over the serial line, on both backends: user/test_terminal.c prints what read() returned
(as hex, so it cannot be confused with echo) and the host types at it. Canonical editing,
end of file, VMIN/VTIME, echo, Linux's default termios, the window size, breaks, input
flushes, ^S/^Q and ^C. Deadlines are the guest's (VTIME); host timeouts are a guard only.
"""

import re
import time

import pytest

BACKENDS = ["polling", "async"]
PROMPT = rb"\$ "


def start(guest_factory, image, backend, mode):
    guest = guest_factory(image, smp=2,
                          append=f"console={backend} init=/bin/test_terminal -- {mode}").start()
    return guest


def hexline(label, data):
    return rb"%s n=%d hex=%s\r\n" % (label, len(data), data.hex().encode())


@pytest.mark.parametrize("backend", BACKENDS)
def test_canonical_line_editing_and_eof(image, guest_factory, backend):
    guest = start(guest_factory, image, backend, "canon")
    guest.wait_for(rb"TERM-READY canon\r\n")
    # type, erase (DEL), retype; Enter's \r becomes \n (ICRNL)
    guest.send(b"helo\x7flo\r")
    guest.wait_for(rb"helo\x08 \x08lo\r\n")  # the echo, rubout included
    guest.wait_for(hexline(b"TERM-LINE", b"hello\n"))
    # ^U kills the line, ^W a word
    guest.send(b"junk\x15world\n")
    guest.wait_for(hexline(b"TERM-LINE", b"world\n"))
    guest.send(b"one two\x17three\n")
    guest.wait_for(hexline(b"TERM-LINE", b"one three\n"))
    # ^V takes ^U literally
    guest.send(b"a\x16\x15b\n")
    guest.wait_for(hexline(b"TERM-LINE", b"a\x15b\n"))
    # ^D after text ends the line without itself; ^D at an empty line is end of file
    guest.send(b"part\x04")
    guest.wait_for(hexline(b"TERM-LINE", b"part"))
    guest.send(b"\x04")
    guest.wait_for(rb"TERM-EOF\r\n")
    assert guest.wait_exit(timeout=60) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_echo_off_hides_typed_text(image, guest_factory, backend):
    guest = start(guest_factory, image, backend, "noecho")
    guest.wait_for(rb"TERM-READY noecho\r\n")
    mark = len(guest.output)
    guest.send(b"secret\n")
    guest.wait_for(hexline(b"TERM-LINE", b"secret\n"))
    assert b"secret" not in guest.output[mark:]
    guest.wait_for(rb"TERM-READY echo\r\n")
    guest.send(b"visible\n")
    guest.wait_for(rb"visible\r\n")
    guest.wait_for(hexline(b"TERM-LINE", b"visible\n"))
    assert guest.wait_exit(timeout=60) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_vmin_waits_for_that_many_bytes(image, guest_factory, backend):
    guest = start(guest_factory, image, backend, "raw 3 0")
    guest.wait_for(rb"TERM-READY raw\r\n")
    guest.send(b"ab")
    time.sleep(0.5)  # a read that returned early would return 2 bytes
    guest.send(b"c")
    guest.wait_for(hexline(b"TERM-READ", b"abc"))
    guest.send(b"x\ry")  # no ICANON: \r is still ICRNL's, echo is off
    guest.wait_for(hexline(b"TERM-READ", b"x\ny"))
    guest.send(b"\x7f\x15\x04")  # no editing, no end of file outside ICANON
    guest.wait_for(hexline(b"TERM-READ", b"\x7f\x15\x04"))
    assert guest.wait_exit(timeout=60) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_vtime_alone_times_out_with_zero_bytes(image, guest_factory, backend):
    # 10 s of guest time. No -icount here (sleep=off would warp the idle guest's clock
    # past the host's typing), so VTIME runs in host time and the typed q must reach the
    # second read before it times out: 10 s leaves a loaded host room (make test-loaded
    # ran at load averages up to 27 on 2 CPUs); the empty reads cost idle time only.
    guest = start(guest_factory, image, backend, "raw 0 100")
    guest.wait_for(rb"TERM-READY raw\r\n")
    guest.wait_for(hexline(b"TERM-READ", b""), timeout=120)
    guest.send(b"q")
    guest.wait_for(hexline(b"TERM-READ", b"q"), timeout=120)
    guest.wait_for(hexline(b"TERM-READ", b""), timeout=120)
    assert guest.wait_exit(timeout=60) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_vmin_with_vtime_is_an_inter_byte_timer(image, guest_factory, backend):
    # VTIME 2 s, in host time (no -icount, as above): QEMU hands the UART one byte per RX
    # interrupt (trigger level 1), so y and z reach the line discipline a guest interrupt
    # and a QEMU main-loop turn apart, a gap a loaded host can stretch; 0.5 s was a race.
    guest = start(guest_factory, image, backend, "raw 2 20")
    guest.wait_for(rb"TERM-READY raw\r\n")
    guest.send(b"x")  # fewer than MIN: returned when 2 s pass without another
    guest.wait_for(hexline(b"TERM-READ", b"x"), timeout=120)
    guest.send(b"yz")
    guest.wait_for(hexline(b"TERM-READ", b"yz"), timeout=120)
    guest.send(b"w")
    guest.wait_for(hexline(b"TERM-READ", b"w"), timeout=120)
    assert guest.wait_exit(timeout=60) == 0


@pytest.mark.parametrize("backend", ["polling", "async", "async,thread"])
def test_defaults_winsize_break_and_ioctls(image, guest_factory, backend):
    guest = start(guest_factory, image, backend, "defaults")
    done = guest.wait_for(rb"TERM-DEFAULTS passed=(\d+) failed=(\d+)\r\n", timeout=120)
    failures = [line for line in guest.output.split(b"\r\n") if b"TERM-CHECK FAIL" in line]
    assert int(done.group(2)) == 0, failures
    assert int(done.group(1)) == 20
    assert guest.wait_exit(timeout=60) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_tcflush_and_tcsetsf_discard_typed_input(image, guest_factory, backend):
    guest = start(guest_factory, image, backend, "flush")
    guest.wait_for(rb"TERM-READY flush\r\n")
    guest.send(b"junk")
    guest.wait_for(rb"TERM-TCFLSH before=4 after=0\r\n", timeout=120)
    guest.send(b"more")
    guest.wait_for(rb"TERM-SETSF before=4 after=0\r\n", timeout=120)
    guest.send(b"z")
    guest.wait_for(hexline(b"TERM-READ", b"z"))
    assert guest.wait_exit(timeout=60) == 0


@pytest.mark.parametrize("backend", ["polling", "async", "async,thread"])
def test_ctrl_s_holds_output_ctrl_q_releases_it(image, guest_factory, backend):
    guest = start(guest_factory, image, backend, "flow")
    guest.wait_for(rb"TERM-READY flow\r\n")
    mark = len(guest.output)
    guest.send(b"\x13a")  # ^S, then a byte for the reader
    time.sleep(1.0)
    assert b"TERM-READ" not in guest.output[mark:]  # the reader's line is held
    guest.send(b"\x11")
    guest.wait_for(hexline(b"TERM-READ", b"a"))  # ^S never reached the reader
    guest.wait_for(rb"TERM-HELD after the stop\r\n")
    guest.send(b"b")
    guest.wait_for(hexline(b"TERM-READ", b"b"))
    guest.wait_for(rb"TERM-FLOW flow_stops=1\r\n")
    assert guest.wait_exit(timeout=60) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_ctrl_c_flushes_the_line_and_is_counted(image, guest_factory, backend):
    guest = start(guest_factory, image, backend, "isig")
    guest.wait_for(rb"TERM-READY isig\r\n")
    guest.send(b"abc\x03def\n")
    # ECHOCTL shows the ^C. Its flush (no NOFLSH) drops output not yet sent, the echo
    # buffer included, as Linux's isig does: so of "abc" the echo holds what had gone
    # before the ^C was received, which depends on how the host delivered the bytes (a
    # loaded run saw "ab^C").
    guest.wait_for(rb"\^Cdef")
    assert re.search(rb"TERM-READY isig\r\n(?:a(?:b(?:c)?)?)?\^Cdef", guest.output), \
        guest.output[-300:]
    guest.wait_for(hexline(b"TERM-LINE", b"def\n"))
    guest.wait_for(rb"TERM-SIGNALS signals=1 lines=1 edits=0\r\n")
    assert guest.wait_exit(timeout=60) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_ixoff_sends_stop_when_nearly_full_and_start_when_read(image, guest_factory, backend):
    count = 4000  # more than 4096 - 128 (LINE_THROTTLE_ROOM): STOP is due
    guest = start(guest_factory, image, backend, f"ixoff {count}")
    guest.wait_for(rb"TERM-READY ixoff\r\n")
    mark = len(guest.output)
    guest.send(b"x" * count)
    guest.wait_for(rb"TERM-FULL n=%d\r\n" % count, timeout=120)
    full = guest.output.index(b"TERM-FULL", mark)
    assert guest.output[mark:full].count(b"\x13") == 1  # STOP, before anyone read
    guest.wait_for(rb"TERM-DRAINED n=%d throttles=1\r\n" % count, timeout=120)
    drained = guest.output.index(b"TERM-DRAINED", full)
    assert guest.output[full:drained].count(b"\x11") == 1  # START, once read
    assert guest.wait_exit(timeout=60) == 0


def shell(guest, line, expect, timeout=60):
    guest.send(line)
    match = guest.wait_for(expect, timeout=timeout)
    guest.wait_for(PROMPT, timeout=timeout)
    return match


@pytest.mark.parametrize("backend", BACKENDS)
def test_stty(image, guest_factory, backend):
    guest = guest_factory(image, smp=2, append=f"console={backend}").start()
    guest.wait_for(PROMPT)
    shell(guest, "stty -a\n", rb"speed 115200 baud; rows 24; columns 80; line = 0;\r\n"
                              rb"intr = \^C; quit = \^\\; erase = \^\?; kill = \^U; eof = \^D; "
                              rb"eol = <undef>; eol2 = <undef>; swtch = <undef>; start = \^Q; "
                              rb"stop = \^S; susp = \^Z; rprnt = \^R; werase = \^W; "
                              rb"lnext = \^V; discard = \^O; min = 1; time = 0;\r\n"
                              rb"cs8 -parenb -parodd -cstopb cread hupcl clocal\r\n"
                              rb"-ignbrk -brkint -ignpar -parmrk -inpck -istrip -inlcr -igncr "
                              rb"icrnl ixon -ixoff -ixany -imaxbel -iutf8\r\n"
                              rb"opost -olcuc -ocrnl onlcr -onocr -onlret\r\n"
                              rb"isig icanon iexten echo echoe echok -echonl -noflsh -tostop "
                              rb"-echoprt echoctl echoke\r\n")
    shell(guest, "stty speed\n", rb"\n115200\r\n")
    shell(guest, "stty rows 50 cols 100\n", rb"\n")
    shell(guest, "stty size\n", rb"\n50 100\r\n")
    shell(guest, "stty -echo -icanon min 0 time 5\n", rb"\n")
    shell(guest, "stty -a\n", rb"min = 0; time = 5;[\s\S]*isig -icanon iexten -echo ")
    shell(guest, "stty raw\n", rb"\n")
    shell(guest, "stty -a\n", rb"\n-opost ")  # raw: no OPOST, so \n is not \r\n here
    shell(guest, "stty sane\n", rb"\n")
    shell(guest, "stty -a\n", rb"min = 1; time = 0;\r\n")
    shell(guest, "stty bogus\n", rb"stty: invalid argument 'bogus'")
    guest.send("exit 0\n")
    assert guest.wait_exit(timeout=60) == 0
