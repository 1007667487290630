/* consolestat: print the console backend's telemetry counters (and reset them with -r).
 *   consolestat [-r]
 * The counters come from the CONSOLE_IOCTL_TELEMETRY ioctl on fd 1; the benchmark
 * reads the same ioctl per section. */
#include <duplex.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>

int main(int argc, char **argv)
{
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
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		printf("%-16s %llu\n", rows[i].name, (unsigned long long)rows[i].value);
	if (argc > 1 && strcmp(argv[1], "-r") == 0) {
		fflush(stdout);
		if (ioctl(1, CONSOLE_IOCTL_RESET_TELEMETRY, 0) != 0) {
			perror("consolestat: reset");
			return 1;
		}
	}
	return 0;
}
