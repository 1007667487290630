"""QEMU record/replay (issue #29): a recorded run repeats to the byte, the harness can
keep the record of a run, and what stops it on several harts (docs/design.md,
"Determinism"). Asserts bytes and QEMU's own messages, no timing."""

import subprocess

import pytest

import duplex_qemu


def run(image, tmp_path, name, **kwargs):
    """Boot to power-off without a socket; return (status, output bytes)."""
    with duplex_qemu.Guest(image, icount=True, interactive=False, name=name,
                           log_dir=tmp_path, **kwargs) as guest:
        status = guest.wait_exit(timeout=120)
        return status, guest.output


@pytest.mark.parametrize("append", [
    "selftest=timers",
    # The run that once differed by 300 ns between two plain -icount runs on a loaded host.
    "console=async,thread uart.line=115200 init=/bin/linetest -- 2880 5 10",
])
def test_a_recorded_one_hart_run_replays_to_the_byte(image, tmp_path, append):
    record = tmp_path / "run.rr"
    status, recorded = run(image, tmp_path, "record", smp=1, append=append, record=record)
    assert status == 0
    assert record.stat().st_size > 0
    status, replayed = run(image, tmp_path, "replay", smp=1, append=append, replay=record)
    assert status == 0
    assert b"PASS" in recorded or b"LINETEST done" in recorded
    assert replayed == recorded


def test_record_on_several_harts_is_refused(image, tmp_path):
    # The harness says why before starting QEMU ...
    with pytest.raises(duplex_qemu.GuestError, match="needs SMP=1"):
        duplex_qemu.Guest(image, smp=4, icount=True, record=tmp_path / "four.rr",
                          log_dir=tmp_path).start()
    # ... and QEMU 7.2 itself refuses it (the reason there is no 4-hart replay test).
    command = duplex_qemu.qemu_command("qemu-virt", image, smp=4, append="selftest=timers",
                                       serial=["-display", "none", "-monitor", "none",
                                               "-serial", "null"])
    command += ["-icount", f"shift=0,sleep=off,rr=record,rrfile={tmp_path / 'four.rr'}"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "Record/replay feature is not supported for 'smp'" in result.stderr


def test_the_record_is_named_in_a_failure(image, tmp_path):
    record = tmp_path / "hang.rr"
    with duplex_qemu.Guest(image, smp=1, icount=True, interactive=False, name="hang",
                           log_dir=tmp_path, append="selftest=timers",
                           record=record) as guest:
        with pytest.raises(duplex_qemu.GuestExited) as caught:
            guest.wait_for("never printed", timeout=120)
    assert f"record: {record} (replay: make run REPLAY={record} " in str(caught.value)
    assert record.stat().st_size > 0


def test_make_run_record_then_replay(tmp_path):
    # The Makefile's wiring: RECORD= and REPLAY= with the same command line, SMP left to
    # its default (1 when either is given).
    record = tmp_path / "make.rr"
    outputs = []
    for variable in (f"RECORD={record}", f"REPLAY={record}"):
        result = subprocess.run(["make", "-s", "run", variable, "CMDLINE=selftest=timers"],
                                cwd=duplex_qemu.REPO_ROOT, stdin=subprocess.DEVNULL,
                                capture_output=True, timeout=600)
        assert result.returncode == 0, result.stderr.decode(errors="replace")
        assert b" -smp 1 " in result.stderr and b",rr=" in result.stderr
        outputs.append(result.stdout[result.stdout.index(b"OpenSBI"):])
    assert b"selftest timers: PASS" in outputs[0]
    assert outputs[0] == outputs[1]
