"""`bench --table` (user/bench/output.c): the few numbers the labs ask about, one short row per
result, instead of progress lines and BENCH JSON lines; the parent's rows again together
at the end. Run under -icount over the line model, so the counts are exact.
"""

import re

import duplex_qemu


def test_table_rows_replace_json_and_progress(image, request):
    name = duplex_qemu.sanitize_name(request.node.name)
    with duplex_qemu.Guest(image, smp=2, icount=True, name=name, interactive=False,
                           append="console=async uart.line=115200 init=/bin/bench -- "
                                  "--table --quick --sections S40,S44") as guest:
        assert guest.wait_exit(120) == 0
        text = guest.output.decode("latin-1")
    assert "BENCH {" not in text
    assert not re.search(r"^# S40", text, re.M), "progress lines in table mode"
    rows = re.findall(r"^(S40|S44|header|end) +(.*?)\r?$", text, re.M)
    burst = [r for s, r in rows if s == "S40" and "workload=burst" in r]
    # Printed where it was measured, and again in the summary at the end.
    assert len(burst) == 2 and burst[0] == burst[1], burst
    assert "thr_bytes=2560  fifo_loads=160  bytes_per_fifo_load=16.00" in burst[0]
    # The first 16 bytes go straight into the FIFO, the other 159 loads come from TX
    # interrupts, and the refill that empties the ring turns the interrupt off (stop_tx):
    # no interrupt comes only to find nothing.
    assert "thre_interrupts=159" in burst[0]
    # Workers (other processes) print their own rows: 1 + 2 harts' worth.
    workers = [r for s, r in rows if s == "S44" and "role=worker" in r]
    assert len(workers) == 3 and all("blocked_p99_us=" in w for w in workers), workers
    summary = text.split("-- bench --table: the results above, together --", 1)
    assert len(summary) == 2 and "workload=drain_each" in summary[1]
    assert re.search(r"^header +backend=async  env=qemu\+line  harts=2  baud=115200", text, re.M)
    assert re.search(r"^end +failures=0", text, re.M)
