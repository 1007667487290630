/* consolestat: print the console backend's telemetry counters (and reset them with -r).
 *   consolestat [-r] [-h]
 * The counters come from the CONSOLE_IOCTL_TELEMETRY ioctl on fd 1; the benchmark
 * reads the same ioctl per section (S40). -h says what each counter counts. */
#include <duplex.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>

/* What each counter counts, in the order printed (uapi/console_telemetry.h). */
static const char *const explanations[] = {
    "write_calls      write() calls that reached the backend (one per piece of a write)",
    "bytes_written    bytes the backend accepted from writers (after \\n -> \\r\\n)",
    "ring_pushes      async: pushes into the TX ring (writes and kernel log lines)",
    "ring_pops        async: FIFO refills taken from the TX ring",
    "thr_bytes        bytes written to the UART's transmit holding register",
    "thre_interrupts  async: TX interrupts (THRE: the FIFO is empty) handled",
    "fifo_loads       loads of the TX FIFO (polling,byte: one per byte)",
    "idle_kicks       async: a writer found the transmitter idle and started it",
    "wakeups          tasks woken: writers waiting for room, drainers, readers, the copier",
    "drain_waits      tcdrain calls that had to wait",
    "ring_high_water  async: most bytes ever queued in the TX ring",
    "rx_bytes         bytes received",
    "rx_overruns      received bytes lost: the RX ring was full, or the UART overran",
    "rx_errors        parity, framing or break errors the UART reported",
    "log_skipped      kernel log records overwritten before the console printed them (the\n"
    "                 console then prints \"** N kernel messages dropped **\" in their place)",
    "tx_busy_polls    polling: looks at the UART that found no room (the CPU waiting)",
    "direct_writes    async: writes put straight into an idle FIFO, bypassing the ring",
    "lines            line discipline: canonical lines ended (newline, VEOL, VEOF)",
    "edits            line discipline: erase, word erase and kill characters that erased",
    "signals          line discipline: ^C, ^\\, ^Z (and BRKINT breaks) for the foreground",
    "echoed           line discipline: bytes echoed",
    "echo_dropped     line discipline: echo lost, its buffer full",
    "input_dropped    line discipline: received bytes lost, the read buffer full (counted\n"
    "                 in rx_overruns too)",
    "flow_stops       line discipline: output stopped by ^S (IXON)",
    "throttles        line discipline: STOP sent, the read buffer nearly full (IXOFF)",
    "flow_chars       STOP/START put on the line ahead of queued output and echo (IXOFF,\n"
    "                 tcflow)",
    "breaks_received  breaks the UART reported",
    "breaks_sent      breaks sent (tcsendbreak, TCSBRKP, TIOCSBRK)",
};

static void usage(FILE *out)
{
	fputs("usage: consolestat [-r] [-h]\n"
	      "  Prints the console backend's counters since boot or the last reset, after\n"
	      "  letting queued output leave (tcdrain).\n"
	      "  -r  reset the counters after printing them\n"
	      "  -h  this text\n"
	      "counters:\n",
	      out);
	for (size_t i = 0; i < sizeof explanations / sizeof explanations[0]; i++)
		fprintf(out, "  %s\n", explanations[i]);
}

int main(int argc, char **argv)
{
	bool reset = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-r") == 0) {
			reset = true;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "consolestat: unknown option %s\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	struct console_telemetry counters;
	/* Let queued output leave first, so the counters agree with each other (every byte
	 * written has also reached the UART) and do not depend on when this runs. */
	tcdrain(1);
	if (ioctl(1, CONSOLE_IOCTL_TELEMETRY, &counters) != 0) {
		perror("consolestat: telemetry ioctl");
		return 1;
	}
	const struct {
		const char *name;
		uint64_t value;
	} rows[] = {
	    {"write_calls", counters.write_calls},
	    {"bytes_written", counters.bytes_written},
	    {"ring_pushes", counters.ring_pushes},
	    {"ring_pops", counters.ring_pops},
	    {"thr_bytes", counters.thr_bytes},
	    {"thre_interrupts", counters.thre_interrupts},
	    {"fifo_loads", counters.fifo_loads},
	    {"idle_kicks", counters.idle_kicks},
	    {"wakeups", counters.wakeups},
	    {"drain_waits", counters.drain_waits},
	    {"ring_high_water", counters.ring_high_water},
	    {"rx_bytes", counters.rx_bytes},
	    {"rx_overruns", counters.rx_overruns},
	    {"rx_errors", counters.rx_errors},
	    {"log_skipped", counters.log_skipped},
	    {"tx_busy_polls", counters.tx_busy_polls},
	    {"direct_writes", counters.direct_writes},
	    {"lines", counters.lines},
	    {"edits", counters.edits},
	    {"signals", counters.signals},
	    {"echoed", counters.echoed},
	    {"echo_dropped", counters.echo_dropped},
	    {"input_dropped", counters.input_dropped},
	    {"flow_stops", counters.flow_stops},
	    {"throttles", counters.throttles},
	    {"flow_chars", counters.flow_chars},
	    {"breaks_received", counters.breaks_received},
	    {"breaks_sent", counters.breaks_sent},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		printf("%-16s %llu\n", rows[i].name, (unsigned long long)rows[i].value);
	if (reset) {
		fflush(stdout);
		if (ioctl(1, CONSOLE_IOCTL_RESET_TELEMETRY, 0) != 0) {
			perror("consolestat: reset");
			return 1;
		}
	}
	return 0;
}
