"""The typist for bench's typed sections, S22 (echo) and S23 (^C): a host thread that
answers every request bench writes on the console, ENQ (0x05) followed by one byte, by
typing that byte on the guest's serial input (user/bench/terminal.c says why and what
is timed; docs/benchmark.md).

    typist = Typist(guest)      # an interactive duplex_qemu.Guest, started
    typist.start()
    ...
    typist.stop()               # returns how many bytes it typed

Used by tools/run-bench (the typed runs) and tests/test_bench_terminal.py. It only
answers: the guest decides when each byte comes, so the times bench measures are the
guest's own, in its virtual clock; how fast the host answers changes only how long a
run takes."""

import threading
import time

TYPE_REQUEST = 0x05  # user/bench/terminal.c TYPE_REQUEST
LOOK_S = 0.002       # host seconds between looks at the guest's output


class Typist(threading.Thread):
    def __init__(self, guest):
        super().__init__(name=f"typist-{guest.name}", daemon=True)
        self.guest = guest
        self.typed = 0
        self.error = None
        self._stopping = threading.Event()

    def run(self):
        seen = 0
        try:
            while not self._stopping.is_set():
                output = self.guest.output
                at = output.find(bytes([TYPE_REQUEST]), seen)
                if at < 0 or at + 1 >= len(output):
                    seen = max(seen, at if at >= 0 else len(output))
                    if self.guest.returncode is not None:
                        return
                    time.sleep(LOOK_S)
                    continue
                self.guest.send(output[at + 1:at + 2])
                self.typed += 1
                seen = at + 2
        except Exception as error:  # the guest went away: the run's own checks report it
            self.error = error

    def stop(self):
        self._stopping.set()
        self.join(10)
        return self.typed
