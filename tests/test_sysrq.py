"""Magic SysRq's task dump (drivers/console/sysrq.c, kernel/proc/task_dump.c) over the
serial line, on both backends: a BREAK (QEMU's mux escape, duplex_qemu.Guest.sysrq) and
`t` or `w` make a kernel booted with `console.sysrq` print every task (or the blocked
ones) with its pid, state, hart, what it waits for and its signals. user/test_sysrq.c
leaves three children blocked in known ways (a pipe read, a sleep, a sigsuspend with a
blocked signal pending) and its parent in wait4. The polling backend has no RX
interrupt: with nobody reading the console it sees the BREAK through the RX watch
(`console.rx_watch`). Host timeouts are a guard only; the dump is asked for again until
every child has reached its wait (a count of tries, not a time)."""

import re

import duplex_qemu

import pytest

BACKENDS = ["polling", "async"]
PROMPT = rb"\$ "
SIGUSR1_BIT = 1 << (10 - 1)  # Linux's sigset_t: signal n is bit n - 1
TASK_LINE = re.compile(r"sysrq: task (\d+) pid (\d+) '([^']*)' (\w+) h(-?\d+)([^\r\n]*)")


def boot(guest_factory, image, backend, sysrq=True):
    append = f"console={backend}"
    if sysrq:
        append += " console.sysrq"
    if backend == "polling":
        append += " console.rx_watch"
    guest = guest_factory(image, smp=2, append=append, serial_break=True).start()
    guest.wait_for(PROMPT, timeout=60)
    return guest


def dump(guest, key):
    """Send SysRq `key`; the task lines of the dump it printed, by pid (kernel tasks,
    pid 0, by name), and the (shown, visited) counts of its end line."""
    guest.sysrq(key)
    start = guest.wait_for(rb"sysrq: (all|blocked) tasks at \d+ ms\r?\n", timeout=30).end()
    end = guest.wait_for(rb"sysrq: end \((\d+) of (\d+) tasks shown\)\r?\n", timeout=30)
    text = guest.output[start:end.start()].decode("latin-1")
    tasks = {}
    lines = TASK_LINE.findall(text)
    for task_id, pid, name, state, hart, rest in lines:
        key_of = int(pid) if int(pid) else name
        tasks[key_of] = {"task": int(task_id), "name": name, "state": state,
                         "hart": int(hart), "rest": rest}
    assert len(lines) == int(end.group(1)), text
    return tasks, int(end.group(1)), int(end.group(2))


def breaks_received(guest):
    guest.send("consolestat\n")
    count = int(guest.wait_for(rb"breaks_received\s+(\d+)\r?\n", timeout=60).group(1))
    guest.wait_for(PROMPT, timeout=60)
    return count


def waits_on(entry, what):
    return entry["state"] == "blocked" and f" on '{what}' " in entry["rest"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_dump_names_blocked_tasks_and_their_waits(image, guest_factory, backend):
    guest = boot(guest_factory, image, backend)
    guest.send("test_sysrq\n")
    ready = guest.wait_for(rb"SYSRQ-READY parent=(\d+) reader=(\d+) sleeper=(\d+) "
                           rb"suspender=(\d+)\r?\n", timeout=60)
    parent, reader, sleeper, suspender = (int(n) for n in ready.groups())
    expected = {parent: "child exited", reader: "pipe readable", sleeper: "sleep",
                suspender: "sigsuspend"}
    for _ in range(50):  # the children may not all be parked yet
        tasks, shown, visited = dump(guest, "t")
        if all(pid in tasks and waits_on(tasks[pid], what) for pid, what in expected.items()):
            break
    else:
        pytest.fail(f"the children never all showed their waits: {tasks}")
    assert shown == visited  # `t` shows every task
    for pid in (reader, sleeper, suspender):
        assert tasks[pid]["name"] == "test_sysrq"
        assert f" ppid {parent}" in tasks[pid]["rest"], tasks[pid]
    # The shell that started the parent waits for it in wait4 as well.
    shell = int(re.search(r" ppid (\d+)", tasks[parent]["rest"]).group(1))
    assert tasks[shell]["name"] == "sh" and waits_on(tasks[shell], "child exited")
    # The sleeper's wait has its deadline: about 1000 s away, never more.
    left = re.search(r" until \+(\d+)\.\d+ s ", tasks[sleeper]["rest"])
    assert left and 0 < int(left.group(1)) <= 1000, tasks[sleeper]
    # The suspender has SIGUSR1 blocked and pending; the others have nothing pending.
    signals = {pid: re.search(r" sigpnd (0x[0-9a-f]+) sigblk (0x[0-9a-f]+)",
                              tasks[pid]["rest"]) for pid in expected}
    assert int(signals[suspender].group(1), 16) == SIGUSR1_BIT
    assert int(signals[suspender].group(2), 16) & SIGUSR1_BIT
    assert int(signals[reader].group(1), 16) == 0
    # Every hart's idle task is listed, and user tasks carry their user pc.
    assert "idle0" in tasks and "idle1" in tasks
    assert all(" upc 0x" in tasks[pid]["rest"] for pid in expected)

    # `w`: only blocked tasks, and all four of ours.
    blocked, shown, visited = dump(guest, "w")
    assert all(entry["state"] == "blocked" for entry in blocked.values()), blocked
    assert set(expected) <= set(blocked)
    assert shown < visited  # the idle tasks were left out
    # An unknown key prints the help line.
    guest.sysrq("?")
    guest.wait_for(rb"sysrq: HELP : show-task-states\(t\) show-blocked-tasks\(w\)", timeout=30)

    # ^C ends the four; the SysRq keys never reached anyone's input: the shell's next
    # line is exactly what is typed now.
    guest.send("\x03")
    guest.wait_for(PROMPT, timeout=60)
    guest.sysrq("t")
    guest.wait_for(rb"sysrq: end", timeout=30)
    guest.send("echo after\n")
    guest.wait_for(rb"\nafter\r\n", timeout=60)
    guest.wait_for(PROMPT, timeout=60)


@pytest.mark.parametrize("backend", BACKENDS)
def test_break_is_input_unless_sysrq_is_on(image, guest_factory, backend):
    # Off (no console.sysrq): a BREAK is received as termios says (counted), no dump.
    guest = boot(guest_factory, image, backend, sysrq=False)
    before = breaks_received(guest)
    guest.send_break()
    guest.send("\x15")  # ^U: whatever the BREAK became on the line is erased
    assert breaks_received(guest) == before + 1
    assert b"sysrq:" not in guest.output
    guest.kill()

    # On: the BREAK that arms SysRq is not received, nor is its key.
    guest = boot(guest_factory, image, backend)
    before = breaks_received(guest)
    guest.sysrq("w")
    guest.wait_for(rb"sysrq: end", timeout=30)
    assert breaks_received(guest) == before
    guest.send("echo typed\n")
    guest.wait_for(rb"\ntyped\r\n", timeout=60)


def test_harness_dumps_an_idle_guest(image, guest_factory):
    # duplex_qemu's idle_after: a guest silent with QEMU idle (here a 1000 s sleep) ends
    # the wait with GuestIdle, and the failure carries the kernel's task dump.
    guest = boot(guest_factory, image, "async")
    guest.send("sleep 1000\n")
    guest.wait_for(rb"sleep 1000\r\n", timeout=60)
    with pytest.raises(duplex_qemu.GuestIdle) as idle:
        guest.wait_for(rb"never printed", timeout=600, idle_after=5)
    message = str(idle.value)
    assert re.search(r"sysrq: task \d+ pid \d+ 'sleep' blocked h\d+ [\d.]+ s on 'sleep' ",
                     message), message
    assert "sysrq: blocked tasks at" in message
